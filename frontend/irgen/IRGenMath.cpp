//===- IRGenMath.cpp - The math library on run-time scalars ---------------===//
//
// max, min, abs, fma, copysign, sqrt, rsqrt, exp, exp2, log, log2, tanh and
// rcp_approx (docs/language.md "Math functions"). Each checks its arguments'
// types here and becomes one `math.call` (`fma`: one `arith.fma`); pass
// expand-math writes the functions PTX has no exactly rounded instruction
// for as sequences of exactly rounded ones. `fastmath=True` (rsqrt, exp,
// exp2) and rcp_approx name the special-function unit's approximation
// instead: fn "exp2.approx" and so on. With only compile-time integers,
// `min` is the layout library's (grid sizes) and `max` folds.
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"

#include "llvm/ADT/StringExtras.h"

namespace cutec {
namespace {

using ir::DataType;

/// The scalar types a function takes.
struct MathFunction {
  llvm::StringLiteral name;
  bool takesInt32;   // i32 (and u32, unless signedOnly) besides f32
  bool signedOnly;   // i32 but not u32 (abs)
  bool fastMath;     // takes fastmath=
};

constexpr MathFunction kMathFunctions[] = {
    {"max", true, false, false},      {"min", true, false, false},
    {"abs", true, true, false},       {"fma", false, false, false},
    {"copysign", false, false, false}, {"sqrt", false, false, false},
    {"rsqrt", false, false, true},    {"exp", false, false, true},
    {"exp2", false, false, true},     {"log", false, false, false},
    {"log2", false, false, false},    {"tanh", false, false, false},
    {"rcp_approx", false, false, false},
};

const MathFunction &mathFunction(llvm::StringRef name) {
  for (const MathFunction &f : kMathFunctions)
    if (f.name == name)
      return f;
  llvm_unreachable("a math built-in without a row in kMathFunctions");
}

std::string acceptedTypes(const MathFunction &f) {
  if (!f.takesInt32)
    return "f32";
  return f.signedOnly ? "f32 or i32" : "f32, i32 or u32";
}

bool accepts(const MathFunction &f, DataType t) {
  return t == DataType::F32 ||
         (f.takesInt32 && (t == DataType::I32 || (t == DataType::U32 && !f.signedOnly)));
}

} // namespace

SemaValue IRGenExpr::mathFunctionCall(CallSite &site) {
  const MathFunction &f = mathFunction(site.callee);
  std::vector<SemaValue> &args = site.bound;
  // The op's function: the unit's approximation for fastmath=True.
  std::optional<SemaValue> fastMath;
  if (f.fastMath) {
    fastMath = args.back();
    args.pop_back();
  }
  std::string fn = f.name == "rcp_approx" ? "rcp.approx" : f.name.str();
  if (fastMath && fastMath->boolValue())
    fn += ".approx";
  // On register fragments: element by element.
  if (llvm::any_of(args, IRGenTensor::isFragment)) {
    std::vector<const ast::Expr *> exprs;
    for (size_t i = 0; i < args.size(); ++i)
      exprs.push_back(&site.argExpr(i));
    return gen.tensors().elementwise(args, exprs, site.loc(),
                                     [&](llvm::ArrayRef<SemaValue> scalars) {
                                       CallSite element = site;
                                       element.bound.assign(scalars.begin(), scalars.end());
                                       if (fastMath)
                                         element.bound.push_back(*fastMath);
                                       return mathFunctionCall(element);
                                     });
  }
  bool anyRunTime = llvm::any_of(args, [](const SemaValue &v) { return v.is(SemaValue::Kind::RunTime); });
  if (!anyRunTime && (f.name == "min" || f.name == "max")) {
    if (f.name == "min")
      return gen.builtins().callLayoutBuiltin("min", site);
    if (args[0].is(SemaValue::Kind::Int) && args[1].is(SemaValue::Kind::Int) &&
        args[0].intValue().isStatic() && args[1].intValue().isStatic())
      return SemaValue::integer(IntExpr(
          std::max(args[0].intValue().staticValue(), args[1].intValue().staticValue())));
  }
  // The operands' type: that of the run-time arguments, which must agree; a
  // compile-time number adopts it (f32 when all are compile-time floats).
  std::optional<DataType> type;
  for (size_t i = 0; i < args.size(); ++i) {
    const SemaValue &v = args[i];
    if (v.isPoison())
      return v;
    if (!v.is(SemaValue::Kind::RunTime))
      continue;
    if (!v.type().isScalar())
      return error(site.argExpr(i), "'" + f.name + "' takes scalars (" + acceptedTypes(f) +
                                        "), not " + v.describe() + loadHint(site.argExpr(i), v));
    DataType t = v.type().element();
    if (type && *type != t)
      return error(site.argExpr(i), "mixing types in '" + f.name + "': " + ir::name(*type) +
                                        " and " + ir::name(t) +
                                        "; convert one argument with .to(...)");
    type = t;
  }
  if (!type)
    type = llvm::any_of(args, [](const SemaValue &v) { return v.is(SemaValue::Kind::Float); }) ||
                   !f.takesInt32
               ? DataType::F32
               : DataType::I32;
  if (!accepts(f, *type)) {
    size_t culprit = size_t(llvm::find_if(args, [&](const SemaValue &v) {
                              return v.is(SemaValue::Kind::RunTime);
                            }) -
                            args.begin());
    bool convertible = (ir::isFloat(*type) && ir::bitWidth(*type) < 32) ||
                       (ir::isInteger(*type) && !f.takesInt32);
    std::string hint = convertible ? "; convert it with .to(f32) first" : "";
    return error(site.argExpr(culprit), "'" + f.name + "' takes " + acceptedTypes(f) + ", not " +
                                            ir::name(*type) + hint);
  }
  ir::Builder *b = requireBuilder(site.loc(), "'" + f.name + "' of run-time values");
  if (!b)
    return SemaValue::poison();
  llvm::SmallVector<ir::Value *, 3> operands;
  for (size_t i = 0; i < args.size(); ++i) {
    ir::Value *v = toRunTime(args[i], site.argExpr(i), *type);
    if (!v)
      return SemaValue::poison();
    operands.push_back(v);
  }
  ir::Type scalar = ir::Type::scalar(*type);
  if (f.name == "fma")
    return SemaValue::runTime(b->createValue(ir::OpKind::Fma, site.loc(), scalar, operands));
  ir::Operation &op = b->create(ir::OpKind::MathCall, site.loc(), operands, {scalar});
  op.set(ir::attr::fn, fn);
  return SemaValue::runTime(op.result());
}

} // namespace cutec
