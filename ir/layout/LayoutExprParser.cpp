//===- LayoutExprParser.cpp - Parse and evaluate layout expressions -------===//
//
// A recursive-descent parser that evaluates as it goes. Precedence, lowest
// first: `o` (swizzle composition), `:` (shape:stride), `+ -`, `* / %`.
// A parenthesised single leaf used in arithmetic, as in (M+1)*K, is a
// grouping, not a rank-1 tuple.
//
//===----------------------------------------------------------------------===//
#include "ir/layout/LayoutExprParser.h"

#include "llvm/ADT/StringExtras.h"

namespace cutec {
namespace {

constexpr int kMaxNesting = 200;

class Parser {
public:
  explicit Parser(llvm::StringRef text) : text(text) {}

  LayoutExprResult run() {
    LayoutExprResult result;
    auto value = parseComposed();
    if (value && pos < text.size())
      value = fail("unexpected '" + std::string(1, text[pos]) + "' after the expression");
    if (!value) {
      result.error = error;
      result.errorOffset = errorPos;
      return result;
    }
    result.value = std::move(*value);
    return result;
  }

private:
  using Value = std::optional<LayoutValue>;

  Value fail(const std::string &message, std::optional<size_t> at = std::nullopt) {
    if (error.empty()) {
      error = message;
      errorPos = std::min(at.value_or(pos), text.size());
    }
    return std::nullopt;
  }

  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }

  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  char peek() {
    skipSpace();
    return pos < text.size() ? text[pos] : '\0';
  }

  bool expect(char c, llvm::StringRef context) {
    if (consume(c))
      return true;
    char found = peek();
    fail(std::string("expected '") + c + "' " + context.str() + ", found " +
         (found ? "'" + std::string(1, found) + "'" : std::string("end of input")));
    return false;
  }

  static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
  static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

  llvm::StringRef peekIdentifier() {
    skipSpace();
    size_t end = pos;
    if (end < text.size() && isIdentStart(text[end]))
      while (end < text.size() && isIdentChar(text[end]))
        ++end;
    return text.slice(pos, end);
  }

  struct DepthGuard {
    int &depth;
    explicit DepthGuard(int &d) : depth(++d) {}
    ~DepthGuard() { --depth; }
  };

  // composed := layout ('o' layout)*  -- S<B,M,S> o offset o layout
  Value parseComposed() {
    size_t start = pos;
    Value lhs = parseLayout();
    if (!lhs || peekIdentifier() != "o")
      return lhs;
    const Swizzle *sw = lhs->get<Swizzle>();
    if (!sw)
      return fail("only a swizzle can be composed with 'o' here", start);
    std::vector<LayoutValue> parts;
    while (peekIdentifier() == "o") {
      pos += 1;
      Value part = parseLayout();
      if (!part)
        return std::nullopt;
      parts.push_back(std::move(*part));
    }
    size_t partsEnd = pos;
    const IntTuple *offset = parts.size() == 2 ? parts[0].get<IntTuple>() : nullptr;
    const Layout *layout = parts.back().get<Layout>();
    if (parts.size() > 2 || (parts.size() == 2 && (!offset || !offset->isLeaf())) || !layout)
      return fail("expected 'S<B,M,S> o OFFSET o LAYOUT' or 'S<B,M,S> o LAYOUT'", partsEnd);
    return LayoutValue(ComposedLayout{*sw, offset ? offset->leaf() : IntExpr(0), *layout});
  }

  // layout := sum (':' sum)?
  Value parseLayout() {
    size_t start = pos;
    Value shape = parseSum();
    if (!shape || !consume(':'))
      return shape;
    size_t strideStart = pos;
    Value stride = parseSum();
    if (!stride)
      return std::nullopt;
    const IntTuple *s = shape->get<IntTuple>(), *d = stride->get<IntTuple>();
    if (!s)
      return fail("the shape of a layout must be an integer or a tuple", start);
    if (!d)
      return fail("the stride of a layout must be an integer or a tuple", strideStart);
    if (!checkShape(*s, start))
      return std::nullopt;
    auto layout = makeLayout(*s, *d);
    if (!layout)
      return fail(llvm::toString(layout.takeError()), start);
    return LayoutValue(*layout);
  }

