// IRGenExpr: names, literals, operators, tuples, the layout operator,
// calls, subscripts and attributes. Compile-time operands fold here; anything
// involving a run-time value goes to IRGenScalar.cpp or IRGenTensor.cpp.
#include "frontend/irgen/IRGen.h"

#include "frontend/Suggestions.h"

#include <cmath>
#include <compare>

namespace cutec {

SemaValue IRGenExpr::eval(const ast::Expr &expr) {
  if (ctx.budgetSpent)
    return SemaValue::poison();
  Nested nested(*this, expr.getLoc());
  if (!nested.ok())
    return SemaValue::poison();
  switch (expr.getKind()) {
  case ast::NodeKind::Name:
    return evalName(llvm::cast<ast::NameExpr>(expr));
  case ast::NodeKind::IntegerLiteral: {
    uint64_t v = llvm::cast<ast::IntegerLiteralExpr>(expr).getValue();
    if (v > uint64_t(INT64_MAX))
      return error(expr, "integer literal " + llvm::Twine(v) + " does not fit in 64 signed bits");
    return SemaValue::integer(IntExpr(int64_t(v)));
  }
  case ast::NodeKind::FloatLiteral:
    return SemaValue::floating(llvm::cast<ast::FloatLiteralExpr>(expr).getValue());
  case ast::NodeKind::BoolLiteral:
    return SemaValue::boolean(llvm::cast<ast::BoolLiteralExpr>(expr).getValue());
  case ast::NodeKind::NoneLiteral:
    return SemaValue::none();
  case ast::NodeKind::StringLiteral:
    return SemaValue::string(llvm::cast<ast::StringLiteralExpr>(expr).getValue());
  case ast::NodeKind::Paren:
    return eval(llvm::cast<ast::ParenExpr>(expr).getInner());
  case ast::NodeKind::Tuple:
    return evalElements(llvm::cast<ast::TupleExpr>(expr).getElements());
  case ast::NodeKind::List:
    return evalList(llvm::cast<ast::ListExpr>(expr));
  case ast::NodeKind::Unary:
    return evalUnary(llvm::cast<ast::UnaryExpr>(expr));
  case ast::NodeKind::Binary:
    return evalBinary(llvm::cast<ast::BinaryExpr>(expr));
  case ast::NodeKind::Layout:
    return evalLayout(llvm::cast<ast::LayoutExpr>(expr));
  case ast::NodeKind::Conditional:
    return evalConditional(llvm::cast<ast::ConditionalExpr>(expr));
  case ast::NodeKind::Call:
    return evalCall(llvm::cast<ast::CallExpr>(expr));
  case ast::NodeKind::Subscript:
    return evalSubscript(llvm::cast<ast::SubscriptExpr>(expr));
  case ast::NodeKind::Attribute:
    return evalAttribute(llvm::cast<ast::AttributeExpr>(expr));
  default:
    return error(expr, "not an expression");
  }
}

SemaValue IRGenExpr::evalName(const ast::NameExpr &expr) {
  llvm::StringRef name = expr.getName();
  if (name == "_")
    return SemaValue::underscore();
  if (std::optional<SemaValue> v = lookup(name))
    return *v;
  if (ctx.frame->dynamicSizes) {
    // A free name in a kernel parameter type: a new dynamic size.
    ctx.frame->dynamicSizes->push_back(name.str());
    SemaValue size = SemaValue::integer(IntExpr::symbol(name));
    (*ctx.frame->locals)[name] = size;
    return size;
  }
  return error(expr, "unknown name '" + name + "'" + didYouMean(name, visibleNames()));
}

std::vector<llvm::StringRef> IRGenExpr::attributeNames(const SemaValue &base) {
  std::vector<llvm::StringRef> names;
  // Built-in classes' members are the table's "Class.member" rows.
  llvm::StringRef prefix = base.is(SemaValue::Kind::Builtin)  ? base.name()
                           : base.is(SemaValue::Kind::Object) ? base.className()
                                                              : "";
  if (!prefix.empty())
    for (const BuiltinInfo &row : builtinTable())
      if (llvm::StringRef member = row.spelling;
          member.consume_front(prefix) && member.consume_front("."))
        names.push_back(member);
  if (base.is(SemaValue::Kind::Object))
    for (const std::string &field : base.fieldNames())
      if (!llvm::StringRef(field).starts_with("_"))
        names.push_back(field);
  if (base.is(SemaValue::Kind::DType))
    llvm::append_range(names, dtypeAttributeNames(base.dataType()));
  if (base.is(SemaValue::Kind::RunTime)) {
    names.insert(names.end(), {"to", "dtype"});
    if (base.type().isTensor())
      names.insert(names.end(),
                   {"load", "store", "layout", "shape", "stride", "iterator", "element_type"});
    if (IRGenTensor::isFragment(base))
      names.insert(names.end(), {"reduce", "fill"});
  }
  return names;
}

/// A tuple with a failed element failed too: as poison, it is not taken for
/// a tuple by whatever uses it, whose message would follow from the first.
static SemaValue tupleUnlessFailed(std::vector<SemaValue> values) {
  if (llvm::any_of(values, [](const SemaValue &v) { return v.isPoison(); }))
    return SemaValue::poison();
  return SemaValue::tuple(std::move(values));
}

SemaValue IRGenExpr::evalElements(const ast::ExprList &elements) {
  std::vector<SemaValue> values;
  for (const ast::ExprPtr &e : elements) {
    const auto *unpack = llvm::dyn_cast<ast::UnaryExpr>(e.get());
    if (!unpack || unpack->getOp() != ast::UnaryOp::Unpack) {
      values.push_back(eval(*e));
      continue;
    }
    // (*t, 1): t's elements in place.
    SemaValue inner = eval(unpack->getOperand());
    if (inner.is(SemaValue::Kind::Tuple))
      llvm::append_range(values, inner.elements());
    else if (inner.isPoison())
      values.push_back(inner);
    else
      values.push_back(error(unpack->getOperand(), "'*' unpacks a tuple, not " + inner.describe()));
  }
  return tupleUnlessFailed(std::move(values));
}

// [T0, T1, ...]: CuTe's by-mode tiler (make_tile).
SemaValue IRGenExpr::evalList(const ast::ListExpr &list) {
  std::vector<Tiler> modes;
  bool poisoned = false;
  for (const ast::ExprPtr &e : list.getElements()) {
    SemaValue v = eval(*e);
    std::optional<LayoutValue> lv = v.toLayoutValue();
    if (v.isPoison()) {
      poisoned = true;
    } else if (v.isWildcard()) {
      modes.push_back(Tiler::underscore());
    } else if (lv && lv->get<Layout>()) {
      modes.push_back(Tiler::of(*lv->get<Layout>()));
    } else if (lv && lv->get<Tiler>()) {
      modes.push_back(*lv->get<Tiler>());
    } else if (lv && lv->get<IntTuple>()) {
      modes.push_back(Tiler::fromShape(*lv->get<IntTuple>()));
    } else {
      error(*e, "a tiler mode must be a layout, a shape or `_`, not " + v.describe());
      poisoned = true;
    }
  }
  if (poisoned)
    return SemaValue::poison();
  return SemaValue::fromLayoutValue(Tiler::byMode(std::move(modes)));
}

static bool isCompileTimeNumber(const SemaValue &v) {
  return v.is(SemaValue::Kind::Int) || v.is(SemaValue::Kind::Float);
}

SemaValue IRGenExpr::evalUnary(const ast::UnaryExpr &unary) {
  if (unary.getOp() == ast::UnaryOp::Unpack)
    return error(unary, "'*' unpacks a tuple only among the elements of a tuple: (*t, 1)");
  SemaValue v = eval(unary.getOperand());
  if (v.isPoison())
    return v;
  switch (unary.getOp()) {
  case ast::UnaryOp::Not:
    if (v.is(SemaValue::Kind::Bool))
      return SemaValue::boolean(!v.boolValue());
    return scalarNot(v, unary.getOperand());
  case ast::UnaryOp::Plus:
    if (isCompileTimeNumber(v))
      return v;
    break;
  case ast::UnaryOp::Negate:
    if (v.is(SemaValue::Kind::Int))
      return SemaValue::integer(IntExpr(0) - v.intValue());
    if (v.is(SemaValue::Kind::Float))
      return SemaValue::floating(-v.floatValue());
    break;
  case ast::UnaryOp::Invert:
    // Python's ~x is -x - 1, also of a dynamic size.
    if (v.is(SemaValue::Kind::Int))
      return SemaValue::integer(IntExpr(-1) - v.intValue());
    break;
  case ast::UnaryOp::Unpack: // reported above
    break;
  }
  // -s or ~s of a run-time scalar.
  auto runTimeUnary = [&](const SemaValue &s) {
    ir::DataType t = s.type().element();
    llvm::SMLoc loc = unary.getLoc();
    if (unary.getOp() == ast::UnaryOp::Invert) {
      if (!checkBitwiseType(t, "'~'", loc, unary.getRange()))
        return SemaValue::poison();
      // x ^ 0xFFFFFFFF, all ones of the type.
      ir::Value *ones = ctx.builder->constantInt(loc, t, t == ir::DataType::U32 ? 0xFFFFFFFF : -1);
      return SemaValue::runTime(
          ctx.builder->createValue(ir::OpKind::BitXor, loc, s.type(), {s.irValue(), ones}));
    }
    if (!checkArithmeticType(t, loc, unary.getRange()))
      return SemaValue::poison();
    return SemaValue::runTime(
        ctx.builder->createValue(ir::OpKind::Neg, loc, s.type(), {s.irValue()}));
  };
  bool negateOrInvert =
      unary.getOp() == ast::UnaryOp::Negate || unary.getOp() == ast::UnaryOp::Invert;
  if (IRGenTensor::isFragment(v) && negateOrInvert)
    return gen.tensors().elementwise(
        {v}, {&unary.getOperand()}, unary.getLoc(),
        [&](llvm::ArrayRef<SemaValue> s) { return runTimeUnary(s[0]); });
  if (v.is(SemaValue::Kind::RunTime) && v.type().isScalar()) {
    if (negateOrInvert)
      return runTimeUnary(v);
    if (!checkArithmeticType(v.type().element(), unary.getLoc(), unary.getRange()))
      return SemaValue::poison();
    return v;
  }
  return error(unary, "bad operand for unary '" + ast::getSpelling(unary.getOp()) +
                          "': " + v.describe() + loadHint(unary.getOperand(), v));
}

static bool checkedPower(int64_t base, int64_t exp, int64_t &out) {
  out = 1;
  for (int64_t i = 0; i < exp; ++i)
    if (__builtin_mul_overflow(out, base, &out))
      return false;
  return true;
}

std::optional<SemaValue> IRGenExpr::foldInts(ast::BinaryOp op, const SemaValue &lhs,
                                             const SemaValue &rhs, const BinarySite &site) {
  const IntExpr &a = lhs.intValue(), &b = rhs.intValue();
  bool statics = a.isStatic() && b.isStatic();
  int64_t x = a.staticValue(), y = b.staticValue(), r = 0;
  auto overflow = [&] {
    return error(site.opLoc, "integer overflow in compile-time arithmetic", {site.range()});
  };
  auto divisorCheck = [&]() -> std::optional<SemaValue> {
    if (b.isConstant(0))
      return error(site.opLoc, "division by zero", {site.range()});
    return std::nullopt;
  };
  switch (op) {
  case ast::BinaryOp::Add:
    if (statics && __builtin_add_overflow(x, y, &r))
      return overflow();
    return SemaValue::integer(a + b);
  case ast::BinaryOp::Sub:
    if (statics && __builtin_sub_overflow(x, y, &r))
      return overflow();
    return SemaValue::integer(a - b);
  case ast::BinaryOp::Mul:
    if (statics && __builtin_mul_overflow(x, y, &r))
      return overflow();
    return SemaValue::integer(a * b);
  case ast::BinaryOp::FloorDiv:
  case ast::BinaryOp::Mod: {
    if (auto e = divisorCheck())
      return e;
    bool div = op == ast::BinaryOp::FloorDiv;
    if (!statics) // symbolic sizes are non-negative: IntExpr's division is exact
      return SemaValue::integer(div ? a / b : a % b);
    if (x == INT64_MIN && y == -1)
      return overflow();
    // Python's floor division and modulo.
    int64_t q = x / y, m = x % y;
    if (m != 0 && ((m < 0) != (y < 0))) {
      q -= 1;
      m += y;
    }
    return SemaValue::integer(div ? q : m);
  }
  case ast::BinaryOp::Div:
    if (auto e = divisorCheck())
      return e;
    if (statics)
      return SemaValue::floating(double(x) / double(y));
    return error(site.opLoc, "'/' divides floats; use '//' to divide sizes", {site.range()});
  case ast::BinaryOp::Pow:
    if (!statics || y < 0)
      return error(site.opLoc, "'**' needs static integers with a non-negative exponent",
                   {site.range()});
    if (!checkedPower(x, y, r))
      return overflow();
    return SemaValue::integer(r);
  case ast::BinaryOp::Eq:
  case ast::BinaryOp::Ne:
    if (!statics && a != b)
      return std::nullopt; // decided at run time
    return SemaValue::boolean((a == b) == (op == ast::BinaryOp::Eq));
  case ast::BinaryOp::Lt:
    return statics ? std::optional(SemaValue::boolean(x < y)) : std::nullopt;
  case ast::BinaryOp::Le:
    return statics ? std::optional(SemaValue::boolean(x <= y)) : std::nullopt;
  case ast::BinaryOp::Gt:
    return statics ? std::optional(SemaValue::boolean(x > y)) : std::nullopt;
  case ast::BinaryOp::Ge:
    return statics ? std::optional(SemaValue::boolean(x >= y)) : std::nullopt;
  case ast::BinaryOp::BitAnd:
  case ast::BinaryOp::BitOr:
  case ast::BinaryOp::BitXor:
  case ast::BinaryOp::LShift:
  case ast::BinaryOp::RShift:
    // A dynamic size's bits are known at run time only.
    return statics ? std::optional(foldBitwise(op, x, y, site)) : std::nullopt;
  case ast::BinaryOp::And:
  case ast::BinaryOp::Or:
  case ast::BinaryOp::Is: // foldPythonObjects
  case ast::BinaryOp::IsNot:
    break;
  }
  return std::nullopt;
}

// Python's meaning on integers, which are two's complement without bounds:
// a shift by a negative count is an error, `x >> n` is floor(x / 2^n), and
// `x << n` must fit in 64 bits as every compile-time integer does.
SemaValue IRGenExpr::foldBitwise(ast::BinaryOp op, int64_t x, int64_t y, const BinarySite &site) {
  bool shift = op == ast::BinaryOp::LShift || op == ast::BinaryOp::RShift;
  if (shift && y < 0)
    return error(site.opLoc, "negative shift count", {site.range()});
  switch (op) {
  case ast::BinaryOp::BitAnd:
    return SemaValue::integer(x & y);
  case ast::BinaryOp::BitOr:
    return SemaValue::integer(x | y);
  case ast::BinaryOp::BitXor:
    return SemaValue::integer(x ^ y);
  case ast::BinaryOp::RShift:
    return SemaValue::integer(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
  default: // LShift
    if (x == 0)
      return SemaValue::integer(0);
    if (y >= 63 || x > (INT64_MAX >> y) || x < (INT64_MIN >> y))
      return error(site.opLoc, "integer overflow in compile-time arithmetic", {site.range()});
    return SemaValue::integer(int64_t(uint64_t(x) << y));
  }
}

/// An integer and a float as Python compares them: exactly, not through
/// the integer rounded to a double (2**53 + 1 > 2.0**53).
static std::partial_ordering compareIntFloat(int64_t x, double y) {
  if (std::isnan(y))
    return std::partial_ordering::unordered;
  if (y >= 0x1p63)
    return std::partial_ordering::less;
  if (y < -0x1p63)
    return std::partial_ordering::greater;
  double whole = std::trunc(y); // |whole| < 2^63: an exact int64
  if (int64_t w = int64_t(whole); x != w)
    return x <=> w;
  return 0.0 <=> y - whole; // the fraction, exact
}

/// Two compile-time numbers, at least one a float (foldFloats' operands).
static std::partial_ordering compareNumbers(const SemaValue &lhs, const SemaValue &rhs) {
  if (lhs.is(SemaValue::Kind::Int))
    return compareIntFloat(lhs.intValue().staticValue(), rhs.floatValue());
  if (rhs.is(SemaValue::Kind::Int)) // reversed: lhs <=> rhs is 0 <=> (rhs <=> lhs)
    return 0 <=> compareIntFloat(rhs.intValue().staticValue(), lhs.floatValue());
  return lhs.floatValue() <=> rhs.floatValue();
}

/// Whether comparison `op` holds for `order`: only `!=` holds when unordered.
static bool holds(ast::BinaryOp op, std::partial_ordering order) {
  switch (op) {
  case ast::BinaryOp::Eq:
    return order == 0;
  case ast::BinaryOp::Ne:
    return order != 0;
  case ast::BinaryOp::Lt:
    return order < 0;
  case ast::BinaryOp::Le:
    return order <= 0;
  case ast::BinaryOp::Gt:
    return order > 0;
  default: // Ge
    return order >= 0;
  }
}

std::optional<SemaValue> IRGenExpr::foldFloats(ast::BinaryOp op, const SemaValue &lhs,
                                               const SemaValue &rhs) {
  auto value = [](const SemaValue &v) -> std::optional<double> {
    if (v.is(SemaValue::Kind::Float))
      return v.floatValue();
    if (v.is(SemaValue::Kind::Int) && v.intValue().isStatic())
      return double(v.intValue().staticValue());
    return std::nullopt;
  };
  std::optional<double> a = value(lhs), b = value(rhs);
  if (!a || !b)
    return std::nullopt;
  switch (op) {
  case ast::BinaryOp::Add:
    return SemaValue::floating(*a + *b);
  case ast::BinaryOp::Sub:
    return SemaValue::floating(*a - *b);
  case ast::BinaryOp::Mul:
    return SemaValue::floating(*a * *b);
  case ast::BinaryOp::Div:
    return SemaValue::floating(*a / *b);
  case ast::BinaryOp::Eq:
  case ast::BinaryOp::Ne:
  case ast::BinaryOp::Lt:
  case ast::BinaryOp::Le:
  case ast::BinaryOp::Gt:
  case ast::BinaryOp::Ge:
    return SemaValue::boolean(holds(op, compareNumbers(lhs, rhs)));
  default:
    return std::nullopt;
  }
}

SemaValue IRGenExpr::evalBinary(const ast::BinaryExpr &expr) {
  ast::BinaryOp op = expr.getOp();
  SemaValue lhs = eval(expr.getLHS());
  bool logical = op == ast::BinaryOp::And || op == ast::BinaryOp::Or;
  // `and`/`or` short-circuit on compile-time bools, as in Python.
  if (logical && lhs.is(SemaValue::Kind::Bool) && lhs.boolValue() == (op == ast::BinaryOp::Or))
    return lhs;
  // On run-time bools they evaluate the right side only when needed.
  if (logical && lhs.is(SemaValue::Kind::RunTime) &&
      lhs.type() == ir::Type::scalar(ir::DataType::Bool))
    return shortCircuit(op, lhs, expr);
  SemaValue rhs = eval(expr.getRHS());
  return binary(op, lhs, rhs, {expr.getOpLoc(), expr.getLHS(), expr.getRHS()});
}

SemaValue IRGenExpr::binary(ast::BinaryOp op, const SemaValue &lhs, const SemaValue &rhs,
                            const BinarySite &site) {
  if (lhs.isPoison() || rhs.isPoison())
    return SemaValue::poison();
  if (std::optional<SemaValue> v = foldPythonObjects(op, lhs, rhs, site))
    return *v;
  bool logical = op == ast::BinaryOp::And || op == ast::BinaryOp::Or;
  if (logical && lhs.is(SemaValue::Kind::Bool) && rhs.is(SemaValue::Kind::Bool))
    return rhs;
  if (!logical) {
    if (lhs.is(SemaValue::Kind::Int) && rhs.is(SemaValue::Kind::Int))
      if (std::optional<SemaValue> v = foldInts(op, lhs, rhs, site))
        return *v;
    if (std::optional<SemaValue> v = foldFloats(op, lhs, rhs))
      return *v;
    if (lhs.is(SemaValue::Kind::Bool) && rhs.is(SemaValue::Kind::Bool) &&
        (op == ast::BinaryOp::Eq || op == ast::BinaryOp::Ne))
      return SemaValue::boolean((lhs.boolValue() == rhs.boolValue()) == (op == ast::BinaryOp::Eq));
  }
  if (IRGenTensor::isPointer(lhs) || IRGenTensor::isPointer(rhs))
    return gen.tensors().pointerArithmetic(op, lhs, rhs, site);
  return scalarBinary(op, lhs, rhs, site);
}

SemaValue IRGenExpr::evalLayoutOperand(const ast::Expr &expr) {
  if (const auto *paren = llvm::dyn_cast<ast::ParenExpr>(&expr)) {
    // CuTe's notation: (8):(1) and ((16,4)):((0,1)) have one mode each.
    SemaValue inner = evalLayoutOperand(paren->getInner());
    if (inner.is(SemaValue::Kind::Tuple) || inner.is(SemaValue::Kind::Int))
      return SemaValue::tuple({inner});
    return inner;
  }
  if (const auto *tuple = llvm::dyn_cast<ast::TupleExpr>(&expr)) {
    std::vector<SemaValue> values;
    for (const ast::ExprPtr &e : tuple->getElements())
      values.push_back(evalLayoutOperand(*e));
    return tupleUnlessFailed(std::move(values));
  }
  return eval(expr);
}

SemaValue IRGenExpr::evalLayout(const ast::LayoutExpr &expr) {
  SemaValue shape = evalLayoutOperand(expr.getShape());
  SemaValue stride = evalLayoutOperand(expr.getStride());
  if (shape.isPoison() || stride.isPoison())
    return SemaValue::poison();
  std::vector<LayoutValue> args;
  for (auto [v, e] : {std::pair(&shape, &expr.getShape()), std::pair(&stride, &expr.getStride())}) {
    std::optional<LayoutValue> lv = v->toLayoutValue();
    if (!lv || !lv->get<IntTuple>())
      return error(*e, "the " + llvm::Twine(v == &shape ? "shape" : "stride") +
                           " of a layout must be an integer or a tuple of integers, not " +
                           v->describe());
    args.push_back(*lv);
  }
  llvm::Expected<LayoutValue> layout = callLayoutFunction("make_layout", args);
  if (!layout)
    return error(expr.getColonLoc(), llvm::toString(layout.takeError()), {expr.getRange()});
  return SemaValue::fromLayoutValue(std::move(*layout));
}

const CallSite::Keyword *CallSite::keyword(llvm::StringRef name) const {
  for (const Keyword &k : keywords)
    if (k.name == name)
      return &k;
  return nullptr;
}

std::optional<CallSite> IRGenExpr::evalCallSite(const ast::CallExpr &call) {
  CallSite site{call, {}, {}, {}, nullptr, {}, std::nullopt};
  bool poisoned = false;
  for (const ast::ExprPtr &arg : call.getArgs()) {
    site.args.push_back(eval(*arg));
    poisoned |= site.args.back().isPoison();
  }
  llvm::StringSet<> seen;
  for (const ast::KeywordArg &kw : call.getKeywords()) {
    if (!seen.insert(kw.name).second) {
      error(kw.nameRange.Start, "keyword argument '" + kw.name + "' given twice", {kw.nameRange});
      poisoned = true;
    }
    site.keywords.push_back({kw.name, kw.nameRange, eval(*kw.value), kw.value.get()});
    poisoned |= site.keywords.back().value.isPoison();
  }
  if (poisoned || !step(call.getLoc()))
    return std::nullopt;
  return site;
}

SemaValue IRGenExpr::evalCall(const ast::CallExpr &call) {
  // A called name is never a new dynamic size: `typo(M)` in a parameter
  // type is an unknown function.
  std::vector<std::string> *sizes = ctx.frame->dynamicSizes;
  ctx.frame->dynamicSizes = nullptr;
  SemaValue callee = eval(call.getCallee());
  ctx.frame->dynamicSizes = sizes;
  std::optional<CallSite> site = evalCallSite(call);
  if (callee.isPoison() || !site)
    return SemaValue::poison();
  switch (callee.kind()) {
  case SemaValue::Kind::Builtin:
    return gen.builtins().callBuiltin(callee.name(), *site);
  case SemaValue::Kind::DType:
    return gen.builtins().callDType(callee.dataType(), *site);
  case SemaValue::Kind::Helper:
    return gen.stmts().callHelper(callee.function(), *site);
  case SemaValue::Kind::Method: {
    SemaValue result = gen.builtins().callMethod(callee, *site);
    if (site->updatedSelf)
      updateReceiver(call, *site->updatedSelf);
    return result;
  }
  case SemaValue::Kind::Kernel:
    return error(call.getCallee(), "kernels cannot be called; only helper functions can");
  default:
    break;
  }
  const auto *name = llvm::dyn_cast<ast::NameExpr>(&call.getCallee());
  std::string what = name ? ("'" + name->getName() + "' is ").str() : "this is ";
  return error(call.getCallee(), what + callee.describe() + ", not a function");
}

void IRGenExpr::updateReceiver(const ast::CallExpr &call, const SemaValue &self) {
  const auto &method = llvm::cast<ast::AttributeExpr>(call.getCallee());
  const auto *name = llvm::dyn_cast<ast::NameExpr>(&method.getBase());
  if (!name) {
    error(method.getBase(), "'" + method.getName() +
                                "' changes its object, so it must be called on a variable");
    return;
  }
  if (ctx.frame->locals->count(name->getName()))
    (*ctx.frame->locals)[name->getName()] = self;
  else
    error(method.getBase(), "'" + method.getName() + "' changes its object, so '" +
                                name->getName() + "' must be a local variable");
}

SemaValue IRGenExpr::indexTuple(const SemaValue &tuple, const ast::SubscriptExpr &subscript) {
  if (subscript.getIndices().size() != 1)
    return error(subscript, "a tuple takes one index");
  const ast::Expr &indexExpr = *subscript.getIndices().front();
  SemaValue index = eval(indexExpr);
  if (index.isPoison())
    return index;
  if (!index.is(SemaValue::Kind::Int) || !index.intValue().isStatic())
    return error(indexExpr, "a tuple index must be a static integer, not " + index.describe());
  int64_t i = index.intValue().staticValue();
  int64_t size = int64_t(tuple.elements().size());
  if (i < -size || i >= size)
    return error(indexExpr, "index " + llvm::Twine(i) + " is out of range for a tuple of " +
                                llvm::Twine(size) + " elements");
  return tuple.elements()[i < 0 ? i + size : i];
}

// As in Python, t[(a, b, c)] is t[a, b, c] (CuTe DSL's `t[coord]` with a
// coordinate built beforehand); on a tensor of rank 1 a tuple stays the
// coordinate of its one, nested, mode.
bool IRGenExpr::spreadTupleIndex(const SemaValue &base, const ast::SubscriptExpr &subscript,
                                 std::vector<SemaValue> &indices) {
  if (!base.is(SemaValue::Kind::RunTime) || !base.type().isTensor() || indices.size() != 1 ||
      !indices[0].is(SemaValue::Kind::Tuple) || base.type().tensorLayout().rank() < 2)
    return true;
  size_t rank = base.type().tensorLayout().rank();
  if (indices[0].elements().size() != rank) {
    error(*subscript.getIndices()[0], "a tuple of " +
                                          llvm::Twine(indices[0].elements().size()) +
                                          " coordinates for a rank-" + llvm::Twine(rank) +
                                          " tensor: give one per mode (`_` for a whole mode)");
    return false;
  }
  indices = std::vector<SemaValue>(indices[0].elements());
  return true;
}

SemaValue IRGenExpr::evalSubscript(const ast::SubscriptExpr &subscript) {
  SemaValue base = eval(subscript.getBase());
  if (base.isPoison())
    return base;
  if (base.is(SemaValue::Kind::Tuple))
    return indexTuple(base, subscript);
  if (base.is(SemaValue::Kind::Builtin) && base.name() == "Tensor")
    return error(subscript, "Tensor[...] is only allowed as the type of a kernel parameter");
  std::vector<SemaValue> indices;
  for (const ast::ExprPtr &e : subscript.getIndices()) {
    indices.push_back(eval(*e));
    if (indices.back().isPoison())
      return SemaValue::poison();
  }
  if (IRGenTensor::isCoordinateTensor(base))
    return gen.tensors().sliceCoordinates(base, subscript, indices);
  if (!spreadTupleIndex(base, subscript, indices))
    return SemaValue::poison();
  if (base.is(SemaValue::Kind::RunTime) && base.type().isTensor()) {
    if (base.type().memorySpace() == ir::MemorySpace::Register)
      return gen.tensors().extract(base, subscript, indices);
    return gen.tensors().sliceTensor(base, subscript, indices);
  }
  if (base.is(SemaValue::Kind::Layout)) {
    // L[i, j]: the (nested) mode, CuTe's get.
    std::vector<LayoutValue> args{base.layout()};
    for (size_t i = 0; i < indices.size(); ++i) {
      std::optional<LayoutValue> lv = indices[i].toLayoutValue();
      if (!lv)
        return error(*subscript.getIndices()[i],
                     "a mode index must be an integer, not " + indices[i].describe());
      args.push_back(*lv);
    }
    llvm::Expected<LayoutValue> mode = callLayoutFunction("get", args);
    if (!mode)
      return error(subscript, llvm::toString(mode.takeError()));
    return SemaValue::fromLayoutValue(std::move(*mode));
  }
  return error(subscript.getBase(), "cannot index " + base.describe());
}

SemaValue IRGenExpr::evalAttribute(const ast::AttributeExpr &attribute) {
  llvm::StringRef name = attribute.getName();
  int dim = name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : -1;
  // thread_idx().x emits only the index it names, so the IR reads as the
  // source does instead of carrying two unused indices.
  if (const auto *call = llvm::dyn_cast<ast::CallExpr>(&attribute.getBase());
      call && dim >= 0 && call->getArgs().empty() && call->getKeywords().empty()) {
    SemaValue callee = eval(call->getCallee());
    if (callee.is(SemaValue::Kind::Builtin))
      if (std::optional<ir::OpKind> kind = indexRegisterOp(callee.name()))
        return gen.builtins().indexRegister(*kind, call->getLoc(), callee.name() + "()", dim);
  }
  SemaValue base = eval(attribute.getBase());
  if (base.isPoison())
    return base;
  if (base.is(SemaValue::Kind::Tuple) && dim >= 0 && size_t(dim) < base.elements().size())
    return base.elements()[dim];
  std::optional<LayoutValue> layout = gen.builtins().layoutArgument(base);
  const Layout *plain = layout ? layout->get<Layout>() : nullptr;
  if (plain && !base.is(SemaValue::Kind::Tuple) && (name == "shape" || name == "stride"))
    return SemaValue::fromIntTuple(name == "shape" ? plain->shape : plain->stride);
  if (base.is(SemaValue::Kind::RunTime)) {
    const ir::Type &type = base.type();
    if (name == "to" || (type.isTensor() && (name == "load" || name == "store")) ||
        (IRGenTensor::isFragment(base) && (name == "reduce" || name == "fill")))
      return SemaValue::method(base, name);
    if (type.isTensor() && name == "layout")
      return SemaValue::fromLayoutValue(type.tensorLayout());
    if (type.isTensor() && name == "iterator")
      return gen.tensors().iteratorOf(base, attribute.getBase());
    // CuTe DSL spells a tensor's element type `element_type`.
    if (name == "dtype" || (type.isTensor() && name == "element_type"))
      return SemaValue::dtype(type.element());
  }
  if (base.is(SemaValue::Kind::Builtin))
    if (const BuiltinInfo *module = findBuiltin(base.name()); module && module->isModule)
      return moduleMember(attribute, module->spelling);
  if (base.is(SemaValue::Kind::DType))
    if (std::optional<SemaValue> member = dtypeAttribute(base.dataType(), name))
      return *member;
  // Built-in classes' constructors and enumerations are rows such as
  // "PipelineTmaUmma.create".
  if (base.is(SemaValue::Kind::Builtin))
    if (const BuiltinInfo *row = findBuiltin((base.name() + "." + name).str())) {
      if (std::optional<double> constant = mathConstant(row->spelling))
        return SemaValue::floating(*constant);
      return SemaValue::builtin(row->spelling);
    }
  if (base.is(SemaValue::Kind::Object)) {
    // Methods are the built-in table's "Class.method" rows; fields whose
    // names start with '_' are the object's own.
    if (findBuiltin((base.className() + "." + name).str()))
      return SemaValue::method(base, name);
    if (const SemaValue *field = base.field(name); field && !name.starts_with("_"))
      return *field;
  }
  if (std::optional<SemaValue> method = gen.tiledMma().tiledMmaAttribute(base, name))
    return *method;
  return error(attribute.getNameRange().Start,
               base.describe() + " has no attribute '" + name + "'" +
                   didYouMean(name, attributeNames(base)),
               {attribute.getNameRange()});
}

} // namespace cutec
