// The host launcher printer on hand-built machine IR: the header it prints,
// and that g++ compiles it against the CUDA driver API headers.
#include "MachineKernels.h"

#include "codegen/host/HostPrinter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

/// makeDecodeSumKernel with grid (ceil_div(n,128), 1, 1).
std::unique_ptr<ir::Module> decodeSumWithGrid() {
  auto module = test::makeDecodeSumKernel();
  module->kernels()[0]->set(ir::attr::grid, tup(ceilDiv(IntExpr::symbol("n"), IntExpr(128)), 1, 1));
  return module;
}

std::string launcherOf(const ir::Module &m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error e = host::printHostLauncher(m, os);
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return text;
}

TEST(HostPrinter, PrintsArgsLoadAndLaunch) {
  std::string text = launcherOf(*decodeSumWithGrid());
  for (const char *expected : {
           "#include <cuda.h>",
           "struct decode_sum_LaunchArgs {\n  CUdeviceptr x;\n  CUdeviceptr y;\n  uint32_t n;\n};",
           "inline CUresult cutec_load_decode_sum(const char *ptx, CUmodule *module, "
           "CUfunction *function) {",
           "CUresult result = cuModuleLoadData(module, ptx);",
           "result = cuModuleGetFunction(function, *module, \"decode_sum\");",
           "inline CUresult cutec_launch_decode_sum(CUfunction f, const decode_sum_LaunchArgs "
           "&args, CUstream stream) {",
           "auto ceil_div = [](uint64_t a, uint64_t b)",
           "const uint64_t grid[3] = {ceil_div(uint64_t{args.n}, 128), 1, 1};",
           "if (g == 0 || g > UINT32_MAX)\n      return CUDA_ERROR_INVALID_VALUE;",
           "void *kernelParams[] = {&params.x, &params.y, &params.n};",
           "return cuLaunchKernel(f, uint32_t(grid[0]), uint32_t(grid[1]), uint32_t(grid[2]), "
           "128, 1, 1,\n                        /*sharedMemBytes=*/0, stream, kernelParams, "
           "/*extra=*/nullptr);",
       })
    EXPECT_NE(text.find(expected), std::string::npos) << "missing: " << expected << "\n" << text;
}

TEST(HostPrinter, PrintsProductsSumsAndOnlyTheHelpersUsed) {
  auto module = decodeSumWithGrid();
  IntExpr n = IntExpr::symbol("n");
  module->kernels()[0]->set(ir::attr::grid, tup(n * n * 2, n + 3, min(n, IntExpr(4))));
  std::string text = launcherOf(*module);
  EXPECT_NE(text.find("const uint64_t grid[3] = {(2 * uint64_t{args.n} * uint64_t{args.n}), "
                      "(uint64_t{args.n} + 3), min(4, uint64_t{args.n})};"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("auto min = "), std::string::npos) << text;
  EXPECT_EQ(text.find("auto ceil_div = "), std::string::npos) << text;
}

TEST(HostPrinter, ClustersAbove8CtasOptInToNonPortableSizes) {
  const char *optIn =
      "cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)";
  auto module = decodeSumWithGrid();
  module->kernels()[0]->set(ir::attr::grid, tup(16, 1, 1));
  module->kernels()[0]->set(ir::attr::cluster, tup(8, 1, 1));
  std::string portable = launcherOf(*module);
  EXPECT_NE(portable.find("cluster.value.clusterDim.x = 8;"), std::string::npos) << portable;
  EXPECT_EQ(portable.find(optIn), std::string::npos) << portable;
  module->kernels()[0]->set(ir::attr::cluster, tup(16, 1, 1));
  std::string large = launcherOf(*module);
  size_t at = large.find(optIn);
  EXPECT_NE(at, std::string::npos) << large;
  EXPECT_LT(at, large.find("cuLaunchKernelEx")) << large;
}

TEST(HostPrinter, GridOverAnUnknownSizeIsAnError) {
  auto module = decodeSumWithGrid();
  module->kernels()[0]->set(ir::attr::grid, tup(IntExpr::symbol("M"), 1, 1));
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error e = host::printHostLauncher(*module, os);
  ASSERT_TRUE(bool(e));
  EXPECT_EQ(llvm::toString(std::move(e)), "host printer: the grid of kernel 'decode_sum' uses "
                                          "'M', which is not one of its dynamic sizes");
  EXPECT_TRUE(text.empty()) << text;
}

void writeFile(const llvm::Twine &path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path.str(), ec);
  ASSERT_FALSE(ec) << path.str() << ": " << ec.message();
  os << text;
}

TEST(HostPrinter, HeaderCompilesAgainstTheCudaHeaders) {
  std::string cudaInclude = CUTEC_CUDA_INCLUDE;
  ASSERT_TRUE(llvm::sys::fs::exists(cudaInclude + "/cuda.h"))
      << cudaInclude << "/cuda.h is missing: install the CUDA toolkit (or set "
      << "CUTEC_CUDA_INCLUDE) to check the launcher header";
  auto gxx = llvm::sys::findProgramByName("g++");
  ASSERT_TRUE(bool(gxx)) << "g++ not found: " << gxx.getError().message();

  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cutec-host", dir));
  // A grid that calls every helper, so that each compiles warning-free.
  auto module = decodeSumWithGrid();
  IntExpr n = IntExpr::symbol("n");
  module->kernels()[0]->set(
      ir::attr::grid,
      tup(ceilDiv(n, IntExpr(128)), min(n, IntExpr(4)) + n % IntExpr(3), n / IntExpr(2) * n));
  std::string launcher = launcherOf(*module);
  for (const char *helper : {"auto ceil_div = ", "auto min = ", "auto mod = ", "auto div = "})
    EXPECT_NE(launcher.find(helper), std::string::npos) << helper << "\n" << launcher;
  writeFile(dir + "/decode_sum_launch.h", launcher);
  writeFile(dir + "/use.cpp", R"(#include "decode_sum_launch.h"
#include "decode_sum_launch.h"
CUresult use(const char *ptx, CUstream stream) {
  CUmodule module;
  CUfunction function;
  if (CUresult r = cutec_load_decode_sum(ptx, &module, &function); r != CUDA_SUCCESS)
    return r;
  decode_sum_LaunchArgs args{CUdeviceptr{0}, CUdeviceptr{0}, 256u};
  return cutec_launch_decode_sum(function, args, stream);
}
)");
  std::string source = (dir + "/use.cpp").str();
  std::string includeFlag = "-I" + cudaInclude;
  llvm::SmallVector<llvm::StringRef> args = {*gxx,      "-std=c++17", "-fsyntax-only", "-Wall",
                                             "-Wextra", "-Werror",    includeFlag,     source};
  std::string log = (dir + "/g++.log").str();
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log, log};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*gxx, args, std::nullopt, redirects, 0, 0, &message);
  auto diagnostics = llvm::MemoryBuffer::getFile(log);
  EXPECT_EQ(rc, 0) << "g++ rejected the launcher header in " << dir.str().str() << ": " << message
                   << "\n"
                   << (diagnostics ? (*diagnostics)->getBuffer().str() : "");
  if (rc == 0)
    llvm::sys::fs::remove_directories(dir);
}

} // namespace
} // namespace cutec
