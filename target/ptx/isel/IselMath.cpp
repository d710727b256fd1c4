//===- IselMath.cpp - isel of the math library's exact instructions -------===//
#include "target/ptx/isel/IselMath.h"

#include "target/ptx/MachineBuilder.h"

namespace cutec {

using ir::DataType;
using ptx::emitValue;

namespace {

struct MathRule {
  llvm::StringLiteral fn;
  DataType type;
  const char *opcode;
};

constexpr MathRule kMathRules[] = {
    {"max", DataType::F32, "max.f32"},    {"max", DataType::I32, "max.s32"},
    {"max", DataType::U32, "max.u32"},    {"min", DataType::F32, "min.f32"},
    {"min", DataType::I32, "min.s32"},    {"min", DataType::U32, "min.u32"},
    {"abs", DataType::I32, "abs.s32"},    {"sqrt", DataType::F32, "sqrt.rn.f32"},
    // fastmath: the special-function unit (exp.approx is expand-math's).
    {"exp2.approx", DataType::F32, "ex2.approx.ftz.f32"},
    {"rsqrt.approx", DataType::F32, "rsqrt.approx.ftz.f32"},
    {"rcp.approx", DataType::F32, "rcp.approx.ftz.f32"},
};

} // namespace

ir::Value *selectMath(ir::Builder &b, const ir::Operation &op,
                      llvm::ArrayRef<ir::Value *> operands, PassContext &context) {
  llvm::SMLoc loc = op.loc();
  const std::string &fn = *op.attrAs<std::string>("fn");
  DataType type = op.result()->type().element();
  for (const MathRule &rule : kMathRules)
    if (rule.fn == fn && rule.type == type)
      return emitValue(b, loc, rule.opcode, type, operands);
  // abs and copysign move the sign bit and nothing else (a NaN keeps its
  // payload); PTX's copysign takes the sign first.
  if (type == DataType::F32 && fn == "abs") {
    ir::Value *bits = emitValue(b, loc, "mov.b32.fromf32", DataType::U32, operands);
    ir::Value *mask = ptx::emitImmediate(b, loc, DataType::U32, 0x7FFFFFFF);
    return emitValue(b, loc, "mov.b32.tof32", DataType::F32,
                     {emitValue(b, loc, "and.b32", DataType::U32, {bits, mask})});
  }
  if (type == DataType::F32 && fn == "copysign")
    return emitValue(b, loc, "copysign.f32", type, {operands[1], operands[0]});
  context.error(loc, "isel: cannot select math.call '" + fn + "' on " + ir::name(type));
  return nullptr;
}

} // namespace cutec
