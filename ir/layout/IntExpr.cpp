//===- IntExpr.cpp - Static or symbolic integers for layout leaves --------===//
#include "ir/layout/IntExpr.h"

#include <algorithm>

namespace cutec {

using Kind = IntExpr::Kind;

static thread_local bool overflowFlag = false;

void IntExpr::clearOverflow() { overflowFlag = false; }
bool IntExpr::overflowed() { return overflowFlag; }

static int64_t add(int64_t a, int64_t b) {
  int64_t r;
  overflowFlag |= __builtin_add_overflow(a, b, &r);
  return r;
}

static int64_t mul(int64_t a, int64_t b) {
  int64_t r;
  overflowFlag |= __builtin_mul_overflow(a, b, &r);
  return r;
}

/// a / b and a % b rounding toward zero; b == 0 gives 0 (callers check for
/// zero divisors first) and INT64_MIN / -1 wraps.
static int64_t quotient(int64_t a, int64_t b) {
  if (b == 0)
    return 0;
  if (b == -1)
    return mul(a, -1);
  return a / b;
}

static int64_t remainder(int64_t a, int64_t b) { return b == 0 || b == -1 ? 0 : a % b; }

IntExpr IntExpr::symbol(llvm::StringRef name) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Symbol;
  node->name = name.str();
  return IntExpr(std::move(node));
}

Kind IntExpr::kind() const { return node ? node->kind : Kind::Const; }

int IntExpr::compare(const IntExpr &other) const {
  if (kind() != other.kind())
    return kind() < other.kind() ? -1 : 1;
  if (isStatic())
    return value == other.value ? 0 : (value < other.value ? -1 : 1);
  const Node &a = *node, &b = *other.node;
  if (int c = a.name.compare(b.name))
    return c < 0 ? -1 : 1;
  if (a.coeff != b.coeff)
    return a.coeff < b.coeff ? -1 : 1;
  if (a.operands.size() != b.operands.size())
    return a.operands.size() < b.operands.size() ? -1 : 1;
  for (size_t i = 0; i < a.operands.size(); ++i)
    if (int c = a.operands[i].compare(b.operands[i]))
      return c;
  return 0;
}

bool IntExpr::operator==(const IntExpr &other) const {
  if (node == other.node)
    return value == other.value;
  return compare(other) == 0;
}

// Nested operands of the same kind are flattened, static operands fold into
// the coefficient, and the rest are sorted, so that equal sums and products
// have exactly one representation.
IntExpr IntExpr::makeVariadic(Kind kind, std::vector<IntExpr> operands, int64_t coeff) {
  bool isMul = kind == Kind::Mul;
  std::vector<IntExpr> flat;
  for (IntExpr &op : operands) {
    if (op.isStatic()) {
      coeff = isMul ? mul(coeff, op.value) : add(coeff, op.value);
      continue;
    }
    if (op.kind() == kind) {
      coeff = isMul ? mul(coeff, op.node->coeff) : add(coeff, op.node->coeff);
      flat.insert(flat.end(), op.node->operands.begin(), op.node->operands.end());
      continue;
    }
    flat.push_back(std::move(op));
  }
  if (isMul && coeff == 0)
    return IntExpr(0);
  if (flat.empty())
    return IntExpr(coeff);
  if (flat.size() == 1 && coeff == (isMul ? 1 : 0))
    return flat.front();
  std::sort(flat.begin(), flat.end(),
            [](const IntExpr &x, const IntExpr &y) { return x.compare(y) < 0; });
  auto node = std::make_shared<Node>();
  node->kind = kind;
  node->coeff = coeff;
  node->operands = std::move(flat);
  return IntExpr(std::move(node));
}

IntExpr IntExpr::makeBinary(Kind kind, IntExpr lhs, IntExpr rhs) {
  auto node = std::make_shared<Node>();
  node->kind = kind;
  node->operands = {std::move(lhs), std::move(rhs)};
  return IntExpr(std::move(node));
}

IntExpr operator+(const IntExpr &a, const IntExpr &b) {
  if (a.isStatic() && b.isStatic())
    return IntExpr(add(a.staticValue(), b.staticValue()));
  return IntExpr::makeVariadic(Kind::Add, {a, b}, 0);
}

IntExpr operator-(const IntExpr &a, const IntExpr &b) { return a + IntExpr(-1) * b; }

