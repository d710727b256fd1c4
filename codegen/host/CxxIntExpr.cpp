//===- CxxIntExpr.cpp - Symbolic sizes as C++ expressions -----------------===//
#include "codegen/host/CxxIntExpr.h"

namespace cutec::host {
namespace {

using Kind = IntExpr::Kind;

/// The name of the lambda that computes a binary IntExpr node.
const char *helperName(Kind kind) {
  switch (kind) {
  case Kind::Div:
    return "div";
  case Kind::Mod:
    return "mod";
  case Kind::CeilDiv:
    return "ceil_div";
  default:
    return "min";
  }
}

const char *helperDefinition(Kind kind) {
  switch (kind) {
  case Kind::Div:
    return "auto div = [](uint64_t a, uint64_t b) -> uint64_t { return b ? a / b : 0; };";
  case Kind::Mod:
    return "auto mod = [](uint64_t a, uint64_t b) -> uint64_t { return b ? a % b : 0; };";
  case Kind::CeilDiv:
    return "auto ceil_div = [](uint64_t a, uint64_t b) -> uint64_t { return b ? (a + b - 1) / b "
           ": 0; };";
  default:
    return "auto min = [](uint64_t a, uint64_t b) { return a < b ? a : b; };";
  }
}

std::string literal(int64_t v) {
  return v < 0 ? "uint64_t(" + std::to_string(v) + ")" : std::to_string(v);
}

std::string variadic(const IntExpr::Node &n, const std::vector<std::string> &operands) {
  bool isMul = n.kind == Kind::Mul;
  std::string s = isMul && n.coeff != 1 ? literal(n.coeff) + " * " : "";
  for (size_t i = 0; i < operands.size(); ++i)
    s += (i ? (isMul ? " * " : " + ") : "") + operands[i];
  if (!isMul && n.coeff > 0)
    s += " + " + std::to_string(n.coeff);
  else if (!isMul && n.coeff < 0)
    s += " - " + std::to_string(0 - uint64_t(n.coeff));
  return "(" + s + ")";
}

} // namespace

CxxIntExpr::CxxIntExpr(std::string what, const llvm::StringSet<> &sizes,
                       std::function<std::string(llvm::StringRef)> read)
    : what(std::move(what)), sizes(sizes), read(std::move(read)) {}

llvm::Expected<std::string> CxxIntExpr::print(const IntExpr &e) {
  if (e.isStatic())
    return literal(e.staticValue());
  const IntExpr::Node &n = *e.dynamicNode();
  if (n.kind == Kind::Symbol) {
    if (!sizes.contains(n.name))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     what + " uses '" + n.name +
                                         "', which is not one of its dynamic sizes");
    return read(n.name);
  }
  std::vector<std::string> operands;
  for (const IntExpr &operand : n.operands) {
    auto text = print(operand);
    if (!text)
      return text.takeError();
    operands.push_back(std::move(*text));
  }
  if (n.kind == Kind::Mul || n.kind == Kind::Add)
    return variadic(n, operands);
  used.insert(n.kind);
  return std::string(helperName(n.kind)) + "(" + operands[0] + ", " + operands[1] + ")";
}

std::string CxxIntExpr::helperDefinitions(llvm::StringRef indent) const {
  std::string s;
  for (Kind kind : used)
    s += indent.str() + helperDefinition(kind) + "\n";
  return s;
}

} // namespace cutec::host
