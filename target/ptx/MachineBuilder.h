//===- MachineBuilder.h - Creates ptx.inst operations ---------------------===//
#ifndef CUTEC_TARGET_PTX_MACHINEBUILDER_H
#define CUTEC_TARGET_PTX_MACHINEBUILDER_H

#include "ir/core/Builder.h"

namespace cutec::ptx {

/// Appends `opcode` (a PtxInstructions.def opcode) with the given results and
/// operands; set attributes (imm, param, special, offset) on the result.
inline ir::Operation &emitInst(ir::Builder &b, llvm::SMLoc loc, llvm::StringRef opcode,
                               llvm::ArrayRef<ir::DataType> results,
                               llvm::ArrayRef<ir::Value *> operands = {}) {
  std::vector<ir::Type> types;
  for (ir::DataType t : results)
    types.push_back(ir::Type::scalar(t));
  ir::Operation &op = b.create(ir::OpKind::PtxInst, loc, operands, types);
  op.setAttr("opcode", opcode.str());
  return op;
}

/// Shorthand for instructions with one result.
inline ir::Value *emitValue(ir::Builder &b, llvm::SMLoc loc, llvm::StringRef opcode,
                            ir::DataType result, llvm::ArrayRef<ir::Value *> operands = {}) {
  return emitInst(b, loc, opcode, {result}, operands).result();
}

/// A b32 or b64 register holding `value` (mov.b32 / mov.b64 with an
/// immediate), for `type` u32 or u64.
inline ir::Value *emitImmediate(ir::Builder &b, llvm::SMLoc loc, ir::DataType type,
                                int64_t value) {
  ir::Operation &mov =
      emitInst(b, loc, type == ir::DataType::U64 ? "mov.b64" : "mov.b32", {type});
  mov.setAttr("imm", value);
  return mov.result();
}

} // namespace cutec::ptx

#endif
