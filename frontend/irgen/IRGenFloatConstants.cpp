//===- IRGenFloatConstants.cpp - float('inf'), math.inf, math.nan ---------===//
//
// Python's spellings of the special float values, all compile-time floats:
// `float(x)` of a number or of a string ('inf', '-inf', 'nan', '1e-3'), and
// the constants of Python's math module, which kernels use without an
// import (docs/language.md "Scalars and types").
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <numbers>

namespace cutec {

std::optional<double> mathConstant(llvm::StringRef spelling) {
  static const std::pair<llvm::StringRef, double> kConstants[] = {{"math.inf", INFINITY},
                                                                  {"math.nan", NAN},
                                                                  {"math.pi", std::numbers::pi},
                                                                  {"math.e", std::numbers::e}};
  for (const auto &[name, value] : kConstants)
    if (name == spelling)
      return value;
  return std::nullopt;
}

/// Python's float() of a string: surrounding whitespace ignored, an optional
/// sign, then 'inf', 'infinity' or 'nan' in any case, or a decimal number
/// (one too large for a double is inf, as in Python).
static std::optional<double> parsePythonFloat(llvm::StringRef text) {
  text = text.trim();
  bool negative = text.starts_with("-");
  llvm::StringRef magnitude = text.drop_front(negative || text.starts_with("+"));
  double sign = negative ? -1.0 : 1.0;
  if (magnitude.equals_insensitive("inf") || magnitude.equals_insensitive("infinity"))
    return sign * INFINITY;
  if (magnitude.equals_insensitive("nan"))
    return std::copysign(NAN, sign);
  // A decimal number (APFloat would also read C's hexadecimal floats).
  if (magnitude.empty() || !(llvm::isDigit(magnitude[0]) || magnitude[0] == '.') ||
      magnitude.starts_with_insensitive("0x"))
    return std::nullopt;
  llvm::APFloat value(llvm::APFloat::IEEEdouble());
  auto status = value.convertFromString(magnitude, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    return std::nullopt;
  }
  return sign * value.convertToDouble();
}

SemaValue IRGenBuiltins::callFloat(CallSite &site) {
  const SemaValue &x = site.bound[0];
  const ast::Expr &expr = site.boundExpr(0, "x");
  if (x.is(SemaValue::Kind::Float))
    return x;
  if (x.is(SemaValue::Kind::Int) && x.intValue().isStatic())
    return SemaValue::floating(double(x.intValue().staticValue()));
  if (x.is(SemaValue::Kind::Bool))
    return SemaValue::floating(x.boolValue() ? 1.0 : 0.0);
  if (x.is(SemaValue::Kind::String)) {
    if (std::optional<double> value = parsePythonFloat(x.name()))
      return SemaValue::floating(*value);
    return error(expr, "could not convert string to float: '" + x.name() +
                           "' (float() takes a number or 'inf', '-inf', 'nan')");
  }
  return error(expr, "float() makes a compile-time float of a number or a string such as "
                     "'inf', not of " +
                         x.describe() + "; convert a run-time value with f32(x)");
}

} // namespace cutec
