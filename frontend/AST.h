// AST: the syntax tree the parser builds for a .cute file.
//
// The tree is purely syntactic: names, types and layouts are resolved later
// by semantic analysis. Every node carries the source range it was parsed
// from (begin = where the construct starts, used for line:col; the range is
// half-open, for carets and underlines). Nodes use LLVM-style RTTI: a kind
// per concrete class and `classof`, so passes write
// `if (auto *call = llvm::dyn_cast<CallExpr>(expr))`.
//
// The parser bounds nesting (see Parser.h), so recursive walks over the tree,
// including its destructor, stay within a small stack.
#ifndef CUTEC_FRONTEND_AST_H
#define CUTEC_FRONTEND_AST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cutec::ast {

enum class NodeKind {
  // Expressions.
  Name,
  IntegerLiteral,
  FloatLiteral,
  StringLiteral,
  BoolLiteral,
  NoneLiteral,
  Paren,
  Tuple,
  List,
  Unary,
  Binary,
  Layout,
  Conditional,
  Call,
  Subscript,
  Attribute,
  // Statements.
  Assign,
  AugAssign,
  ExprStmt,
  Pass,
  Break,
  Continue,
  Return,
  If,
  For,
  While,
  FunctionDef,
  // Neither.
  Param,
  Module,
};

/// The class name of a kind ("Call", "FunctionDef"), as the AST dump prints it.
llvm::StringRef getNodeKindName(NodeKind kind);

class Node {
public:
  virtual ~Node() = default;
  Node(const Node &) = delete;
  Node &operator=(const Node &) = delete;

  NodeKind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return range.Start; }
  llvm::SMRange getRange() const { return range; }

protected:
  Node(NodeKind kind, llvm::SMRange range) : kind(kind), range(range) {}

private:
  const NodeKind kind;
  const llvm::SMRange range;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class Expr : public Node {
public:
  static bool classof(const Node *node) {
    return node->getKind() >= NodeKind::Name && node->getKind() <= NodeKind::Attribute;
  }

protected:
  using Node::Node;
};
using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

/// An identifier. `_` (the wildcard mode) is an ordinary name here.
class NameExpr : public Expr {
public:
  NameExpr(llvm::SMRange range, std::string name)
      : Expr(NodeKind::Name, range), name(std::move(name)) {}
  llvm::StringRef getName() const { return name; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Name; }

private:
  std::string name;
};

class IntegerLiteralExpr : public Expr {
public:
  IntegerLiteralExpr(llvm::SMRange range, uint64_t value)
      : Expr(NodeKind::IntegerLiteral, range), value(value) {}
  uint64_t getValue() const { return value; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::IntegerLiteral; }

private:
  uint64_t value;
};

class FloatLiteralExpr : public Expr {
public:
  FloatLiteralExpr(llvm::SMRange range, double value)
      : Expr(NodeKind::FloatLiteral, range), value(value) {}
  double getValue() const { return value; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::FloatLiteral; }

private:
  double value;
};

/// A string literal with its escapes decoded. Adjacent literals are not
/// concatenated.
class StringLiteralExpr : public Expr {
public:
  StringLiteralExpr(llvm::SMRange range, std::string value)
      : Expr(NodeKind::StringLiteral, range), value(std::move(value)) {}
  llvm::StringRef getValue() const { return value; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::StringLiteral; }

private:
  std::string value;
};

class BoolLiteralExpr : public Expr {
public:
  BoolLiteralExpr(llvm::SMRange range, bool value)
      : Expr(NodeKind::BoolLiteral, range), value(value) {}
  bool getValue() const { return value; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::BoolLiteral; }

private:
  bool value;
};

/// `None`.
class NoneLiteralExpr : public Expr {
public:
  explicit NoneLiteralExpr(llvm::SMRange range) : Expr(NodeKind::NoneLiteral, range) {}
  static bool classof(const Node *node) { return node->getKind() == NodeKind::NoneLiteral; }
};

/// `(expr)`. Kept in the tree because CuTe's printed notation gives
/// parentheses meaning in a layout: `((16,4)):((0,1))` is a rank-1 layout whose
/// one mode is (16,4), unlike `(16,4):(0,1)`. Elsewhere it is transparent.
class ParenExpr : public Expr {
public:
  ParenExpr(llvm::SMRange range, ExprPtr inner)
      : Expr(NodeKind::Paren, range), inner(std::move(inner)) {}
  const Expr &getInner() const { return *inner; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Paren; }

private:
  ExprPtr inner;
};

