// IRGenExpr, for the run-time `and`, `or` and conditional expression (`x if c
// else y`). As in Python, an operand is evaluated only when it decides the
// result: the right side of `and` when the left holds, of `or` when it does
// not, and one branch of a conditional. Each such operand is built aside,
// in a block of its own; when its operations have no effects (arithmetic,
// comparisons, constants) they run unconditionally and a select combines
// the values (isel: and.pred/or.pred on predicates, selp otherwise), which
// is cheaper than a branch; when they may have effects (a load, which may
// be out of bounds when the left side says so, or any instruction with a
// side effect) they go into the branches of an IR `if` with one result.
#include "frontend/irgen/IRGen.h"

namespace cutec {

IRGenExpr::Aside IRGenExpr::evalAside(const ast::Expr &expr) {
  Aside aside{SemaValue::poison(), std::make_unique<ir::Block>()};
  std::vector<std::string> receivers;
  collectReceivers(expr, receivers);
  if (!receivers.empty()) {
    error(expr, "this is evaluated only when needed, so it cannot call a method that changes '" +
                    receivers.front() + "'; call it in a statement before");
    return aside;
  }
  ir::Builder inner(*aside.block);
  ir::Builder *outer = ctx.builder;
  ctx.builder = &inner;
  aside.value = eval(expr);
  ctx.builder = outer;
  return aside;
}

ir::Value *IRGenExpr::asideRunTime(Aside &aside, const ast::Expr &expr, ir::DataType type) {
  ir::Builder inner(*aside.block);
  ir::Builder *outer = ctx.builder;
  ctx.builder = &inner;
  ir::Value *v = toRunTime(aside.value, expr, type);
  ctx.builder = outer;
  return v;
}

/// Whether running `block` unconditionally could be observed: any operation
/// that is not pure, or that holds regions (an inlined helper's `if`).
static bool hasEffects(ir::Block &block) {
  return llvm::any_of(block.operations(), [](const std::unique_ptr<ir::Operation> &op) {
    return !ir::isPure(op->kind()) || !op->regions().empty();
  });
}

ir::Value *IRGenExpr::choose(ir::Value *condition, Aside &onTrue, ir::Value *a, Aside &onFalse,
                             ir::Value *b, llvm::SMLoc loc) {
  if (!hasEffects(*onTrue.block) && !hasEffects(*onFalse.block)) {
    ctx.builder->insertAll(*onTrue.block);
    ctx.builder->insertAll(*onFalse.block);
    return ctx.builder->createValue(ir::OpKind::Select, loc, a->type(), {condition, a, b});
  }
  ir::Operation &op = ctx.builder->create(ir::OpKind::If, loc, {condition}, {a->type()});
  for (auto [aside, value] : {std::pair(&onTrue, a), std::pair(&onFalse, b)}) {
    ir::Builder branch(op.addRegion().addBlock());
    branch.insertAll(*aside->block);
    branch.create(ir::OpKind::Yield, loc, {value});
  }
  return op.result();
}

SemaValue IRGenExpr::shortCircuit(ast::BinaryOp op, const SemaValue &lhs,
                                  const ast::BinaryExpr &expr) {
  Aside rhs = evalAside(expr.getRHS());
  if (rhs.value.isPoison())
    return SemaValue::poison();
  bool isAnd = op == ast::BinaryOp::And;
  const SemaValue &r = rhs.value;
  bool isBool = r.is(SemaValue::Kind::Bool) ||
                (r.is(SemaValue::Kind::RunTime) && r.type() == ir::Type::scalar(ir::DataType::Bool));
  if (!isBool)
    return error(expr.getOpLoc(),
                 "'" + ast::getSpelling(op) + "' needs bools, not " + r.describe() +
                     loadHint(expr.getRHS(), r),
                 {expr.getRHS().getRange()});
  if (!hasEffects(*rhs.block)) {
    ctx.builder->insertAll(*rhs.block);
    return scalarBinary(op, lhs, r, {expr.getOpLoc(), expr.getLHS(), expr.getRHS()});
  }
  // a and b = a ? b : False; a or b = a ? True : b.
  Aside constant{SemaValue::boolean(!isAnd), std::make_unique<ir::Block>()};
  ir::Value *b = asideRunTime(rhs, expr.getRHS(), ir::DataType::Bool);
  ir::Value *c = asideRunTime(constant, expr, ir::DataType::Bool);
  if (!b || !c)
    return SemaValue::poison();
  llvm::SMLoc loc = expr.getOpLoc();
  if (isAnd)
    return SemaValue::runTime(choose(lhs.irValue(), rhs, b, constant, c, loc));
  return SemaValue::runTime(choose(lhs.irValue(), constant, c, rhs, b, loc));
}

std::optional<ir::DataType> IRGenExpr::choiceType(const SemaValue &a, const SemaValue &b,
                                                  llvm::StringRef what, std::string &why) {
  auto scalar = [](const SemaValue &v) {
    return v.is(SemaValue::Kind::Int) || v.is(SemaValue::Kind::Float) ||
           v.is(SemaValue::Kind::Bool) || (v.is(SemaValue::Kind::RunTime) && v.type().isScalar());
  };
  for (const SemaValue *v : {&a, &b})
    if (!scalar(*v)) {
      why = (what +
             " with a run-time condition chooses between scalars (numbers or bools), "
             "not " +
             v->describe())
                .str();
      return std::nullopt;
    }
  bool aRunTime = a.is(SemaValue::Kind::RunTime), bRunTime = b.is(SemaValue::Kind::RunTime);
  if (aRunTime && bRunTime && a.type() != b.type()) {
    why = ("the two values of " + what + " have different types, " + a.type().str() + " and " +
           b.type().str() + "; convert one with .to(...)")
              .str();
    return std::nullopt;
  }
  if (aRunTime || bRunTime) {
    // Like arithmetic, a choice is made in 32-bit registers (selp.b32).
    ir::DataType t = (aRunTime ? a : b).type().element();
    if (t != ir::DataType::Bool && ir::bitWidth(t) < 32) {
      why = (what + " chooses between 32-bit values, not " + ir::name(t) + "; convert with .to(" +
             (ir::isFloat(t) ? "f32" : "i32") + ") first")
                .str();
      return std::nullopt;
    }
    return t;
  }
  bool aBool = a.is(SemaValue::Kind::Bool), bBool = b.is(SemaValue::Kind::Bool);
  if (aBool != bBool) {
    why = ("the two values of " + what + " must both be bools or both be numbers, not " +
           a.describe() + " and " + b.describe())
              .str();
    return std::nullopt;
  }
  if (aBool)
    return ir::DataType::Bool;
  if (a.is(SemaValue::Kind::Float) || b.is(SemaValue::Kind::Float))
    return ir::DataType::F32;
  return ir::DataType::I32;
}

// `a if c else b` with a fragment among the values: both are computed and
// a select per element chooses (where(c, a, b)), which is what Python
// means as long as computing the other value cannot be observed.
SemaValue IRGenExpr::fragmentConditional(const SemaValue &condition, Aside &onTrue, Aside &onFalse,
                                         const ast::ConditionalExpr &expr) {
  if (hasEffects(*onTrue.block) || hasEffects(*onFalse.block))
    return error(expr.getIfLoc(),
                 "a conditional expression between register fragments computes both values, "
                 "and one of these has effects (a load, a call); compute them before and choose "
                 "with where(c, a, b)",
                 {expr.getRange()});
  ctx.builder->insertAll(*onTrue.block);
  ctx.builder->insertAll(*onFalse.block);
  return gen.tensors().select(condition, onTrue.value, onFalse.value,
                              {&expr.getCondition(), &expr.getThen(), &expr.getElse()},
                              expr.getIfLoc());
}

SemaValue IRGenExpr::evalConditional(const ast::ConditionalExpr &expr) {
  SemaValue condition = eval(expr.getCondition());
  if (condition.isPoison())
    return condition;
  // A compile-time condition evaluates the chosen value only.
  if (condition.is(SemaValue::Kind::Bool))
    return eval(condition.boolValue() ? expr.getThen() : expr.getElse());
  if (!condition.is(SemaValue::Kind::RunTime) ||
      condition.type() != ir::Type::scalar(ir::DataType::Bool))
    return error(expr.getCondition(),
                 "the condition must be a bool, not " + condition.describe() +
                     loadHint(expr.getCondition(), condition));
  Aside onTrue = evalAside(expr.getThen());
  Aside onFalse = evalAside(expr.getElse());
  if (onTrue.value.isPoison() || onFalse.value.isPoison())
    return SemaValue::poison();
  if (IRGenTensor::isFragment(onTrue.value) || IRGenTensor::isFragment(onFalse.value))
    return fragmentConditional(condition, onTrue, onFalse, expr);
  std::string why;
  std::optional<ir::DataType> type =
      choiceType(onTrue.value, onFalse.value, "a conditional expression", why);
  if (!type)
    return error(expr.getIfLoc(), why, {expr.getRange()});
  ir::Value *a = asideRunTime(onTrue, expr.getThen(), *type);
  ir::Value *b = asideRunTime(onFalse, expr.getElse(), *type);
  if (!a || !b)
    return SemaValue::poison();
  return SemaValue::runTime(choose(condition.irValue(), onTrue, a, onFalse, b, expr.getIfLoc()));
}

} // namespace cutec
