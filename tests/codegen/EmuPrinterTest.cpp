// The emulation printer on hand-built machine IR: the C++ it prints.
#include "MachineKernels.h"

#include "codegen/emu/EmuPrinter.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

std::string emulationOf(const ir::Module &m, const emu::EmuOptions &options = {}) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error e = emu::printEmulation(m, options, os);
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return text;
}

TEST(EmuPrinter, PrintsParamsDescriptorAndOneStatementPerInstruction) {
  std::string text = emulationOf(*test::makeDecodeSumKernel());
  for (const char *expected : {
           "#if defined(__clang__)\n#pragma STDC FP_CONTRACT OFF\n#elif defined(__GNUC__)",
           "[[maybe_unused]] uint8_t rc0{}, rc1{};",
           "struct decode_sum_Params {\n  uint64_t x;\n  uint64_t y;\n  uint32_t n;\n};",
           "static void decode_sum_body(cutec::rt::Thread &t, const void *rawParams) {",
           "rd0 = params->x;",
           "r1 = t.tid.x;",
           "f0 = cutec::rt::ptx::f32FromBits(0x00000000u);",
           "rs0 = t.loadGlobal<uint8_t>(rd5 + 0, \"ld.global.u8\");",
           "rc0 = uint8_t(rs0); rc1 = uint8_t(rs0 >> 8);",
           "f5 = cutec::rt::ptx::fmaRnF32(f4, f4, f1);",
           "r5 = cutec::rt::ptx::cvtRnF16x2E2m1x2(rc0);",
           "for (; int32_t(r4) < int32_t(r0); r4 += r3) {",
           "if (p0) {",
           "} else {",
           "t.storeGlobal<float>(rd7 + 0, f6, \"st.global.f32\");",
           "extern \"C\" const cutec::rt::KernelDescriptor cutec_kernel_decode_sum = {",
       })
    EXPECT_NE(text.find(expected), std::string::npos) << "missing: " << expected << "\n" << text;
}

TEST(EmuPrinter, DiagnosticsNameTheSourceLocation) {
  emu::EmuOptions options;
  options.describeLocation = [](llvm::SMLoc) { return std::string("k.cute:3:4"); };
  std::string text = emulationOf(*test::makeDecodeSumKernel(), options);
  EXPECT_NE(text.find("\"ld.global.u8 at k.cute:3:4\""), std::string::npos) << text;
}

TEST(EmuPrinter, HeaderDeclaresTheLaunchInterface) {
  auto module = test::makeDecodeSumKernel();
  module->kernels()[0]->set(ir::attr::grid, tup(ceilDiv(IntExpr::symbol("n"), IntExpr(128)), 1, 1));
  std::string text;
  llvm::raw_string_ostream os(text);
  ASSERT_FALSE(bool(emu::printEmulationHeader(*module, os)));
  EXPECT_NE(text.find("inline cutec::rt::Dim3 decode_sum_grid([[maybe_unused]] uint32_t n) {"), std::string::npos)
      << text;
  EXPECT_NE(text.find("uint32_t(ceil_div(n,128))"), std::string::npos) << text;
  EXPECT_NE(text.find("inline cutec::rt::Dim3 decode_sum_block() { return "
                      "cutec::rt::Dim3{uint32_t(128), uint32_t(1), uint32_t(1)}; }"),
            std::string::npos)
      << text;
}

} // namespace
} // namespace cutec
