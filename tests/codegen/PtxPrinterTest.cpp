// The PTX printer on hand-built machine IR: the text it prints, and that
// ptxas accepts it for sm_100a.
#include "PtxAssembler.h"

#include "codegen/ptx/MachineBuilder.h"
#include "codegen/ptx/PtxInstructions.h"
#include "codegen/ptx/PtxPrinter.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

using namespace ir;
using ptx::emitInst;
using ptx::emitValue;

/// y[tid] = sum over i < n of decode(fp4 byte x[tid]) halves, as f32, plus
/// a branch: a kernel that touches every syntax form of the printer.
std::unique_ptr<Module> makeKernel() {
  auto module = std::make_unique<Module>();
  auto kernel = std::make_unique<Operation>(OpKind::Kernel, llvm::SMLoc());
  kernel->setAttr("name", std::string("decode_sum"));
  kernel->setAttr("block", tup(128, 1, 1));
  Block &entry = kernel->addRegion().addBlock();
  Layout vec(IntExpr::symbol("n"), 1);
  entry.addArgument(Type::tensor(DataType::F4E2M1, MemorySpace::Global, vec), "x");
  entry.addArgument(Type::tensor(DataType::F32, MemorySpace::Global, vec), "y");
  entry.addArgument(Type::scalar(DataType::I32), "n");
  Builder b(entry);
  llvm::SMLoc loc;
  Operation &px = emitInst(b, loc, "ld.param.u64", {DataType::U64});
  px.setAttr("param", std::string("x"));
  Operation &py = emitInst(b, loc, "ld.param.u64", {DataType::U64});
  py.setAttr("param", std::string("y"));
  Operation &pn = emitInst(b, loc, "ld.param.u32", {DataType::U32});
  pn.setAttr("param", std::string("n"));
  Value *x = emitValue(b, loc, "cvta.to.global.u64", DataType::U64, {px.result()});
  Value *y = emitValue(b, loc, "cvta.to.global.u64", DataType::U64, {py.result()});
  Operation &tid = emitInst(b, loc, "mov.u32", {DataType::U32});
  tid.setAttr("special", std::string("%tid.x"));
  Value *tid64 = emitValue(b, loc, "cvt.s64.s32", DataType::U64, {tid.result()});
  Value *xAddr = emitValue(b, loc, "add.s64", DataType::U64, {x, tid64});
  Operation &four = emitInst(b, loc, "mov.b64", {DataType::U64});
  four.setAttr("imm", int64_t(4));
  Value *yAddr = emitValue(b, loc, "mad.lo.s64", DataType::U64, {tid64, four.result(), y});

  Operation &zero = emitInst(b, loc, "mov.b32", {DataType::U32});
  zero.setAttr("imm", int64_t(0));
  Operation &one = emitInst(b, loc, "mov.b32", {DataType::U32});
  one.setAttr("imm", int64_t(1));
  Operation &acc0 = emitInst(b, loc, "mov.f32", {DataType::F32});
  acc0.setAttr("imm", 0.0);
  Operation &loop = b.create(OpKind::For, loc,
                             {zero.result(), pn.result(), one.result(), acc0.result()},
                             {Type::scalar(DataType::F32)});
  Block &body = loop.addRegion().addBlock();
  body.addArgument(Type::scalar(DataType::U32), "i");
  Value *acc = body.addArgument(Type::scalar(DataType::F32), "acc");
  Builder lb(body);
  Operation &byte = emitInst(lb, loc, "ld.global.u8", {DataType::U16}, {xAddr});
  byte.setAttr("offset", int64_t(0));
  Operation &bytes = emitInst(lb, loc, "mov.b16.unpack", {DataType::U8, DataType::U8},
                              {byte.result()});
  Value *halves = emitValue(lb, loc, "cvt.rn.f16x2.e2m1x2", DataType::U32, {bytes.result(0)});
  Operation &split = emitInst(lb, loc, "mov.b32.unpack", {DataType::F16, DataType::F16}, {halves});
  Value *lo = emitValue(lb, loc, "cvt.f32.f16", DataType::F32, {split.result(0)});
  Value *hi = emitValue(lb, loc, "cvt.f32.f16", DataType::F32, {split.result(1)});
  Value *sum = emitValue(lb, loc, "add.rn.f32", DataType::F32, {lo, hi});
  Value *next = emitValue(lb, loc, "fma.rn.f32", DataType::F32, {sum, sum, acc});
  lb.create(OpKind::Yield, loc, {next});

  Value *positive = emitValue(b, loc, "setp.lt.f32", DataType::Bool, {acc0.result(), loop.result()});
  Operation &branch = b.create(OpKind::If, loc, {positive}, {Type::scalar(DataType::F32)});
  Builder tb(branch.addRegion().addBlock());
  tb.create(OpKind::Yield, loc, {loop.result()});
  Builder eb(branch.addRegion().addBlock());
  eb.create(OpKind::Yield, loc, {emitValue(eb, loc, "neg.f32", DataType::F32, {loop.result()})});
  Operation &store = emitInst(b, loc, "st.global.f32", {}, {yAddr, branch.result()});
  store.setAttr("offset", int64_t(0));
  b.create(OpKind::Return, loc);
  module->kernels().push_back(std::move(kernel));
  return module;
}

std::string printToString(const Module &m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error e = ptx::printPtx(m, ptx::PtxTarget(), os);
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return text;
}

TEST(PtxPrinter, PrintsDeclarationsParametersAndControlFlow) {
  std::string text = printToString(*makeKernel());
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
  EXPECT_NE(text.find("@%p0 bra.uni \t$L__end_1;"), std::string::npos) << text;
  EXPECT_NE(text.find("st.global.f32 \t[%rd"), std::string::npos) << text;
}

TEST(PtxPrinter, OutputIsDeterministic) {
  EXPECT_EQ(printToString(*makeKernel()), printToString(*makeKernel()));
}

TEST(PtxPrinter, PtxasAcceptsIt) {
  std::string text = printToString(*makeKernel());
  EXPECT_EQ(test::assembleWithPtxas(text, "sm_100a"), "") << text;
}

TEST(PtxPrinter, UnknownInstructionsAndUnloweredOpsAreErrors) {
  auto module = makeKernel();
  Block &entry = module->kernels()[0]->regions()[0]->front();
  Builder b;
  b.setInsertionPoint(*entry.terminator());
  emitInst(b, {}, "frobnicate.b32", {DataType::U32});
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error e = ptx::printPtx(*module, ptx::PtxTarget(), os);
  EXPECT_EQ(llvm::toString(std::move(e)), "PTX printer: unknown instruction 'frobnicate.b32'");

  auto other = makeKernel();
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
