//===- IntExpr.h - Static or symbolic integers for layout leaves ----------===//
//
// A layout leaf is either a static integer or a dynamic value known only at
// run time, such as the problem size M or ceil_div(K,64). IntExpr keeps both in
// one value type: static parts fold eagerly, dynamic parts stay symbolic in a
// canonical form so that equal expressions compare equal structurally. This is
// what lets tile_to_shape over (M,K,L) keep its static strides static and print
// dynamic ones by name.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_LAYOUT_INTEXPR_H
#define CUTEC_IR_LAYOUT_INTEXPR_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cutec {

class IntExpr {
public:
  struct Node;
  enum class Kind { Const, Symbol, Add, Mul, Div, CeilDiv, Mod, Min };

  IntExpr(int64_t value = 0) : value(value) {}
  static IntExpr symbol(llvm::StringRef name);

  bool isStatic() const { return !node; }
  /// The static value; only meaningful when isStatic().
  int64_t staticValue() const { return value; }
  std::optional<int64_t> getStatic() const {
    return isStatic() ? std::optional<int64_t>(value) : std::nullopt;
  }
  bool isConstant(int64_t v) const { return isStatic() && value == v; }
  Kind kind() const;
  /// The operands of a dynamic expression; null when static.
  const Node *dynamicNode() const { return node.get(); }

  /// Structural equality of canonical forms.
  bool operator==(const IntExpr &other) const;
  bool operator!=(const IntExpr &other) const { return !(*this == other); }
  /// A total order (for canonical operand order and deterministic output).
  int compare(const IntExpr &other) const;

  std::string str() const;

  /// Evaluates with the given symbol values; nullopt if a symbol is unbound
  /// or a division by zero occurs.
  std::optional<int64_t> evaluate(const llvm::StringMap<int64_t> &symbols) const;
  /// Appends the names of the symbols used, without duplicates, sorted.
  void collectSymbols(std::vector<std::string> &names) const;

  /// Static arithmetic that overflows 64 bits wraps (two's complement) and
  /// sets a per-thread flag instead of being undefined; whoever evaluates
  /// user input clears it first and reports an error if it is set after.
  static void clearOverflow();
  static bool overflowed();

  // Arithmetic with eager folding. Division rounds towards zero like CuTe's
  // integer division; the dynamic forms assume the operands are positive.
  friend IntExpr operator+(const IntExpr &a, const IntExpr &b);
  friend IntExpr operator-(const IntExpr &a, const IntExpr &b);
  friend IntExpr operator*(const IntExpr &a, const IntExpr &b);
  friend IntExpr operator/(const IntExpr &a, const IntExpr &b);
  friend IntExpr operator%(const IntExpr &a, const IntExpr &b);
  friend IntExpr ceilDiv(const IntExpr &a, const IntExpr &b);
  friend IntExpr min(const IntExpr &a, const IntExpr &b);

  struct Node;

  /// Canonical sum or product of operands plus a constant term or factor.
  static IntExpr makeVariadic(Kind kind, std::vector<IntExpr> operands, int64_t coeff);
  /// A binary node (Div, CeilDiv, Mod, Min) with no further folding.
  static IntExpr makeBinary(Kind kind, IntExpr lhs, IntExpr rhs);

private:
  explicit IntExpr(std::shared_ptr<const Node> node) : node(std::move(node)) {}

  int64_t value = 0;
  std::shared_ptr<const Node> node;
};

/// The operands of a dynamic expression (empty for constants and symbols).
struct IntExpr::Node {
  Kind kind;
  std::string name;              // Symbol
  int64_t coeff = 1;             // Mul: constant factor; Add: constant term
  std::vector<IntExpr> operands; // canonical order for Add and Mul
};

} // namespace cutec

#endif