/// `(a, b)`, `(a,)`, `()`, or a bare `a, b` (assignment sides, return values,
/// for targets).
class TupleExpr : public Expr {
public:
  TupleExpr(llvm::SMRange range, ExprList elements)
      : Expr(NodeKind::Tuple, range), elements(std::move(elements)) {}
  const ExprList &getElements() const { return elements; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Tuple; }

private:
  ExprList elements;
};

/// `[a, b]`.
class ListExpr : public Expr {
public:
  ListExpr(llvm::SMRange range, ExprList elements)
      : Expr(NodeKind::List, range), elements(std::move(elements)) {}
  const ExprList &getElements() const { return elements; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::List; }

private:
  ExprList elements;
};

/// `Unpack` is `*t` among the elements of a tuple display, `(*t, 1)`.
enum class UnaryOp { Negate, Plus, Not, Invert, Unpack };
llvm::StringRef getSpelling(UnaryOp op);

class UnaryExpr : public Expr {
public:
  UnaryExpr(llvm::SMRange range, UnaryOp op, ExprPtr operand)
      : Expr(NodeKind::Unary, range), op(op), operand(std::move(operand)) {}
  UnaryOp getOp() const { return op; }
  /// The operator is the first token of the expression.
  llvm::SMLoc getOpLoc() const { return getLoc(); }
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Unary; }

private:
  UnaryOp op;
  ExprPtr operand;
};

enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
  BitAnd,
  BitOr,
  BitXor,
  LShift,
  RShift,
  Is,
  IsNot,
};
llvm::StringRef getSpelling(BinaryOp op);

/// Arithmetic, bitwise operators, comparison (never chained) and the
/// short-circuit `and`/`or`.
class BinaryExpr : public Expr {
public:
  BinaryExpr(BinaryOp op, llvm::SMLoc opLoc, ExprPtr lhs, ExprPtr rhs)
      : Expr(NodeKind::Binary, {lhs->getRange().Start, rhs->getRange().End}), op(op), opLoc(opLoc),
        lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  BinaryOp getOp() const { return op; }
  llvm::SMLoc getOpLoc() const { return opLoc; }
  const Expr &getLHS() const { return *lhs; }
  const Expr &getRHS() const { return *rhs; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Binary; }

private:
  BinaryOp op;
  llvm::SMLoc opLoc;
  ExprPtr lhs, rhs;
};

/// `shape : stride`, CuTe's layout notation, e.g. `(M, K):(K, 1)`.
class LayoutExpr : public Expr {
public:
  LayoutExpr(llvm::SMLoc colonLoc, ExprPtr shape, ExprPtr stride)
      : Expr(NodeKind::Layout, {shape->getRange().Start, stride->getRange().End}),
        colonLoc(colonLoc), shape(std::move(shape)), stride(std::move(stride)) {}
  llvm::SMLoc getColonLoc() const { return colonLoc; }
  const Expr &getShape() const { return *shape; }
  const Expr &getStride() const { return *stride; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Layout; }

private:
  llvm::SMLoc colonLoc;
  ExprPtr shape, stride;
};

/// `then if condition else other`, Python's conditional expression.
class ConditionalExpr : public Expr {
public:
  ConditionalExpr(llvm::SMLoc ifLoc, ExprPtr thenValue, ExprPtr condition, ExprPtr elseValue)
      : Expr(NodeKind::Conditional, {thenValue->getRange().Start, elseValue->getRange().End}),
        ifLoc(ifLoc), thenValue(std::move(thenValue)), condition(std::move(condition)),
        elseValue(std::move(elseValue)) {}
  llvm::SMLoc getIfLoc() const { return ifLoc; }
  const Expr &getThen() const { return *thenValue; }
  const Expr &getCondition() const { return *condition; }
  const Expr &getElse() const { return *elseValue; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Conditional; }

private:
  llvm::SMLoc ifLoc;
  ExprPtr thenValue, condition, elseValue;
};

/// `name=value` in a call.
struct KeywordArg {
  std::string name;
  llvm::SMRange nameRange;
  ExprPtr value;
};