  bool checkShape(const IntTuple &shape, size_t at) {
    std::vector<IntTuple> leaves;
    flattenInto(shape, leaves);
    for (const IntTuple &l : leaves) {
      if (l.isUnderscore() || (l.leaf().isStatic() && l.leaf().staticValue() <= 0)) {
        fail("shape extents must be positive integers or names, found " + l.str(), at);
        return false;
      }
    }
    return true;
  }

  /// The leaf an arithmetic operand stands for: an integer, a name, or a
  /// parenthesised single leaf.
  std::optional<IntExpr> arithmeticLeaf(const LayoutValue &v, size_t at) {
    const IntTuple *t = v.get<IntTuple>();
    if (t && t->isTuple() && t->rank() == 1)
      t = &(*t)[0];
    if (!t || !t->isLeaf() || t->isUnderscore()) {
      fail("arithmetic needs integers, not the " + v.kindName() + " " + v.str(), at);
      return std::nullopt;
    }
    return t->leaf();
  }

  // sum := product (('+'|'-') product)*
  Value parseSum() {
    size_t start = pos;
    Value lhs = parseProduct();
    while (lhs && (peek() == '+' || peek() == '-')) {
      char op = text[pos++];
      size_t rhsStart = pos;
      Value rhs = parseProduct();
      if (!rhs)
        return std::nullopt;
      auto a = arithmeticLeaf(*lhs, start), b = arithmeticLeaf(*rhs, rhsStart);
      if (!a || !b)
        return std::nullopt;
      lhs = LayoutValue(IntTuple(op == '+' ? *a + *b : *a - *b));
    }
    return lhs;
  }

  // product := unary (('*'|'/'|'%') unary)*
  Value parseProduct() {
    size_t start = pos;
    Value lhs = parseUnary();
    while (lhs && (peek() == '*' || peek() == '/' || peek() == '%')) {
      char op = text[pos++];
      size_t rhsStart = pos;
      Value rhs = parseUnary();
      if (!rhs)
        return std::nullopt;
      auto a = arithmeticLeaf(*lhs, start), b = arithmeticLeaf(*rhs, rhsStart);
      if (!a || !b)
        return std::nullopt;
      if (op != '*' && b->isConstant(0))
        return fail("division by zero", rhsStart);
      IntExpr r = op == '*' ? *a * *b : (op == '/' ? *a / *b : *a % *b);
      lhs = LayoutValue(IntTuple(r));
    }
    return lhs;
  }

  Value parseUnary() {
    if (consume('-')) {
      size_t start = pos;
      Value v = parseUnary();
      if (!v)
        return std::nullopt;
      auto leaf = arithmeticLeaf(*v, start);
      if (!leaf)
        return std::nullopt;
      return LayoutValue(IntTuple(IntExpr(0) - *leaf));
    }
    return parsePrimary();
  }

  Value parseInteger() {
    size_t start = pos;
    int64_t value = 0;
    while (pos < text.size() && llvm::isDigit(text[pos])) {
      if (value > (INT64_MAX - 9) / 10)
        return fail("integer literal is too large", start);
      value = value * 10 + (text[pos++] - '0');
    }
    return LayoutValue(IntTuple(value));
  }

  // A list of expressions up to `close`; an empty list is allowed.
  std::optional<std::vector<LayoutValue>> parseList(char close, llvm::StringRef what) {
    std::vector<LayoutValue> items;
    if (consume(close))
      return items;
    do {
      Value item = parseComposed();
      if (!item)
        return std::nullopt;
      items.push_back(std::move(*item));
    } while (consume(','));
    if (!expect(close, "to close the " + what.str()))
      return std::nullopt;
    return items;
  }

