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
  // Per k tile: 64 + 64 nibbles of A and B byte by byte (this IR states no
  // assumption about K, so their rows are not known to be aligned), and the
  // 4 + 4 scale factors, contiguous and 4-byte aligned, as one word each.
  auto count = [&](const std::string &opcode) {
    size_t n = 0;
    for (size_t pos = ptx.find(opcode + " "); pos != std::string::npos;
         pos = ptx.find(opcode + " ", pos + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count("ld.global.u8"), 64u + 64u);
  EXPECT_EQ(count("ld.global.u32"), 2u);
  EXPECT_NE(ptx.find("st.global.b16"), std::string::npos);
  EXPECT_EQ(assembleWithPtxas(ptx, "sm_100a"), "") << ptx;

  std::string cpp;
  llvm::raw_string_ostream cppOs(cpp);
  llvm::Error emuError = emu::printEmulation(*module, {}, cppOs);
  EXPECT_FALSE(bool(emuError)) << llvm::toString(std::move(emuError));
}

} // namespace
} // namespace cutec
