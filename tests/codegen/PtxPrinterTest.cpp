// The PTX printer on hand-built machine IR: the text it prints, and that
// ptxas accepts it for sm_100a.
#include "MachineKernels.h"
#include "PtxAssembler.h"

#include "target/ptx/PtxInstructions.h"
#include "codegen/ptx/PtxPrinter.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

using namespace ir;
using test::makeDecodeSumKernel;

std::string printToString(const Module &m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error e = ptx::printPtx(m, ptx::PtxTarget(), os);
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return text;
}

TEST(PtxPrinter, PrintsDeclarationsParametersAndControlFlow) {
  std::string text = printToString(*makeDecodeSumKernel());
  EXPECT_NE(text.find(".version 8.8\n.target sm_100a\n.address_size 64\n"), std::string::npos);
  EXPECT_NE(text.find(".visible .entry decode_sum(\n\t.param .u64 x,\n\t.param .u64 y,\n"
                      "\t.param .u32 n\n)\n.reqntid 128, 1, 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\tld.param.u64 \t%rd0, [x];"), std::string::npos) << text;
  EXPECT_NE(text.find("\tmov.u32 \t%r1, %tid.x;"), std::string::npos) << text;
  EXPECT_NE(text.find("mov.f32 \t%f0, 0f00000000;"), std::string::npos) << text;
  EXPECT_NE(text.find("mov.b16 \t{%rc0, %rc1}, %rs0;"), std::string::npos) << text;
  EXPECT_NE(text.find("cvt.rn.f16x2.e2m1x2 \t%r"), std::string::npos) << text;
  EXPECT_NE(text.find("@%p0 bra \t$L__end_1;"), std::string::npos) << text;
  EXPECT_NE(text.find("st.global.f32 \t[%rd"), std::string::npos) << text;
}

TEST(PtxPrinter, OutputIsDeterministic) {
  EXPECT_EQ(printToString(*makeDecodeSumKernel()), printToString(*makeDecodeSumKernel()));
}

TEST(PtxPrinter, PtxasAcceptsIt) {
  std::string text = printToString(*makeDecodeSumKernel());
  EXPECT_EQ(test::assembleWithPtxas(text, "sm_100a"), "") << text;
}

TEST(PtxPrinter, UnknownInstructionsAndUnloweredOpsAreErrors) {
  auto module = makeDecodeSumKernel();
  Block &entry = module->kernels()[0]->regions()[0]->front();
  Builder b;
  b.setInsertionPoint(*entry.terminator());
  // Machine IR may name anything; isel names only the table's instructions.
  b.create(OpKind::PtxInst, {}, {}, {Type::scalar(DataType::U32)})
      .set(ir::attr::opcode, std::string("frobnicate.b32"));
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error e = ptx::printPtx(*module, ptx::PtxTarget(), os);
  EXPECT_EQ(llvm::toString(std::move(e)), "PTX printer: unknown instruction 'frobnicate.b32'");

  auto other = makeDecodeSumKernel();
  Block &entry2 = other->kernels()[0]->regions()[0]->front();
  b.setInsertionPoint(*entry2.terminator());
  b.constantInt({}, DataType::I32, 1);
  e = ptx::printPtx(*other, ptx::PtxTarget(), os);
  EXPECT_EQ(llvm::toString(std::move(e)),
            "PTX printer: 'arith.constant' should have been lowered to machine IR");
}

TEST(PtxInstructions, TableIsConsistent) {
  for (const char *opcode : {"add.s32", "fma.rn.f32", "cvt.rn.f16x2.e2m1x2", "mov.b16.unpack",
                             "ld.global.u8", "st.global.b16"}) {
    const ptx::PtxInstruction *inst = ptx::lookupPtxInstruction(opcode);
    ASSERT_TRUE(inst) << opcode;
    EXPECT_FALSE(inst->emulation.empty());
    EXPECT_TRUE(llvm::StringRef(inst->emulation).contains("$r0") || inst->numResults == 0);
  }
  EXPECT_EQ(ptx::lookupPtxInstruction("mov.b16.unpack")->mnemonic, "mov.b16");
  EXPECT_EQ(ptx::lookupPtxInstruction("nope"), nullptr);
}

} // namespace
} // namespace cutec
