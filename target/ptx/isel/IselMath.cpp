//===- IselMath.cpp - isel of the math library's exact instructions -------===//
#include "target/ptx/isel/IselMath.h"

#include "target/ptx/MachineBuilder.h"

namespace cutec {

using ir::DataType;
using ptx::emitValue;
using ptx::PtxOpcode;

namespace {

struct MathRule {
  llvm::StringLiteral fn;
  DataType type;
  PtxOpcode opcode;
};

constexpr MathRule kMathRules[] = {
    {"max", DataType::F32, PtxOpcode::MaxF32},
    {"max", DataType::I32, PtxOpcode::MaxS32},
    {"max", DataType::U32, PtxOpcode::MaxU32},
    {"min", DataType::F32, PtxOpcode::MinF32},
    {"min", DataType::I32, PtxOpcode::MinS32},
    {"min", DataType::U32, PtxOpcode::MinU32},
    {"abs", DataType::I32, PtxOpcode::AbsS32},
    {"sqrt", DataType::F32, PtxOpcode::SqrtRnF32},
    // fastmath: the special-function unit (exp.approx is expand-math's).
    {"exp2.approx", DataType::F32, PtxOpcode::Ex2ApproxFtzF32},
    {"rsqrt.approx", DataType::F32, PtxOpcode::RsqrtApproxFtzF32},
    {"rcp.approx", DataType::F32, PtxOpcode::RcpApproxFtzF32},
};

} // namespace

ir::Value *selectMath(ir::Builder &b, const ir::Operation &op,
                      llvm::ArrayRef<ir::Value *> operands, PassContext &context) {
  llvm::SMLoc loc = op.loc();
  const std::string &fn = *op.get(ir::attr::fn);
  DataType type = op.result()->type().element();
  for (const MathRule &rule : kMathRules)
    if (rule.fn == fn && rule.type == type)
      return emitValue(b, loc, rule.opcode, type, operands);
  // abs and copysign move the sign bit and nothing else (a NaN keeps its
  // payload); PTX's copysign takes the sign first.
  if (type == DataType::F32 && fn == "abs") {
    ir::Value *bits = emitValue(b, loc, PtxOpcode::MovB32Fromf32, DataType::U32, operands);
    ir::Value *mask = ptx::emitImmediate(b, loc, DataType::U32, 0x7FFFFFFF);
    return emitValue(b, loc, PtxOpcode::MovB32Tof32, DataType::F32,
                     {emitValue(b, loc, PtxOpcode::AndB32, DataType::U32, {bits, mask})});
  }
  if (type == DataType::F32 && fn == "copysign")
    return emitValue(b, loc, PtxOpcode::CopysignF32, type, {operands[1], operands[0]});
  context.error(loc, "isel: cannot select math.call '" + fn + "' on " + ir::name(type));
  return nullptr;
}

} // namespace cutec
