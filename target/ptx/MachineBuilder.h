//===- MachineBuilder.h - Creates ptx.inst operations ---------------------===//
//
// A ptx.inst keeps its opcode's text in the "opcode" attribute, so machine
// IR prints as PTX names it; isel names instructions by PtxOpcode.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_MACHINEBUILDER_H
#define CUTEC_TARGET_PTX_MACHINEBUILDER_H

#include "ir/core/Builder.h"
#include "target/ptx/PtxInstructions.h"

#include "llvm/Support/ErrorHandling.h"

namespace cutec::ptx {

/// The opcode that isel spells from kernel-IR attribute text (a comparison's
/// predicate, a shuffle's mode, a wgmma's types): every spelling the
/// frontend and the verifier admit is in the table.
inline PtxOpcode opcodeNamed(const llvm::Twine &opcode) {
  std::string name = opcode.str();
  const PtxInstruction *inst = lookupPtxInstruction(name);
  if (!inst)
    llvm::report_fatal_error(llvm::Twine("isel spelled an unknown PTX instruction '") + name + "'");
  return inst->id;
}

/// Appends `opcode` with the given results and operands; set attributes
/// (imm, param, special, offset) on the result.
inline ir::Operation &emitInst(ir::Builder &b, llvm::SMLoc loc, PtxOpcode opcode,
                               llvm::ArrayRef<ir::DataType> results,
                               llvm::ArrayRef<ir::Value *> operands = {}) {
  std::vector<ir::Type> types;
  for (ir::DataType t : results)
    types.push_back(ir::Type::scalar(t));
  ir::Operation &op = b.create(ir::OpKind::PtxInst, loc, operands, types);
  op.set(ir::attr::opcode, ptxInstruction(opcode).opcode.str());
  return op;
}

/// Shorthand for instructions with one result.
inline ir::Value *emitValue(ir::Builder &b, llvm::SMLoc loc, PtxOpcode opcode, ir::DataType result,
                            llvm::ArrayRef<ir::Value *> operands = {}) {
  return emitInst(b, loc, opcode, {result}, operands).result();
}

/// A b32 or b64 register holding `value` (mov.b32 / mov.b64 with an
/// immediate), for `type` u32 or u64.
inline ir::Value *emitImmediate(ir::Builder &b, llvm::SMLoc loc, ir::DataType type,
                                int64_t value) {
  ir::Operation &mov =
      emitInst(b, loc, type == ir::DataType::U64 ? PtxOpcode::MovB64 : PtxOpcode::MovB32, {type});
  mov.set(ir::attr::imm, value);
  return mov.result();
}

} // namespace cutec::ptx

#endif
