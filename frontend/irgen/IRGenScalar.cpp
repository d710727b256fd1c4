// IRGenExpr, for run-time scalars: compile-time numbers adopting the type of
// the run-time operand they meet, the type rules of arithmetic and comparison,
// conversions, and symbolic sizes materialized as i32 arithmetic.
#include "frontend/irgen/IRGen.h"

#include "ir/core/Materialize.h"

namespace cutec {

bool IRGenExpr::checkArithmeticType(ir::DataType t, llvm::SMLoc loc, llvm::SMRange range) {
  if (ir::isStorageOnlyFloat(t)) {
    error(loc, "arithmetic on " + ir::name(t) + " is not supported: convert with .to(f32) first",
          {range});
    return false;
  }
  if (!ir::isFloat(t) && !ir::isInteger(t)) {
    error(loc, "arithmetic on " + ir::name(t) + " is not supported", {range});
    return false;
  }
  // Scalar arithmetic runs in 32-bit registers: f16 and bf16 values and
  // narrow integers are converted first (as CUDA C++ promotes them).
  if (ir::bitWidth(t) < 32) {
    const char *wide = ir::isFloat(t) ? "f32" : "i32";
    error(loc, "arithmetic on " + ir::name(t) + " is not supported: convert with .to(" + wide +
                   ") first",
          {range});
    return false;
  }
  return true;
}

bool IRGenExpr::checkComparisonType(ir::DataType t, llvm::SMLoc loc, llvm::SMRange range) {
  if (t == ir::DataType::F16 || t == ir::DataType::BF16)
    return true;
  if (ir::isStorageOnlyFloat(t)) {
    error(loc,
          "comparing " + ir::name(t) +
              " values is not supported: convert both with .to(f32) first, which is exact",
          {range});
    return false;
  }
  return checkArithmeticType(t, loc, range);
}

bool IRGenExpr::checkBitwiseType(ir::DataType t, llvm::StringRef spelling, llvm::SMLoc loc,
                                 llvm::SMRange range) {
  if (t == ir::DataType::I32 || t == ir::DataType::U32)
    return true;
  bool narrow = ir::isInteger(t) && ir::bitWidth(t) < 32;
  error(loc,
        spelling + " needs i32 or u32 integers, not " + ir::name(t) +
            (narrow ? "; convert with .to(i32) first" : ""),
        {range});
  return false;
}

static bool isScalarLike(const SemaValue &v) {
  switch (v.kind()) {
  case SemaValue::Kind::Int:
  case SemaValue::Kind::Float:
  case SemaValue::Kind::Bool:
    return true;
  case SemaValue::Kind::RunTime:
    return v.type().isScalar();
  default:
    return false;
  }
}

static std::optional<ir::OpKind> arithmeticOp(ast::BinaryOp op) {
  switch (op) {
  case ast::BinaryOp::Add:
    return ir::OpKind::Add;
  case ast::BinaryOp::Sub:
    return ir::OpKind::Sub;
  case ast::BinaryOp::Mul:
    return ir::OpKind::Mul;
  case ast::BinaryOp::Div:
  case ast::BinaryOp::FloorDiv:
    return ir::OpKind::Div;
  case ast::BinaryOp::Mod:
    return ir::OpKind::Rem;
  case ast::BinaryOp::BitAnd:
    return ir::OpKind::BitAnd;
  case ast::BinaryOp::BitOr:
    return ir::OpKind::BitOr;
  case ast::BinaryOp::BitXor:
    return ir::OpKind::BitXor;
  case ast::BinaryOp::LShift:
    return ir::OpKind::ShiftLeft;
  case ast::BinaryOp::RShift:
    return ir::OpKind::ShiftRight;
  default:
    return std::nullopt;
  }
}

static const char *comparePredicate(ast::BinaryOp op) {
  switch (op) {
  case ast::BinaryOp::Eq:
    return "eq";
  case ast::BinaryOp::Ne:
    return "ne";
  case ast::BinaryOp::Lt:
    return "lt";
  case ast::BinaryOp::Le:
    return "le";
  case ast::BinaryOp::Gt:
    return "gt";
  case ast::BinaryOp::Ge:
    return "ge";
  default:
    return nullptr;
  }
}

/// Whether `v` is a view of memory, which arithmetic cannot take.
static bool isMemoryView(const SemaValue &v) {
  return v.is(SemaValue::Kind::RunTime) && v.type().isTensor() &&
         v.type().memorySpace() != ir::MemorySpace::Register;
}

std::string IRGenExpr::loadedSpelling(const ast::Expr &expr, const SemaValue &v) {
  llvm::SMRange r = expr.getRange();
  std::string text(r.Start.getPointer(), r.End.getPointer() - r.Start.getPointer());
  return isMemoryView(v) ? text + ".load()" : text;
}

std::string IRGenExpr::loadHint(const ast::Expr &expr, const SemaValue &v) {
  if (!isMemoryView(v))
    return "";
  return "; a tensor is a view of memory: did you mean " + loadedSpelling(expr, v) + "?";
}

SemaValue IRGenExpr::scalarBinary(ast::BinaryOp op, const SemaValue &lhs, const SemaValue &rhs,
                                  const BinarySite &site) {
  llvm::SMLoc loc = site.opLoc;
  llvm::SMRange ranges[] = {site.lhs.getRange(), site.rhs.getRange()};
  std::string spelling = ("'" + ast::getSpelling(op) + "'").str();
  if ((IRGenTensor::isFragment(lhs) || IRGenTensor::isFragment(rhs)) &&
      (IRGenTensor::isFragment(lhs) || isScalarLike(lhs)) &&
      (IRGenTensor::isFragment(rhs) || isScalarLike(rhs)))
    return gen.tensors().elementwise(
        {lhs, rhs}, {&site.lhs, &site.rhs}, loc,
        [&](llvm::ArrayRef<SemaValue> s) { return scalarBinary(op, s[0], s[1], site); });
  if (!isScalarLike(lhs) || !isScalarLike(rhs)) {
    // A view is memory, not a value: say how to read it.
    std::string hint;
    if (isMemoryView(lhs) || isMemoryView(rhs))
      hint = "; a tensor is a view of memory: did you mean " + loadedSpelling(site.lhs, lhs) +
             " " + ast::getSpelling(op).str() + " " + loadedSpelling(site.rhs, rhs) + "?";
    return error(loc,
                 "unsupported operand types for " + spelling + ": " + lhs.describe() + " and " +
                     rhs.describe() + hint,
                 ranges);
  }
  if (!requireBuilder(loc, "run-time arithmetic"))
    return SemaValue::poison();
  // The operand types: two run-time values must agree; a compile-time
  // number takes the type of the run-time operand.
  bool lhsRunTime = lhs.is(SemaValue::Kind::RunTime), rhsRunTime = rhs.is(SemaValue::Kind::RunTime);
  std::optional<ir::DataType> type;
  if (lhsRunTime && rhsRunTime && lhs.type() != rhs.type())
    return error(loc,
                 "mixing types in arithmetic: " + lhs.type().str() + " and " + rhs.type().str() +
                     "; convert one operand with .to(...)",
                 ranges);
  if (lhsRunTime)
    type = lhs.type().element();
  else if (rhsRunTime)
    type = rhs.type().element();
  else if (lhs.is(SemaValue::Kind::Bool) || rhs.is(SemaValue::Kind::Bool))
    type = ir::DataType::Bool;
  ir::Value *a = toRunTime(lhs, site.lhs, type);
  ir::Value *b = toRunTime(rhs, site.rhs, type);
  if (!a || !b)
    return SemaValue::poison();
  ir::DataType t = a->type().element();
  if (b->type() != a->type())
    return error(loc,
                 "mixing types in arithmetic: " + a->type().str() + " and " + b->type().str() +
                     "; convert one operand with .to(...)",
                 ranges);

  if (op == ast::BinaryOp::And || op == ast::BinaryOp::Or) {
    if (t != ir::DataType::Bool)
      return error(loc, spelling + " needs bools, not " + ir::name(t), ranges);
    // a and b = a ? b : false;  a or b = a ? true : b.
    ir::Operation &c = ctx.builder->create(ir::OpKind::Constant, loc, {}, {a->type()});
    c.set(ir::attr::value, op == ast::BinaryOp::Or);
    ir::Value *ifTrue = op == ast::BinaryOp::Or ? c.result() : b;
    ir::Value *ifFalse = op == ast::BinaryOp::Or ? b : c.result();
    return SemaValue::runTime(
        ctx.builder->createValue(ir::OpKind::Select, loc, a->type(), {a, ifTrue, ifFalse}));
  }
  if (const char *predicate = comparePredicate(op)) {
    bool equality = op == ast::BinaryOp::Eq || op == ast::BinaryOp::Ne;
    if (!(equality && t == ir::DataType::Bool) && !checkComparisonType(t, loc, ranges[0]))
      return SemaValue::poison();
    ir::Operation &cmp =
        ctx.builder->create(ir::OpKind::Cmp, loc, {a, b}, {ir::Type::scalar(ir::DataType::Bool)});
    cmp.set(ir::attr::predicate, std::string(predicate));
    return SemaValue::runTime(cmp.result());
  }
  std::optional<ir::OpKind> kind = arithmeticOp(op);
  if (!kind)
    return error(loc, spelling + " is only supported on compile-time integers", ranges);
  bool bitwise = *kind == ir::OpKind::BitAnd || *kind == ir::OpKind::BitOr ||
                 *kind == ir::OpKind::BitXor || *kind == ir::OpKind::ShiftLeft ||
                 *kind == ir::OpKind::ShiftRight;
  if (bitwise)
    return checkBitwiseType(t, spelling, loc, ranges[0])
               ? SemaValue::runTime(ctx.builder->createValue(*kind, loc, a->type(), {a, b}))
               : SemaValue::poison();
  if (!checkArithmeticType(t, loc, ranges[0]))
    return SemaValue::poison();
  if (op == ast::BinaryOp::Div && !ir::isFloat(t))
    return error(loc, "'/' divides floats; use '//' to divide integers", ranges);
  if ((op == ast::BinaryOp::FloorDiv || op == ast::BinaryOp::Mod) && ir::isFloat(t))
    return error(loc, spelling + " needs integers, not " + ir::name(t), ranges);
  return SemaValue::runTime(ctx.builder->createValue(*kind, loc, a->type(), {a, b}));
}

SemaValue IRGenExpr::scalarNot(const SemaValue &v, const ast::Expr &expr) {
  if (!v.is(SemaValue::Kind::RunTime) || v.type() != ir::Type::scalar(ir::DataType::Bool))
    return error(expr, "'not' needs a bool, not " + v.describe());
  ir::Operation &f = ctx.builder->create(ir::OpKind::Constant, expr.getLoc(), {}, {v.type()});
  f.set(ir::attr::value, false);
  ir::Operation &cmp =
      ctx.builder->create(ir::OpKind::Cmp, expr.getLoc(), {v.irValue(), f.result()}, {v.type()});
  cmp.set(ir::attr::predicate, std::string("eq"));
  return SemaValue::runTime(cmp.result());
}

std::string opaqueValueError(ir::DataType t, llvm::StringRef what) {
  return ("cannot " + what + " " + ir::name(t) + ": it holds cluster launch control responses, " +
          "which only issue_clc_query and clc_response read and write")
      .str();
}

SemaValue IRGenExpr::convert(const SemaValue &v, ir::DataType to, const ast::Expr &expr) {
  if (v.isPoison())
    return v;
  if (ir::isOpaque(to))
    return error(expr, opaqueValueError(to, "make a value of"));
  if (!v.is(SemaValue::Kind::RunTime)) {
    ir::Value *c = toRunTime(v, expr, to);
    return c ? SemaValue::runTime(c) : SemaValue::poison();
  }
  const ir::Type &type = v.type();
  if (type.isTensor() && type.memorySpace() != ir::MemorySpace::Register)
    return error(expr, "cannot convert the view " + type.str() +
                           ": load it first, as in .load().to(" + ir::name(to) + ")");
  if (!type.isScalar() && !type.isTensor())
    return error(expr, "cannot convert " + v.describe());
  if (type.element() == to)
    return v;
  ir::Type result = type.isScalar()
                        ? ir::Type::scalar(to)
                        : ir::Type::tensor(to, ir::MemorySpace::Register, type.tensorLayout());
  ir::Builder *b = requireBuilder(expr.getLoc(), "conversion");
  if (!b)
    return SemaValue::poison();
  return SemaValue::runTime(
      b->createValue(ir::OpKind::Convert, expr.getLoc(), result, {v.irValue()}));
}

} // namespace cutec