  Value parseTuple(size_t start) {
    auto items = parseList(')', "tuple");
    if (!items)
      return std::nullopt;
    std::vector<IntTuple> elements;
    for (const LayoutValue &v : *items) {
      const IntTuple *t = v.get<IntTuple>();
      if (!t)
        return fail("a tuple holds integers and tuples, not the " + v.kindName() + " " + v.str(),
                    start);
      elements.push_back(*t);
    }
    return LayoutValue(IntTuple::tuple(std::move(elements)));
  }

  Value parseTiler(size_t start) {
    auto items = parseList(']', "by-mode tiler");
    if (!items)
      return std::nullopt;
    std::vector<Tiler> modes;
    for (size_t i = 0; i < items->size(); ++i) {
      const LayoutValue &v = (*items)[i];
      if (const Tiler *t = v.get<Tiler>())
        modes.push_back(*t);
      else if (const Layout *l = v.get<Layout>())
        modes.push_back(Tiler::of(*l));
      else if (const IntTuple *t = v.get<IntTuple>())
        modes.push_back(Tiler::fromShape(*t));
      else
        return fail("a tiler holds layouts, shapes and `_`, not the " + v.kindName(), start);
    }
    return LayoutValue(Tiler::byMode(std::move(modes)));
  }

  Value parseSwizzleLiteral(size_t start) {
    int64_t params[3];
    for (int i = 0; i < 3; ++i) {
      bool negative = consume('-');
      skipSpace();
      if (pos >= text.size() || !llvm::isDigit(text[pos]))
        return fail("expected an integer in S<B,M,S>");
      Value v = parseInteger();
      if (!v)
        return std::nullopt;
      params[i] = v->get<IntTuple>()->leaf().staticValue() * (negative ? -1 : 1);
      if (!expect(i < 2 ? ',' : '>', "in S<B,M,S>"))
        return std::nullopt;
    }
    auto sw = Swizzle::make(params[0], params[1], params[2]);
    if (!sw)
      return fail(llvm::toString(sw.takeError()), start);
    return LayoutValue(*sw);
  }

  Value parseCall(llvm::StringRef name, size_t start) {
    auto args = parseList(')', "argument list of " + name.str());
    if (!args)
      return std::nullopt;
    auto result = callLayoutFunction(name, *args);
    if (!result)
      return fail(llvm::toString(result.takeError()), start);
    return std::move(*result);
  }

  Value parsePrimary() {
    DepthGuard guard(depth);
    if (depth > kMaxNesting)
      return fail("expression is nested too deeply");
    skipSpace();
    size_t start = pos;
    if (pos >= text.size())
      return fail("expected an expression, found end of input");
    char c = text[pos];
    if (llvm::isDigit(c))
      return parseInteger();
    if (consume('('))
      return parseTuple(start);
    if (consume('['))
      return parseTiler(start);
    llvm::StringRef name = peekIdentifier();
    if (name.empty())
      return fail("expected an expression, found '" + std::string(1, c) + "'");
    pos += name.size();
    if (name == "_")
      return LayoutValue(IntTuple::underscore());
    if ((name == "S" || name == "Sw") && consume('<'))
      return parseSwizzleLiteral(start);
    if (consume('(')) {
      if (!isLayoutFunction(name))
        return fail("unknown function '" + name.str() + "'", start);
      return parseCall(name, start);
    }
    return LayoutValue(IntTuple(IntExpr::symbol(name)));
  }

  llvm::StringRef text;
  size_t pos = 0;
  int depth = 0;
  std::string error;
  size_t errorPos = 0;
};

} // namespace

LayoutExprResult evaluateLayoutExpr(llvm::StringRef text) {
  IntExpr::clearOverflow();
  LayoutExprResult result = Parser(text).run();
  if (result.value && IntExpr::overflowed()) {
    result.value.reset();
    result.error = "integer overflow: a value exceeds 64 bits";
    result.errorOffset = 0;
  }
  return result;
}

} // namespace cutec