/// `callee(args..., name=value...)`; positional arguments come first.
class CallExpr : public Expr {
public:
  CallExpr(llvm::SMRange range, ExprPtr callee, ExprList args, std::vector<KeywordArg> keywords)
      : Expr(NodeKind::Call, range), callee(std::move(callee)), args(std::move(args)),
        keywords(std::move(keywords)) {}
  const Expr &getCallee() const { return *callee; }
  const ExprList &getArgs() const { return args; }
  const std::vector<KeywordArg> &getKeywords() const { return keywords; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Call; }

private:
  ExprPtr callee;
  ExprList args;
  std::vector<KeywordArg> keywords;
};

/// `base[i, j, ...]`: one index per mode, in order; `[]` is not allowed.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(llvm::SMRange range, ExprPtr base, ExprList indices)
      : Expr(NodeKind::Subscript, range), base(std::move(base)), indices(std::move(indices)) {}
  const Expr &getBase() const { return *base; }
  const ExprList &getIndices() const { return indices; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Subscript; }

private:
  ExprPtr base;
  ExprList indices;
};

/// `base.name`.
class AttributeExpr : public Expr {
public:
  AttributeExpr(llvm::SMRange range, ExprPtr base, std::string name, llvm::SMRange nameRange)
      : Expr(NodeKind::Attribute, range), base(std::move(base)), name(std::move(name)),
        nameRange(nameRange) {}
  const Expr &getBase() const { return *base; }
  llvm::StringRef getName() const { return name; }
  llvm::SMRange getNameRange() const { return nameRange; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Attribute; }

private:
  ExprPtr base;
  std::string name;
  llvm::SMRange nameRange;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt : public Node {
public:
  static bool classof(const Node *node) {
    return node->getKind() >= NodeKind::Assign && node->getKind() <= NodeKind::FunctionDef;
  }

protected:
  using Node::Node;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

/// `target = value`. The target is a name, subscript, attribute, or a
/// tuple/list of targets (`M, K, L = shape`).
class AssignStmt : public Stmt {
public:
  AssignStmt(llvm::SMLoc equalLoc, ExprPtr target, ExprPtr value)
      : Stmt(NodeKind::Assign, {target->getRange().Start, value->getRange().End}),
        equalLoc(equalLoc), target(std::move(target)), value(std::move(value)) {}
  llvm::SMLoc getEqualLoc() const { return equalLoc; }
  const Expr &getTarget() const { return *target; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Assign; }

private:
  llvm::SMLoc equalLoc;
  ExprPtr target, value;
};

/// `target op= value`, op one of + - * / // %; the target is a name,
/// subscript or attribute.
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(BinaryOp op, llvm::SMLoc opLoc, ExprPtr target, ExprPtr value)
      : Stmt(NodeKind::AugAssign, {target->getRange().Start, value->getRange().End}), op(op),
        opLoc(opLoc), target(std::move(target)), value(std::move(value)) {}
  BinaryOp getOp() const { return op; }
  llvm::SMLoc getOpLoc() const { return opLoc; }
  const Expr &getTarget() const { return *target; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::AugAssign; }

private:
  BinaryOp op;
  llvm::SMLoc opLoc;
  ExprPtr target, value;
};

/// An expression evaluated for its effect (a call, or a docstring).
class ExprStmt : public Stmt {
public:
  explicit ExprStmt(ExprPtr expr)
      : Stmt(NodeKind::ExprStmt, expr->getRange()), expr(std::move(expr)) {}
  const Expr &getExpr() const { return *expr; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::ExprStmt; }

private:
  ExprPtr expr;
};

class PassStmt : public Stmt {
public:
  explicit PassStmt(llvm::SMRange range) : Stmt(NodeKind::Pass, range) {}
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Pass; }
};

/// `break`: leaves the innermost loop.
class BreakStmt : public Stmt {
public:
  explicit BreakStmt(llvm::SMRange range) : Stmt(NodeKind::Break, range) {}
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Break; }
};

/// `continue`: goes on with the innermost loop's next iteration.
class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(llvm::SMRange range) : Stmt(NodeKind::Continue, range) {}
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Continue; }
};

class ReturnStmt : public Stmt {
public:
  ReturnStmt(llvm::SMRange range, ExprPtr value)
      : Stmt(NodeKind::Return, range), value(std::move(value)) {}
  /// Null for a bare `return`.
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Return; }

private:
  ExprPtr value;
};

