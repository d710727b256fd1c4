//===- IselWgmma.cpp - isel of Hopper's warpgroup MMA ---------------------===//
#include "passes/IselWgmma.h"

#include "codegen/ptx/MachineBuilder.h"
#include "passes/IselTcgen05.h"

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
    ptx::emitInst(b, loc, "wgmma.fence", {});
    return nullptr;
  case OpKind::WgmmaCommit:
    ptx::emitInst(b, loc, "wgmma.commit_group", {});
    return nullptr;
  case OpKind::WgmmaWait:
    ptx::emitInst(b, loc, "wgmma.wait_group", {}).setAttr("imm", *op.attrAs<int64_t>("pending"));
    return nullptr;
  default:
    break;
  }
  // Operands after lower-indexing: the N/2 accumulator registers, then A's
  // and B's shared addresses and the scale-d flag.
  const size_t count = in.size() - 3;
  ir::Value *aDesc = matrixDescriptor(b, loc, in[count], *op.attrAs<int64_t>("a_desc"));
  ir::Value *bDesc = matrixDescriptor(b, loc, in[count + 1], *op.attrAs<int64_t>("b_desc"));
  std::vector<ir::Value *> operands{aDesc, bDesc, in[count + 2]};
  operands.insert(operands.end(), in.begin(), in.begin() + count);
  std::string opcode = "wgmma.m64n" + std::to_string(*op.attrAs<int64_t>("n")) + "k" +
                       std::to_string(*op.attrAs<int64_t>("k")) + "." +
                       *op.attrAs<std::string>("types");
  ir::Operation &mma =
      ptx::emitInst(b, loc, opcode, std::vector<DataType>(count, DataType::F32), operands);
  // imm-scale-a, imm-scale-b, then for 16-bit types (K = 16) imm-trans-a
  // and imm-trans-b; 8-bit ones are K-major and have no such operands.
  std::vector<IntTuple> imms{IntTuple(1), IntTuple(1)};
  if (*op.attrAs<int64_t>("k") == 16) {
    imms.push_back(IntTuple(*op.attrAs<int64_t>("trans_a")));
    imms.push_back(IntTuple(*op.attrAs<int64_t>("trans_b")));
  }
  mma.setAttr("imms", IntTuple::tuple(std::move(imms)));
  return mma.result(0);
}

} // namespace cutec
