// `cutec run` end to end: decode_sum's emulation compiled in-process and run
// on .npy files, compared bit for bit with a reference computed here; a
// kernel reading out of bounds reports the runtime's diagnostic.
#include "RunTestUtil.h"

#include "runtime/numerics/FloatFormat.h"
#include "run/RunCompile.h"
#include "run/RunPlan.h"

#include <chrono>
#include <cmath>

namespace cutec {
namespace {

using test::RunOutcome;
using test::TempDir;

constexpr int kThreads = 128;
constexpr int kN = 256;

/// x's bytes: every fp4 pair, so both signs of zero and all magnitudes occur.
std::vector<uint8_t> decodeSumInput() {
  std::vector<uint8_t> x(kN / 2);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = uint8_t(i * 2 + (i >> 6));
  return x;
}

/// What decode_sum stores for thread t: its byte's two nibbles decoded and
/// added, then n fused multiply-adds of that sum squared into an f32
/// accumulator from +0, stored as is when positive and negated otherwise.
float decodeSumReference(uint8_t byte, int n) {
  float lo = rt::decode(rt::kE2M1, byte & 15), hi = rt::decode(rt::kE2M1, byte >> 4);
  float sum = lo + hi;
  float acc = 0.0f;
  for (int i = 0; i < n; ++i)
    acc = std::fma(sum, sum, acc);
  return 0.0f < acc ? acc : -acc;
}

uint32_t bitsOf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

rt::NpyArray readBack(const std::string &path) {
  rt::NpyResult<rt::NpyArray> array = rt::readNpyFile(path);
  EXPECT_TRUE(bool(array)) << array.error();
  return array ? array.value() : rt::NpyArray{};
}

class DecodeSumRun : public ::testing::Test {
protected:
  // One compilation for the tests that plan and launch themselves.
  static void SetUpTestSuite() {
    module = test::makeDecodeSumModule().release();
    auto start = std::chrono::steady_clock::now();
    llvm::Expected<CompiledKernel> kernel =
        compileEmulation(test::emulationOf(*module), "decode_sum", "");
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!kernel) {
      compileError = llvm::toString(kernel.takeError());
      return;
    }
    compiled = new CompiledKernel(std::move(*kernel));
    std::printf("compiled the decode_sum emulation at -O2 in %.2f s\n", seconds);
  }
  static void TearDownTestSuite() {
    delete compiled;
    delete module;
  }
  void SetUp() override { ASSERT_TRUE(compiled) << compileError; }

  static inline ir::Module *module = nullptr;
  static inline CompiledKernel *compiled = nullptr;
  static inline std::string compileError;
  TempDir dir;
};

TEST_F(DecodeSumRun, DriverEntryRunsAndWritesOutputs) {
  std::string x = test::writeNpy(dir, "x.npy", "|u1", decodeSumInput());
  RunOptions options;
  options.sizes = {"n=256"};
  options.args = {"x=" + x};
  options.outs = {"y=" + dir.file("y.npy")};
  RunOutcome run = test::runWith(*module, test::emulationOf(*module), options);
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out, "ran decode_sum: grid (1,1,1), block (128,1,1)\nwrote y to " +
                         dir.file("y.npy") + ": 256 x <f4\n");

  rt::NpyArray y = readBack(dir.file("y.npy"));
  EXPECT_EQ(y.dtype, "<f4");
  ASSERT_EQ(y.shape, std::vector<int64_t>{kN});
  std::vector<uint8_t> input = decodeSumInput();
  std::vector<float> values = test::valuesOf<float>(y.bytes);
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(bitsOf(values[t]), bitsOf(decodeSumReference(input[t], kN)))
        << "thread " << t << ": byte " << int(input[t]) << " gives " << values[t];
  // y is only an output: what the kernel did not write stays 0xFF bytes.
  for (int i = kThreads; i < kN; ++i)
    EXPECT_EQ(bitsOf(values[i]), 0xFFFFFFFFu) << "element " << i;
}

TEST_F(DecodeSumRun, TensorInArgAndOutIsReadAndWrittenBack) {
  RunOptions options;
  options.sizes = {"n=300"};
  std::vector<uint8_t> input = decodeSumInput();
  input.resize(150, 0x22);
  options.args = {
      "x=" + test::writeNpy(dir, "x.npy", "|u1", input),
      "y=" + test::writeNpy(dir, "y0.npy", "<f4", test::bytesOf(std::vector<float>(300, 7.0f)))};
  options.outs = {"y=" + dir.file("y.npy")};
  options.workers = 2;
  llvm::Expected<RunPlan> plan = planRun(*module, options);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  llvm::Expected<uint32_t> ran = launchPlan(*plan, *compiled->descriptor);
  ASSERT_TRUE(bool(ran)) << llvm::toString(ran.takeError());
  std::string printed;
  llvm::raw_string_ostream out(printed);
  ASSERT_FALSE(bool(writeOutputs(plan->tensors, out)));

  std::vector<float> values = test::valuesOf<float>(readBack(dir.file("y.npy")).bytes);
  ASSERT_EQ(values.size(), 300u);
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(bitsOf(values[t]), bitsOf(decodeSumReference(input[t], 300))) << "thread " << t;
  for (int i = kThreads; i < 300; ++i)
    EXPECT_EQ(values[i], 7.0f) << "element " << i;
}

TEST(RunKernel, ReportsTheRuntimesOutOfBoundsDiagnostic) {
  TempDir dir;
  std::unique_ptr<ir::Module> module = test::makeDoubleInPlaceModule();
  RunOptions options;
  options.sizes = {"n=100"};
  std::string x = test::writeNpy(dir, "x.npy", "<f4", test::bytesOf(std::vector<float>(100, 1)));
  options.args = {"x=" + x};
  options.outs = {"x=" + dir.file("out.npy")};
  RunOutcome run = test::runWith(*module, test::emulationOf(*module), options);
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(llvm::StringRef(run.err).starts_with(
      "cutec: error: kernel 'double_in_place', CTA (0,0,0), thread (100,0,0)"))
      << run.err;
  EXPECT_NE(run.err.find("past the end of buffer 'x'"), std::string::npos) << run.err;
  EXPECT_FALSE(llvm::sys::fs::exists(dir.file("out.npy")));
}

} // namespace
} // namespace cutec