/// One `if` or `elif` arm.
struct IfClause {
  llvm::SMLoc keywordLoc;
  ExprPtr condition;
  Block body;
};

/// `if c: ... elif d: ... else: ...`, with the elif arms kept flat (a long
/// elif chain does not make a deep tree).
class IfStmt : public Stmt {
public:
  IfStmt(llvm::SMRange range, std::vector<IfClause> clauses, llvm::SMLoc elseLoc, Block elseBody)
      : Stmt(NodeKind::If, range), clauses(std::move(clauses)), elseLoc(elseLoc),
        elseBody(std::move(elseBody)) {}
  const std::vector<IfClause> &getClauses() const { return clauses; }
  bool hasElse() const { return elseLoc.isValid(); }
  llvm::SMLoc getElseLoc() const { return elseLoc; }
  const Block &getElseBody() const { return elseBody; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::If; }

private:
  std::vector<IfClause> clauses;
  llvm::SMLoc elseLoc;
  Block elseBody;
};

/// `for target in iterable: body`.
class ForStmt : public Stmt {
public:
  ForStmt(llvm::SMRange range, ExprPtr target, ExprPtr iterable, Block body)
      : Stmt(NodeKind::For, range), target(std::move(target)), iterable(std::move(iterable)),
        body(std::move(body)) {}
  const Expr &getTarget() const { return *target; }
  const Expr &getIterable() const { return *iterable; }
  const Block &getBody() const { return body; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::For; }

private:
  ExprPtr target, iterable;
  Block body;
};

/// `while condition: body`.
class WhileStmt : public Stmt {
public:
  WhileStmt(llvm::SMRange range, ExprPtr condition, Block body)
      : Stmt(NodeKind::While, range), condition(std::move(condition)), body(std::move(body)) {}
  const Expr &getCondition() const { return *condition; }
  const Block &getBody() const { return body; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::While; }

private:
  ExprPtr condition;
  Block body;
};

/// `name: annotation = default`; annotation and default are optional.
class Param : public Node {
public:
  Param(llvm::SMRange range, std::string name, ExprPtr annotation, ExprPtr defaultValue)
      : Node(NodeKind::Param, range), name(std::move(name)), annotation(std::move(annotation)),
        defaultValue(std::move(defaultValue)) {}
  llvm::StringRef getName() const { return name; }
  const Expr *getAnnotation() const { return annotation.get(); }
  const Expr *getDefault() const { return defaultValue.get(); }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Param; }

private:
  std::string name;
  ExprPtr annotation, defaultValue;
};
using ParamList = std::vector<std::unique_ptr<Param>>;

/// A kernel (`@kernel(...)`) or a helper function (no decorator). The range
/// starts at the `def` keyword; decorators have their own ranges.
class FunctionDef : public Stmt {
public:
  FunctionDef(llvm::SMRange range, std::string name, llvm::SMRange nameRange, ExprList decorators,
              ParamList params, ExprPtr returnType, Block body)
      : Stmt(NodeKind::FunctionDef, range), name(std::move(name)), nameRange(nameRange),
        decorators(std::move(decorators)), params(std::move(params)),
        returnType(std::move(returnType)), body(std::move(body)) {}
  llvm::StringRef getName() const { return name; }
  llvm::SMRange getNameRange() const { return nameRange; }
  /// Each a name, attribute or call, as written after '@'.
  const ExprList &getDecorators() const { return decorators; }
  const ParamList &getParams() const { return params; }
  /// Null when there is no `-> type`.
  const Expr *getReturnType() const { return returnType.get(); }
  const Block &getBody() const { return body; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::FunctionDef; }

private:
  std::string name;
  llvm::SMRange nameRange;
  ExprList decorators;
  ParamList params;
  ExprPtr returnType;
  Block body;
};

/// A whole file: top-level statements in order.
class Module : public Node {
public:
  Module(llvm::SMRange range, std::string name, Block body)
      : Node(NodeKind::Module, range), name(std::move(name)), body(std::move(body)) {}
  /// The buffer's name (usually the file path).
  llvm::StringRef getName() const { return name; }
  const Block &getBody() const { return body; }
  static bool classof(const Node *node) { return node->getKind() == NodeKind::Module; }

private:
  std::string name;
  Block body;
};

} // namespace cutec::ast

#endif // CUTEC_FRONTEND_AST_H
