//===- IRGenPythonObjects.cpp - is, None and tuple operators --------------===//
//
// Python's operators on its own objects, folded at compile time as Python
// evaluates them (docs/language.md "Compile-time and run-time values"):
// `x is None` and `x is not None`, `==` and `!=` with None, and tuples'
// `==`, `!=` (element by element) and `+` (concatenation). `len` of a
// tuple or string is here too.
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"

namespace cutec {

std::optional<SemaValue> IRGenExpr::foldPythonObjects(ast::BinaryOp op, const SemaValue &lhs,
                                                      const SemaValue &rhs,
                                                      const BinarySite &site) {
  bool lhsNone = lhs.is(SemaValue::Kind::None), rhsNone = rhs.is(SemaValue::Kind::None);
  bool isOp = op == ast::BinaryOp::Is || op == ast::BinaryOp::IsNot;
  bool equality = op == ast::BinaryOp::Eq || op == ast::BinaryOp::Ne;
  // Nothing but None is None, a run-time value included.
  if ((isOp || equality) && (lhsNone || rhsNone))
    return SemaValue::boolean((lhsNone == rhsNone) ==
                              (op == ast::BinaryOp::Is || op == ast::BinaryOp::Eq));
  if (isOp)
    return error(site.opLoc,
                 "'" + ast::getSpelling(op) +
                     "' compares with None only (x is None); compare values with == or !=",
                 {site.lhs.getRange(), site.rhs.getRange()});
  bool lhsTuple = lhs.is(SemaValue::Kind::Tuple), rhsTuple = rhs.is(SemaValue::Kind::Tuple);
  // A tuple equals no compile-time number or string: (1,) == 1 is False.
  auto plain = [](const SemaValue &v) {
    return v.is(SemaValue::Kind::Int) || v.is(SemaValue::Kind::Float) ||
           v.is(SemaValue::Kind::Bool) || v.is(SemaValue::Kind::String);
  };
  if (equality && ((lhsTuple && plain(rhs)) || (rhsTuple && plain(lhs))))
    return SemaValue::boolean(op == ast::BinaryOp::Ne);
  if (!lhsTuple || !rhsTuple)
    return std::nullopt;
  if (op == ast::BinaryOp::Add) {
    std::vector<SemaValue> elements = lhs.elements();
    llvm::append_range(elements, rhs.elements());
    return SemaValue::tuple(std::move(elements));
  }
  if (!equality)
    return std::nullopt;
  SemaValue equal = tuplesEqual(lhs, rhs, site);
  if (equal.isPoison() || op == ast::BinaryOp::Eq)
    return equal;
  return SemaValue::boolean(!equal.boolValue());
}

SemaValue IRGenExpr::tuplesEqual(const SemaValue &a, const SemaValue &b, const BinarySite &site) {
  if (a.elements().size() != b.elements().size())
    return SemaValue::boolean(false);
  for (size_t i = 0; i < a.elements().size(); ++i) {
    const SemaValue &x = a.elements()[i], &y = b.elements()[i];
    bool xTuple = x.is(SemaValue::Kind::Tuple), yTuple = y.is(SemaValue::Kind::Tuple);
    // A tuple equals no number: (1,) == 1 is False.
    SemaValue equal = xTuple && yTuple ? tuplesEqual(x, y, site)
                      : xTuple || yTuple
                          ? SemaValue::boolean(false)
                          : binary(ast::BinaryOp::Eq, x, y, site);
    if (equal.isPoison())
      return equal;
    if (!equal.is(SemaValue::Kind::Bool))
      return error(site.opLoc,
                   "tuples compare at compile time, but element " + llvm::Twine(i) +
                       " is known only at run time (" + x.describe() + " and " + y.describe() +
                       "); compare the elements with ==",
                   {site.lhs.getRange(), site.rhs.getRange()});
    if (!equal.boolValue())
      return equal;
  }
  return SemaValue::boolean(true);
}

// len(x): the number of elements of a tuple, or of characters of a string.
SemaValue IRGenBuiltins::callLen(CallSite &site) {
  const SemaValue &x = site.bound[0];
  if (x.is(SemaValue::Kind::Tuple))
    return SemaValue::integer(IntExpr(int64_t(x.elements().size())));
  if (x.is(SemaValue::Kind::String))
    return SemaValue::integer(IntExpr(int64_t(x.name().size())));
  return error(site.boundExpr(0, "x"), "len takes a tuple or a string, not " + x.describe() +
                                           "; size(x) counts the elements of a layout or tensor, "
                                           "rank(x) its modes");
}

} // namespace cutec
