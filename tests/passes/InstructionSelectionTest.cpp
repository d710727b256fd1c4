// isel, and the three lowering passes together: kernel IR as the front end
// builds it becomes machine IR that both printers print and ptxas accepts.
#include "PassTestKernels.h"
#include "PtxAssembler.h"

#include "codegen/emu/EmuPrinter.h"
#include "target/ptx/PtxInstructions.h"
#include "codegen/ptx/PtxPrinter.h"

namespace cutec {
namespace {

using namespace ir;
using namespace test;

/// Lowers `k` to machine IR and checks that only machine ops remain.
void lowerToMachineIR(KernelUnderTest &k) {
  ASSERT_EQ(runPasses(*k.module, loweringPipeline()), "");
  walk(*k.kernel, [&](Operation &op) {
    switch (op.kind()) {
    case OpKind::PtxInst:
      EXPECT_TRUE(ptx::lookupPtxInstruction(*op.get(ir::attr::opcode)))
          << *op.get(ir::attr::opcode);
      break;
    case OpKind::For:
    case OpKind::If:
    case OpKind::While:
    case OpKind::Condition:
    case OpKind::Yield:
    case OpKind::Return:
      break;
    default:
      ADD_FAILURE() << "not lowered: " << name(op.kind()).str();
    }
  });
}

std::string ptxOf(const Module &m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error e = ptx::printPtx(m, ptx::PtxTarget(), os);
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return text;
}

std::string emulationOf(const Module &m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Error e = emu::printEmulation(m, {}, os);
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return text;
}

void expectContains(const std::string &text, std::initializer_list<const char *> parts) {
  for (const char *part : parts)
    EXPECT_NE(text.find(part), std::string::npos) << "missing: " << part << "\n" << text;
}

TEST(InstructionSelection, CopyKernelAssembles) {
  KernelUnderTest k = makeCopyKernel();
  lowerToMachineIR(k);
  std::string ptx = ptxOf(*k.module);
  expectContains(ptx,
                 {"ld.param.u64 \t%rd0, [mIn];", "cvta.to.global.u64 \t%rd1, %rd0;",
                  "ld.param.u32 \t%r0, [M];", "ld.param.u32 \t%r1, [N];",
                  "mov.u32 \t%r2, %ctaid.x;", "mov.u32 \t%r3, %ctaid.y;", "mov.u32 \t%r4, %tid.x;",
                  "mul.lo.s32", "cvt.s64.s32", "ld.global.u16", "cvt.f32.f16", "st.global.f32"});
  EXPECT_EQ(assembleWithPtxas(ptx, "sm_100a"), "") << ptx;
  expectContains(emulationOf(*k.module),
                 {"struct copy_tile_Params {\n  uint64_t mIn;\n  uint64_t mOut;\n  uint32_t M;\n",
                  "t.loadGlobal<uint16_t>(", "cutec::rt::ptx::cvtF32F16(",
                  "t.storeGlobal<float>("});
}

TEST(InstructionSelection, Fp4DecodeKernelAssembles) {
  KernelUnderTest k = makeFp4DecodeKernel();
  lowerToMachineIR(k);
  std::string ptx = ptxOf(*k.module);
  // The byte address: the element offset halved in 32 bits, then widened.
  // Each nibble shifted and masked out of its loaded word, narrowed to b16,
  // its low byte converted; the scale factor's bit 7 masked before the
  // e4m3 form.
  expectContains(ptx, {"shr.s32", "cvt.s64.s32", "ld.global.u8 \t%r", "and.b32", "shr.u32",
                       "cvt.u16.u32", "mov.b16 \t{%rc", "cvt.rn.f16x2.e2m1x2", "mov.b32 \t{%rs",
                       "mov.b16 \t%rs", ", 0x007F;", "and.b16", "cvt.rn.f16x2.e4m3x2",
                       "cvt.rn.f16.f32", "st.global.b16"});
  EXPECT_EQ(assembleWithPtxas(ptx, "sm_100a"), "") << ptx;
  expectContains(emulationOf(*k.module),
                 {"cutec::rt::ptx::cvtRnF16x2E2m1x2(", "cutec::rt::ptx::cvtRnF16x2E4m3x2(",
                  "cutec::rt::ptx::cvtF16F32("});
}

TEST(InstructionSelection, LoopWithCarriedF32Assembles) {
  KernelUnderTest k = makeRowSumKernel();
  lowerToMachineIR(k);
  std::string ptx = ptxOf(*k.module);
  // The trip count (K + 3) / 4 of a size: one shift.
  expectContains(ptx, {"shr.u32", "mov.f32 \t%f0, 0f00000000;", "ld.global.f32", "add.rn.f32",
                       "bra", "st.global.f32"});
  EXPECT_EQ(assembleWithPtxas(ptx, "sm_100a"), "") << ptx;
  expectContains(emulationOf(*k.module), {"for (; int32_t(", "cutec::rt::ptx::addRnF32("});
}

TEST(InstructionSelection, ScalarConversionsAndComparisonsSelect) {
  // ue8m0 and e5m2 up-conversions, f32 compare and select, i32 -> f32.
  KernelUnderTest k("scalars", {});
  Value *sf = k.tensor("sf", DataType::UE8M0, Layout(tup(), tup()));
  Value *e5 = k.tensor("e5", DataType::F8E5M2, Layout(tup(), tup()));
  Value *y = k.tensor("y", DataType::BF16, Layout(tup(), tup()));
  k.finishSignature();
  Builder &b = k.b;
  Value *scale = convertOp(b, loadOp(b, sf), DataType::F32);
  Value *value = convertOp(b, loadOp(b, e5), DataType::F32);
  Value *tid = convertOp(b, threadIdx(b, OpKind::ThreadIdx), DataType::F32);
  Operation &cmp = b.create(OpKind::Cmp, {}, {value, tid}, {Type::scalar(DataType::Bool)});
  cmp.set(ir::attr::predicate, std::string("ne"));
  Value *picked =
      b.createValue(OpKind::Select, {}, Type::scalar(DataType::F32), {cmp.result(), scale, value});
  storeOp(b, convertOp(b, picked, DataType::BF16), y);
  b.create(OpKind::Return, {});
  lowerToMachineIR(k);
  std::string ptx = ptxOf(*k.module);
  expectContains(ptx, {"cvt.rn.bf16x2.ue8m0x2", "cvt.f32.bf16", "cvt.rn.f16x2.e5m2x2",
                       "cvt.rn.f32.s32", "setp.neu.f32", "selp.f32", "cvt.rn.bf16.f32"});
  EXPECT_EQ(assembleWithPtxas(ptx, "sm_100a"), "") << ptx;
}

TEST(InstructionSelection, UnsupportedRoundingIsAnError) {
  KernelUnderTest k("round", {});
  k.finishSignature();
  Value *one = k.b.constantFloat({}, DataType::F32, 1.0);
  Value *half = convertOp(k.b, one, DataType::F16);
  half->definingOp()->set(ir::attr::rounding, std::string("rz"));
  k.b.create(OpKind::Return, {});
  EXPECT_EQ(runPasses(*k.module, loweringPipeline()),
            "isel: only round-to-nearest-even conversions are supported, not 'rz'\n");
}

} // namespace
} // namespace cutec
