// The seed-004 NVFP4 GEMV (tests/frontend/inputs/nvfp4_gemv.cute) from the
// front end through partition, lower-indexing and isel: the PTX assembles
// and the emulation prints.
#include "GemvKernelIR.h"
#include "PtxAssembler.h"

#include "codegen/emu/EmuPrinter.h"
#include "codegen/ptx/PtxPrinter.h"

namespace cutec {
namespace {

using namespace ir;
using namespace test;

TEST(Nvfp4Gemv, LowersToPtxThatAssembles) {
  std::unique_ptr<Module> module = gemvKernelIR();
  ASSERT_TRUE(module);
  ASSERT_EQ(runPasses(*module, loweringPipeline()), "");
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  llvm::Error e = ptx::printPtx(*module, ptx::PtxTarget(), os);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  // Per k tile: 64 + 64 nibbles of A and B, 4 + 4 scale factors.
  size_t byteLoads = 0;
  for (size_t pos = ptx.find("ld.global.u8"); pos != std::string::npos;
       pos = ptx.find("ld.global.u8", pos + 1))
    ++byteLoads;
  EXPECT_EQ(byteLoads, 64u + 64u + 4u + 4u);
  EXPECT_NE(ptx.find("st.global.b16"), std::string::npos);
  EXPECT_EQ(assembleWithPtxas(ptx, "sm_100a"), "") << ptx;

  std::string cpp;
  llvm::raw_string_ostream cppOs(cpp);
  llvm::Error emuError = emu::printEmulation(*module, {}, cppOs);
  EXPECT_FALSE(bool(emuError)) << llvm::toString(std::move(emuError));
}

} // namespace
} // namespace cutec
