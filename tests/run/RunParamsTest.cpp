// The parameter struct `cutec run` builds (run/RunParams.h) against
// the one the emulation printer declares, as the compiler lays it out:
// offsetof and sizeof from JIT'd code, for decode_sum and for a kernel whose
// tensors and sizes alternate, so that members need padding.
#include "RunTestUtil.h"

#include "codegen/jit/EmulationJit.h"
#include "run/RunParams.h"

namespace cutec {
namespace {

/// A kernel taking (a, M, b, K, L), whose body returns at once.
std::unique_ptr<ir::Operation> makeAlternatingKernel() {
  auto kernel = std::make_unique<ir::Operation>(ir::OpKind::Kernel, llvm::SMLoc());
  kernel->set(ir::attr::name, std::string("alternating"));
  kernel->set(ir::attr::block, tup(32, 1, 1));
  ir::Block &entry = kernel->addRegion().addBlock();
  ir::Type tensor = ir::Type::tensor(ir::DataType::F16, ir::MemorySpace::Global, Layout(8, 1));
  ir::Type size = ir::Type::scalar(ir::DataType::I32);
  entry.addArgument(tensor, "a");
  entry.addArgument(size, "M");
  entry.addArgument(tensor, "b");
  entry.addArgument(size, "K");
  entry.addArgument(size, "L");
  ir::Builder(entry).create(ir::OpKind::Return, llvm::SMLoc());
  return kernel;
}

TEST(RunParams, LayoutMatchesTheCompiledStruct) {
  std::unique_ptr<ir::Module> module = test::makeDecodeSumModule();
  module->kernels().push_back(makeAlternatingKernel());

  // For each kernel: the offset of each member, then the struct's size.
  std::string source = test::emulationOf(*module) + "\n#include <cstddef>\n" +
                       "extern \"C\" const size_t cutec_test_params_layout[] = {\n";
  std::vector<size_t> expected;
  for (const auto &kernel : module->kernels()) {
    std::string structName = *kernel->get(ir::attr::name) + "_Params";
    const ir::Block &entry = kernel->regions()[0]->front();
    for (const auto &arg : entry.arguments())
      source += "  offsetof(" + structName + ", " + parameterName(*arg) + "),\n";
    source += "  sizeof(" + structName + "),\n";
    ParamsLayout layout = layoutParams(entry);
    expected.insert(expected.end(), layout.offsets.begin(), layout.offsets.end());
    expected.push_back(layout.size);
  }
  source += "};\n";

  llvm::Expected<std::unique_ptr<EmulationJit>> jit = EmulationJit::create();
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  llvm::Error added = (*jit)->addSource(source, "params_layout.cpp");
  ASSERT_FALSE(bool(added)) << llvm::toString(std::move(added));
  llvm::Expected<void *> compiled = (*jit)->lookup("cutec_test_params_layout");
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  const auto *actual = static_cast<const size_t *>(*compiled);
  EXPECT_EQ(std::vector<size_t>(actual, actual + expected.size()), expected);
  // Padding is what this test is about: check it is there.
  EXPECT_EQ(expected, (std::vector<size_t>{0, 8, 16, 24, 0, 8, 16, 24, 28, 32}));
}

} // namespace
} // namespace cutec
