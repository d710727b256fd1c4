// ASTPrinter: one line per node, children indented by two spaces.
#include "frontend/ASTPrinter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"

#include <charconv>

namespace cutec {
namespace {

using namespace ast;

/// The shortest text that reads back as the same double.
std::string formatDouble(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

class ASTPrinter {
public:
  ASTPrinter(const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os)
      : sourceMgr(sourceMgr), os(os) {}

  void print(const Node &node, llvm::StringRef role = {});

private:
  void printExpr(const Expr &expr);
  void printStmt(const Stmt &stmt);
  void printBlock(const Block &block, llvm::StringRef role);
  void printChildren(const ExprList &exprs, llvm::StringRef role = {});
  /// Starts a node's line: indentation, role, kind name.
  void begin(const Node &node, llvm::StringRef role);
  /// Ends a node's line with its location.
  void end(const Node &node);
  void startLine(llvm::StringRef role);

  /// Prints children one level deeper than the current node.
  struct Indent {
    explicit Indent(ASTPrinter &printer) : printer(printer) { printer.indent += 2; }
    ~Indent() { printer.indent -= 2; }
    ASTPrinter &printer;
  };

  const llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned indent = 0;
};

void ASTPrinter::startLine(llvm::StringRef role) {
  os.indent(indent);
  if (!role.empty())
    os << role << ":";
}

void ASTPrinter::begin(const Node &node, llvm::StringRef role) {
  startLine(role);
  if (!role.empty())
    os << ' ';
  os << getNodeKindName(node.getKind());
}

void ASTPrinter::end(const Node &node) {
  auto [line, column] = sourceMgr.getLineAndColumn(node.getLoc());
  os << " @" << line << ':' << column << '\n';
}

void ASTPrinter::print(const Node &node, llvm::StringRef role) {
  begin(node, role);
  if (auto *expr = llvm::dyn_cast<Expr>(&node))
    return printExpr(*expr);
  if (auto *stmt = llvm::dyn_cast<Stmt>(&node))
    return printStmt(*stmt);
  if (auto *param = llvm::dyn_cast<Param>(&node)) {
    os << " '" << param->getName() << "'";
    end(node);
    Indent children(*this);
    if (const Expr *annotation = param->getAnnotation())
      print(*annotation, "annotation");
    if (const Expr *defaultValue = param->getDefault())
      print(*defaultValue, "default");
    return;
  }
  const auto &module = llvm::cast<Module>(node);
  os << " '" << module.getName() << "'";
  end(node);
  Indent children(*this);
  for (const StmtPtr &stmt : module.getBody())
    print(*stmt);
}

void ASTPrinter::printChildren(const ExprList &exprs, llvm::StringRef role) {
  for (const ExprPtr &expr : exprs)
    print(*expr, role);
}

void ASTPrinter::printBlock(const Block &block, llvm::StringRef role) {
  startLine(role);
  os << '\n';
  Indent children(*this);
  for (const StmtPtr &stmt : block)
    print(*stmt);
}

void ASTPrinter::printExpr(const Expr &expr) {
  switch (expr.getKind()) {
  case NodeKind::Name:
    os << " '" << llvm::cast<NameExpr>(expr).getName() << "'";
    break;
  case NodeKind::IntegerLiteral:
    os << ' ' << llvm::cast<IntegerLiteralExpr>(expr).getValue();
    break;
  case NodeKind::FloatLiteral:
    os << ' ' << formatDouble(llvm::cast<FloatLiteralExpr>(expr).getValue());
    break;
  case NodeKind::StringLiteral:
    os << " \"";
    llvm::printEscapedString(llvm::cast<StringLiteralExpr>(expr).getValue(), os);
    os << '"';
    break;
  case NodeKind::BoolLiteral:
    os << (llvm::cast<BoolLiteralExpr>(expr).getValue() ? " True" : " False");
    break;
  case NodeKind::NoneLiteral:
    break;
  case NodeKind::Unary:
    os << " '" << getSpelling(llvm::cast<UnaryExpr>(expr).getOp()) << "'";
    break;
  case NodeKind::Binary:
    os << " '" << getSpelling(llvm::cast<BinaryExpr>(expr).getOp()) << "'";
    break;
  case NodeKind::Attribute:
    os << " '" << llvm::cast<AttributeExpr>(expr).getName() << "'";
    break;
  default:
    break;
  }
  end(expr);
  Indent children(*this);
  switch (expr.getKind()) {
  case NodeKind::Paren:
    print(llvm::cast<ParenExpr>(expr).getInner());
    break;
  case NodeKind::Tuple:
    printChildren(llvm::cast<TupleExpr>(expr).getElements());
    break;
  case NodeKind::List:
    printChildren(llvm::cast<ListExpr>(expr).getElements());
    break;
  case NodeKind::Unary:
    print(llvm::cast<UnaryExpr>(expr).getOperand(), "operand");
    break;
  case NodeKind::Binary: {
    const auto &binary = llvm::cast<BinaryExpr>(expr);
    print(binary.getLHS(), "lhs");
    print(binary.getRHS(), "rhs");
    break;
  }
  case NodeKind::Layout: {
    const auto &layout = llvm::cast<LayoutExpr>(expr);
    print(layout.getShape(), "shape");
    print(layout.getStride(), "stride");
    break;
  }
  case NodeKind::Conditional: {
    const auto &conditional = llvm::cast<ConditionalExpr>(expr);
    print(conditional.getThen(), "then");
    print(conditional.getCondition(), "condition");
    print(conditional.getElse(), "else");
    break;
  }
  case NodeKind::Call: {
    const auto &call = llvm::cast<CallExpr>(expr);
    print(call.getCallee(), "callee");
    printChildren(call.getArgs(), "arg");
    for (const KeywordArg &keyword : call.getKeywords())
      print(*keyword.value, "keyword '" + keyword.name + "'");
    break;
  }
  case NodeKind::Subscript: {
    const auto &subscript = llvm::cast<SubscriptExpr>(expr);
    print(subscript.getBase(), "base");
    printChildren(subscript.getIndices(), "index");
    break;
  }
  case NodeKind::Attribute:
    print(llvm::cast<AttributeExpr>(expr).getBase(), "base");
    break;
  default:
    break;
  }
}

void ASTPrinter::printStmt(const Stmt &stmt) {
  switch (stmt.getKind()) {
  case NodeKind::AugAssign:
    os << " '" << getSpelling(llvm::cast<AugAssignStmt>(stmt).getOp()) << "='";
    break;
  case NodeKind::FunctionDef:
    os << " '" << llvm::cast<FunctionDef>(stmt).getName() << "'";
    break;
  default:
    break;
  }
  end(stmt);
  Indent children(*this);
  switch (stmt.getKind()) {
  case NodeKind::Assign: {
    const auto &assign = llvm::cast<AssignStmt>(stmt);
    print(assign.getTarget(), "target");
    print(assign.getValue(), "value");
    break;
  }
  case NodeKind::AugAssign: {
    const auto &assign = llvm::cast<AugAssignStmt>(stmt);
    print(assign.getTarget(), "target");
    print(assign.getValue(), "value");
    break;
  }
  case NodeKind::ExprStmt:
    print(llvm::cast<ExprStmt>(stmt).getExpr(), "expr");
    break;
  case NodeKind::Return:
    if (const Expr *value = llvm::cast<ReturnStmt>(stmt).getValue())
      print(*value, "value");
    break;
  case NodeKind::If: {
    const auto &ifStmt = llvm::cast<IfStmt>(stmt);
    for (const IfClause &clause : ifStmt.getClauses()) {
      print(*clause.condition, &clause == &ifStmt.getClauses().front() ? "condition" : "elif");
      printBlock(clause.body, "then");
    }
    if (ifStmt.hasElse())
      printBlock(ifStmt.getElseBody(), "else");
    break;
  }
  case NodeKind::For: {
    const auto &forStmt = llvm::cast<ForStmt>(stmt);
    print(forStmt.getTarget(), "target");
    print(forStmt.getIterable(), "iter");
    printBlock(forStmt.getBody(), "body");
    break;
  }
  case NodeKind::While: {
    const auto &whileStmt = llvm::cast<WhileStmt>(stmt);
    print(whileStmt.getCondition(), "condition");
    printBlock(whileStmt.getBody(), "body");
    break;
  }
  case NodeKind::FunctionDef: {
    const auto &function = llvm::cast<FunctionDef>(stmt);
    printChildren(function.getDecorators(), "decorator");
    for (const auto &param : function.getParams())
      print(*param, "param");
    if (const Expr *returnType = function.getReturnType())
      print(*returnType, "returns");
    printBlock(function.getBody(), "body");
    break;
  }
  default:
    break;
  }
}

} // namespace

void printAST(const ast::Node &node, const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os) {
  ASTPrinter(sourceMgr, os).print(node);
}

std::string dumpAST(const ast::Node &node, const llvm::SourceMgr &sourceMgr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printAST(node, sourceMgr, os);
  return text;
}

} // namespace cutec
