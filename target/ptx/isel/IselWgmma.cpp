//===- IselWgmma.cpp - isel of Hopper's warpgroup MMA ---------------------===//
#include "target/ptx/isel/IselWgmma.h"

#include "target/ptx/MachineBuilder.h"
#include "target/ptx/isel/IselTcgen05.h"

namespace cutec {

using ir::DataType;
using ir::OpKind;

bool isWgmmaOp(OpKind kind) {
  switch (kind) {
  case OpKind::Wgmma:
  case OpKind::WgmmaFence:
  case OpKind::WgmmaCommit:
  case OpKind::WgmmaWait:
    return true;
  default:
    return false;
  }
}

ir::Value *selectWgmma(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in) {
  llvm::SMLoc loc = op.loc();
  switch (op.kind()) {
  case OpKind::WgmmaFence:
    ptx::emitInst(b, loc, ptx::PtxOpcode::WgmmaFence, {});
    return nullptr;
  case OpKind::WgmmaCommit:
    ptx::emitInst(b, loc, ptx::PtxOpcode::WgmmaCommitGroup, {});
    return nullptr;
  case OpKind::WgmmaWait:
    ptx::emitInst(b, loc, ptx::PtxOpcode::WgmmaWaitGroup, {})
        .set(ir::attr::imm, *op.get(ir::attr::pending));
    return nullptr;
  default:
    break;
  }
  // Operands after lower-indexing: the accumulator's registers (the
  // results' count), A's shared address or its four registers, B's shared
  // address and the scale-d flag.
  const size_t count = op.results().size();
  const bool aInRegisters = op.get(ir::attr::aDesc) == nullptr;
  const size_t aOperands = aInRegisters ? 4 : 1;
  std::vector<ir::Value *> operands;
  if (aInRegisters)
    operands.assign(in.begin() + count, in.begin() + count + aOperands);
  else
    operands.push_back(matrixDescriptor(b, loc, in[count], *op.get(ir::attr::aDesc)));
  operands.push_back(matrixDescriptor(b, loc, in[count + aOperands], *op.get(ir::attr::bDesc)));
  operands.push_back(in[count + aOperands + 1]);
  operands.insert(operands.end(), in.begin(), in.begin() + count);
  const std::string &types = *op.get(ir::attr::types);
  const int64_t k = *op.get(ir::attr::k);
  // The shape and the types' text spell the opcode: wgmma.m64n128k16.f32.f16.f16.
  ptx::PtxOpcode opcode =
      ptx::opcodeNamed("wgmma.m64n" + llvm::Twine(*op.get(ir::attr::n)) + "k" + llvm::Twine(k) +
                       "." + types + (aInRegisters ? ".rs" : ""));
  ir::Operation &mma = ptx::emitInst(b, loc, opcode, std::vector<DataType>(count, op.result()->type().element()), operands);
  // imm-scale-a and imm-scale-b (not for the integer types), then for the
  // 16-bit types (K = 16) imm-trans-a (A in shared memory) and imm-trans-b.
  std::vector<IntTuple> imms;
  if (!llvm::StringRef(types).starts_with("s32")) {
    imms = {IntTuple(1), IntTuple(1)};
    if (k == 16 && !aInRegisters)
      imms.push_back(IntTuple(*op.get(ir::attr::transA)));
    if (k == 16)
      imms.push_back(IntTuple(*op.get(ir::attr::transB)));
  }
  mma.set(ir::attr::imms, IntTuple::tuple(std::move(imms)));
  return mma.result(0);
}

} // namespace cutec