IntExpr operator*(const IntExpr &a, const IntExpr &b) {
  if (a.isStatic() && b.isStatic())
    return IntExpr(mul(a.staticValue(), b.staticValue()));
  return IntExpr::makeVariadic(Kind::Mul, {a, b}, 1);
}

// If `a` is a product that `b` divides exactly (a static divisor of its
// coefficient, or one of its dynamic factors), returns the quotient.
static std::optional<IntExpr> divideExactly(const IntExpr &a, const IntExpr &b) {
  if (b.isConstant(1))
    return a;
  if (a == b)
    return IntExpr(1);
  if (a.isStatic() || a.kind() != Kind::Mul)
    return std::nullopt;
  const IntExpr::Node &mul = *a.dynamicNode();
  if (b.isStatic()) {
    if (b.staticValue() == 0 || mul.coeff % b.staticValue() != 0)
      return std::nullopt;
    return IntExpr::makeVariadic(Kind::Mul, mul.operands, mul.coeff / b.staticValue());
  }
  std::vector<IntExpr> rest = mul.operands;
  auto it = std::find(rest.begin(), rest.end(), b);
  if (it == rest.end())
    return std::nullopt;
  rest.erase(it);
  return IntExpr::makeVariadic(Kind::Mul, std::move(rest), mul.coeff);
}

IntExpr operator/(const IntExpr &a, const IntExpr &b) {
  if (a.isStatic() && b.isStatic())
    return IntExpr(quotient(a.staticValue(), b.staticValue()));
  if (a.isConstant(0))
    return IntExpr(0);
  if (auto q = divideExactly(a, b))
    return *q;
  return IntExpr::makeBinary(Kind::Div, a, b);
}

IntExpr ceilDiv(const IntExpr &a, const IntExpr &b) {
  if (a.isStatic() && b.isStatic()) {
    int64_t x = a.staticValue(), y = b.staticValue();
    return IntExpr(quotient(add(x, add(y, -1)), y));
  }
  if (auto q = divideExactly(a, b))
    return *q;
  return IntExpr::makeBinary(Kind::CeilDiv, a, b);
}

IntExpr operator%(const IntExpr &a, const IntExpr &b) {
  if (a.isStatic() && b.isStatic())
    return IntExpr(remainder(a.staticValue(), b.staticValue()));
  if (b.isConstant(1) || divideExactly(a, b))
    return IntExpr(0);
  return IntExpr::makeBinary(Kind::Mod, a, b);
}

