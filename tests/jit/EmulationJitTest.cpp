// EmulationJit tests: C++ compiled in-process and called, using the standard
// library, threads, the runtime headers and functions of this executable.
#include "JitTestUtil.h"

#include "runtime/numerics/FloatFormat.h"

#include "llvm/Support/FileSystem.h"

#include <cmath>
#include <cstdlib>
#include <thread>

using cutec::CxxCompileOptions;
using cutec::EmulationJit;
using cutec::test::functionOf;
using cutec::test::jitWith;

// Called by the JIT'd code: the executable exports them (ENABLE_EXPORTS).
extern "C" int cutecJitTestHostSquare(int x) { return x * x; }
static int staticDestructorsRun = 0;
extern "C" void cutecJitTestNoteDestructor() { ++staticDestructorsRun; }

namespace {

TEST(EmulationJitTest, CallsCompiledFunction) {
  auto jit = jitWith(R"(extern "C" int add(int a, int b) { return a + b; })");
  ASSERT_TRUE(jit);
  auto *add = functionOf<int(int, int)>(*jit, "add");
  ASSERT_TRUE(add);
  EXPECT_EQ(add(2, 3), 5);
}

TEST(EmulationJitTest, StandardLibraryThreadsAndThreadLocals) {
  auto jit = jitWith(R"(
#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

// A dynamic initialiser: the JIT must run it before the code is called.
static const std::vector<double> roots = [] {
  std::vector<double> values;
  for (int i = 0; i < 8; ++i)
    values.push_back(std::sqrt(double(i)));
  return values;
}();
thread_local int visitsOnThisThread = 0;

extern "C" double sumOfRootsOnThreads(int numThreads) {
  std::vector<double> sums(numThreads);
  std::atomic<int> visits{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < numThreads; ++t)
    threads.emplace_back([&, t] {
      for (double root : roots) {
        sums[t] += root;
        ++visitsOnThisThread;
      }
      visits += visitsOnThisThread;
    });
  for (std::thread &thread : threads)
    thread.join();
  // A thread_local shared between threads would count more visits.
  if (visits != numThreads * int(roots.size()))
    return -1;
  double total = 0;
  for (double sum : sums)
    total += sum;
  return total;
}
)");
  ASSERT_TRUE(jit);
  auto *sumOfRoots = functionOf<double(int)>(*jit, "sumOfRootsOnThreads");
  ASSERT_TRUE(sumOfRoots);
  double perThread = 0;
  for (int i = 0; i < 8; ++i)
    perThread += std::sqrt(double(i));
  EXPECT_DOUBLE_EQ(sumOfRoots(4), 4 * perThread);
}

TEST(EmulationJitTest, IncludesRuntimeHeadersAndCallsRuntime) {
  auto jit = jitWith(R"(
#include "runtime/numerics/FloatFormat.h"
#include "runtime/numerics/Fp4Packing.h"

extern "C" float decodeHighNibble(unsigned char byte) {
  return cutec::rt::decode(cutec::rt::kE2M1, cutec::rt::unpackFp4(byte)[1]);
}
)");
  ASSERT_TRUE(jit);
  auto *decodeHighNibble = functionOf<float(unsigned char)>(*jit, "decodeHighNibble");
  ASSERT_TRUE(decodeHighNibble);
  // decode() itself is the executable's copy of cutec_runtime.
  EXPECT_EQ(decodeHighNibble(0x71), cutec::rt::decode(cutec::rt::kE2M1, 0x7));
  EXPECT_EQ(decodeHighNibble(0x71), 6.0f);
}

TEST(EmulationJitTest, CallsHostFunction) {
  auto jit = jitWith(R"(
extern "C" int cutecJitTestHostSquare(int x);
extern "C" int squarePlusOne(int x) { return cutecJitTestHostSquare(x) + 1; }
)");
  ASSERT_TRUE(jit);
  auto *squarePlusOne = functionOf<int(int)>(*jit, "squarePlusOne");
  ASSERT_TRUE(squarePlusOne);
  EXPECT_EQ(squarePlusOne(7), 50);
}

TEST(EmulationJitTest, StaticDestructorsRunWhenJitIsDestroyed) {
  auto jit = jitWith(R"(
extern "C" void cutecJitTestNoteDestructor();
struct NoteOnExit {
  ~NoteOnExit() { cutecJitTestNoteDestructor(); }
} noteOnExit;
)");
  ASSERT_TRUE(jit);
  staticDestructorsRun = 0;
  jit.reset();
  EXPECT_EQ(staticDestructorsRun, 1);
}

TEST(EmulationJitTest, TwoJitsOnTwoThreadsAreIndependent) {
  // The same symbol in both: each instance has its own.
  int results[2] = {};
  auto run = [&](int which) {
    CxxCompileOptions options;
    options.defines = {"WHICH=" + std::to_string(which)};
    auto jit = jitWith(R"(extern "C" int which() { return WHICH; })", options);
    if (!jit)
      return;
    if (auto *function = functionOf<int()>(*jit, "which"))
      results[which] = function();
  };
  std::thread first(run, 0), second(run, 1);
  first.join();
  second.join();
  EXPECT_EQ(results[0], 0);
  EXPECT_EQ(results[1], 1);
}

TEST(EmulationJitTest, SourcesAddedToOneJitSeeEachOther) {
  auto jit = jitWith(R"(extern "C" int base() { return 40; })");
  ASSERT_TRUE(jit);
  ASSERT_FALSE(bool(jit->addSource(R"(
extern "C" int base();
extern "C" int derived() { return base() + 2; }
)",
                                   "second.cpp")));
  auto *derived = functionOf<int()>(*jit, "derived");
  ASSERT_TRUE(derived);
  EXPECT_EQ(derived(), 42);
}

TEST(EmulationJitTest, RuntimeIncludeDirPrecedence) {
  CxxCompileOptions options;
  ::unsetenv("CUTEC_INCLUDE_DIR");
  std::string builtIn = cutec::resolveRuntimeIncludeDir(options);
  EXPECT_TRUE(llvm::sys::fs::exists(builtIn + "/runtime/numerics/FloatFormat.h")) << builtIn;
  ::setenv("CUTEC_INCLUDE_DIR", "/from/environment", 1);
  EXPECT_EQ(cutec::resolveRuntimeIncludeDir(options), "/from/environment");
  options.runtimeIncludeDir = "/from/options";
  EXPECT_EQ(cutec::resolveRuntimeIncludeDir(options), "/from/options");
  ::unsetenv("CUTEC_INCLUDE_DIR");
}

} // namespace
