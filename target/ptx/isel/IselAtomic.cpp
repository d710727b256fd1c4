//===- IselAtomic.cpp - isel of atomic read-modify-write ------------------===//
#include "target/ptx/isel/IselAtomic.h"

#include "target/ptx/MachineBuilder.h"

namespace cutec {

using ir::DataType;
using ptx::PtxOpcode;

/// PTX's type suffix of atom.<op> on `type`: arithmetic is typed (.s32,
/// .u32, .f32), the bitwise operations, exch and cas move bits (.b32).
static llvm::StringRef atomicTypeSuffix(llvm::StringRef op, DataType type) {
  if (op != "add" && op != "min" && op != "max")
    return ".b32";
  return type == DataType::F32 ? ".f32" : type == DataType::I32 ? ".s32" : ".u32";
}

ir::Value *selectAtomic(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in,
                        bool oldValueRead) {
  DataType type = op.result()->type().element();
  const std::string &kind = *op.get(ir::attr::op);
  llvm::SMLoc loc = op.loc();
  llvm::StringRef suffix = atomicTypeSuffix(kind, type);
  // .b32 moves the bits of an f32 through b32 registers.
  bool viaBits = type == DataType::F32 && suffix == ".b32";
  llvm::SmallVector<ir::Value *, 3> operands{in[0]};
  for (ir::Value *v : in.drop_front())
    operands.push_back(
        viaBits ? ptx::emitValue(b, loc, PtxOpcode::MovB32Fromf32, DataType::U32, {v}) : v);
  bool shared = *op.get(ir::attr::space) == ir::name(ir::MemorySpace::Shared);
  // The operation's text spells the opcode: atom.shared.add.f32.
  std::string name = ((shared ? "shared." : "global.") + kind + suffix).str();
  // red has no exch or cas: those give the old value even when unread.
  if (!oldValueRead && kind != "exch" && kind != "cas") {
    ptx::emitInst(b, loc, ptx::opcodeNamed("red." + name), {}, operands);
    return nullptr;
  }
  ir::Value *old = ptx::emitValue(b, loc, ptx::opcodeNamed("atom." + name),
                                  viaBits ? DataType::U32 : type, operands);
  return viaBits ? ptx::emitValue(b, loc, PtxOpcode::MovB32Tof32, DataType::F32, {old}) : old;
}

} // namespace cutec