// A static lower bound of `e`, from the sizes being at least 1 (as the
// dynamic forms assume); nullopt where none is simple to see.
static std::optional<int64_t> lowerBound(const IntExpr &e) {
  if (e.isStatic())
    return e.staticValue();
  const IntExpr::Node &n = *e.dynamicNode();
  switch (n.kind) {
  case Kind::Symbol:
    return 1;
  case Kind::CeilDiv: {
    std::optional<int64_t> x = lowerBound(n.operands[0]);
    std::optional<int64_t> d = n.operands[1].getStatic();
    if (x && d && *x >= 1 && *d >= 1)
      return (*x + *d - 1) / *d;
    return std::nullopt;
  }
  case Kind::Mul: {
    if (n.coeff < 0)
      return std::nullopt;
    int64_t bound = n.coeff;
    for (const IntExpr &f : n.operands) {
      std::optional<int64_t> b = lowerBound(f);
      if (!b || *b < 0 || __builtin_mul_overflow(bound, *b, &bound))
        return std::nullopt;
    }
    return bound;
  }
  case Kind::Min: {
    std::optional<int64_t> x = lowerBound(n.operands[0]), y = lowerBound(n.operands[1]);
    if (x && y)
      return std::min(*x, *y);
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

// Whether b >= a is plain: b = c * ceil_div(a, c), or a static a at most
// b's lower bound.
static bool atLeast(const IntExpr &b, const IntExpr &a) {
  if (a.isStatic()) {
    std::optional<int64_t> bound = lowerBound(b);
    return bound && *bound >= a.staticValue();
  }
  if (b.isStatic() || b.kind() != Kind::Mul)
    return false;
  const IntExpr::Node &mul = *b.dynamicNode();
  if (mul.operands.size() != 1 || mul.operands[0].kind() != Kind::CeilDiv)
    return false;
  const IntExpr::Node &ceil = *mul.operands[0].dynamicNode();
  return ceil.operands[0] == a && ceil.operands[1].isConstant(mul.coeff) && mul.coeff >= 1;
}

IntExpr min(const IntExpr &a, const IntExpr &b) {
  if (a.isStatic() && b.isStatic())
    return IntExpr(std::min(a.staticValue(), b.staticValue()));
  if (a == b)
    return a;
  if (atLeast(b, a))
    return a;
  if (atLeast(a, b))
    return b;
  return a.compare(b) < 0 ? IntExpr::makeBinary(Kind::Min, a, b)
                          : IntExpr::makeBinary(Kind::Min, b, a);
}

static bool needsParens(const IntExpr &e) {
  return e.kind() == Kind::Add || e.kind() == Kind::Div || e.kind() == Kind::Mod ||
         e.kind() == Kind::Mul;
}

static std::string operandStr(const IntExpr &e) {
  return needsParens(e) ? "(" + e.str() + ")" : e.str();
}

std::string IntExpr::str() const {
  if (isStatic())
    return std::to_string(value);
  const Node &n = *node;
  switch (n.kind) {
  case Kind::Const:
    break;
  case Kind::Symbol:
    return n.name;
  case Kind::Mul: {
    std::string s = n.coeff == 1 ? "" : (n.coeff == -1 ? "-" : std::to_string(n.coeff) + "*");
    for (size_t i = 0; i < n.operands.size(); ++i) {
      const IntExpr &op = n.operands[i];
      bool paren = op.kind() == Kind::Add || op.kind() == Kind::Div || op.kind() == Kind::Mod;
      s += (i ? "*" : "") + (paren ? "(" + op.str() + ")" : op.str());
    }
    return s;
  }
  case Kind::Add: {
    std::string s;
    for (const IntExpr &op : n.operands) {
      std::string term = op.str();
      s += s.empty() || term.front() == '-' ? term : "+" + term;
    }
    if (n.coeff > 0)
      s += "+" + std::to_string(n.coeff);
    else if (n.coeff < 0)
      s += std::to_string(n.coeff);
    return s;
  }
  case Kind::Div:
    return operandStr(n.operands[0]) + "/" + operandStr(n.operands[1]);
  case Kind::Mod:
    return operandStr(n.operands[0]) + "%" + operandStr(n.operands[1]);
  case Kind::CeilDiv:
    return "ceil_div(" + n.operands[0].str() + "," + n.operands[1].str() + ")";
  case Kind::Min:
    return "min(" + n.operands[0].str() + "," + n.operands[1].str() + ")";
  }
  return "?";
}

std::optional<int64_t> IntExpr::evaluate(const llvm::StringMap<int64_t> &symbols) const {
  if (isStatic())
    return value;
  const Node &n = *node;
  if (n.kind == Kind::Symbol) {
    auto it = symbols.find(n.name);
    return it == symbols.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  std::vector<int64_t> ops;
  for (const IntExpr &op : n.operands) {
    auto v = op.evaluate(symbols);
    if (!v)
      return std::nullopt;
    ops.push_back(*v);
  }
  int64_t acc = n.coeff;
  switch (n.kind) {
  case Kind::Add:
    for (int64_t v : ops)
      acc = add(acc, v);
    return acc;
  case Kind::Mul:
    for (int64_t v : ops)
      acc = mul(acc, v);
    return acc;
  case Kind::Min:
    return std::min(ops[0], ops[1]);
  default:
    break;
  }
  if (ops[1] == 0)
    return std::nullopt;
  if (n.kind == Kind::Div)
    return quotient(ops[0], ops[1]);
  if (n.kind == Kind::Mod)
    return remainder(ops[0], ops[1]);
  return quotient(add(ops[0], add(ops[1], -1)), ops[1]);
}

void IntExpr::collectSymbols(std::vector<std::string> &names) const {
  if (isStatic())
    return;
  if (node->kind == Kind::Symbol) {
    auto it = std::lower_bound(names.begin(), names.end(), node->name);
    if (it == names.end() || *it != node->name)
      names.insert(it, node->name);
    return;
  }
  for (const IntExpr &op : node->operands)
    op.collectSymbols(names);
}

} // namespace cutec
