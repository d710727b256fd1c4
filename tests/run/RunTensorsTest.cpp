// The memory image of each tensor parameter: ceil(cosize x bits / 8) bytes
// under the bound sizes, and the dtype and shape of the .npy file written
// for it. Planned and written without running anything.
#include "RunTestUtil.h"

#include "run/RunPlan.h"

namespace cutec {
namespace {

struct TensorCase {
  const char *name;
  ir::DataType element;
  Layout layout;
  size_t bytes;      // for M=10, K=3
  const char *dtype; // written
  int64_t count;     // elements written
};

TEST(RunTensors, MemoryImagesAndTheirNpyFiles) {
  IntExpr m = IntExpr::symbol("M"), k = IntExpr::symbol("K");
  const TensorCase cases[] = {
      // A padded row stride: cosize (M-1) + (K-1)(M+6) + 1 = 42.
      {"padded", ir::DataType::F16, Layout(tup(m, k), tup(1, m + IntExpr(6))), 84, "<f2", 42},
      {"bf", ir::DataType::BF16, Layout(m, 1), 20, "<u2", 10},
      // 4 and 6 bits per element round up to whole bytes.
      {"fp4", ir::DataType::F4E2M1, Layout(tup(m, k), tup(k, 1)), 15, "|u1", 15},
      {"fp6", ir::DataType::F6E3M2, Layout(m, 1), 8, "|u1", 8},
      {"sf", ir::DataType::UE8M0, Layout(tup(m, 4), tup(0, 1)), 4, "|u1", 4},
      {"flags", ir::DataType::Bool, Layout(m, 1), 10, "|b1", 10},
      {"wide", ir::DataType::I64, Layout(k, 2), 40, "<i8", 5},
  };
  auto module = std::make_unique<ir::Module>();
  auto kernel = std::make_unique<ir::Operation>(ir::OpKind::Kernel, llvm::SMLoc());
  kernel->set(ir::attr::name, std::string("images"));
  kernel->set(ir::attr::block, tup(32, 1, 1));
  kernel->set(ir::attr::grid, tup(ceilDiv(m, IntExpr(4)), k, 1));
  kernel->set(ir::attr::dynamicSizes, tup(m, k));
  ir::Block &entry = kernel->addRegion().addBlock();
  test::TempDir dir;
  RunOptions options;
  options.sizes = {"K=3", "M=10"};
  for (const TensorCase &c : cases) {
    entry.addArgument(ir::Type::tensor(c.element, ir::MemorySpace::Global, c.layout), c.name);
    options.outs.push_back(std::string(c.name) + "=" + dir.file(std::string(c.name) + ".npy"));
  }
  entry.addArgument(ir::Type::scalar(ir::DataType::I32), "M");
  entry.addArgument(ir::Type::scalar(ir::DataType::I32), "K");
  module->kernels().push_back(std::move(kernel));

  llvm::Expected<RunPlan> plan = planRun(*module, options);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->config.grid, (rt::Dim3{3, 3, 1}));
  EXPECT_EQ(plan->config.block, (rt::Dim3{32, 1, 1}));
  std::string printed;
  llvm::raw_string_ostream out(printed);
  ASSERT_FALSE(bool(writeOutputs(plan->tensors, out)));
  for (size_t i = 0; i < std::size(cases); ++i) {
    const TensorCase &c = cases[i];
    EXPECT_EQ(plan->tensors[i].size, c.bytes) << c.name;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(plan->tensors[i].data.get()) % 256, 0u) << c.name;
    rt::NpyResult<rt::NpyArray> file = rt::readNpyFile(dir.file(std::string(c.name) + ".npy"));
    ASSERT_TRUE(bool(file)) << file.error();
    EXPECT_EQ(file.value().dtype, c.dtype) << c.name;
    EXPECT_EQ(file.value().shape, std::vector<int64_t>{c.count}) << c.name;
    // Nothing ran: every byte is still the 0xFF fill.
    EXPECT_EQ(file.value().bytes, std::vector<uint8_t>(c.bytes, 0xFF)) << c.name;
  }
}

} // namespace
} // namespace cutec
