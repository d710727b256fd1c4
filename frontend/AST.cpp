// AST: names and spellings of node kinds and operators.
#include "frontend/AST.h"

namespace cutec::ast {

llvm::StringRef getNodeKindName(NodeKind kind) {
  switch (kind) {
  case NodeKind::Name:
    return "Name";
  case NodeKind::IntegerLiteral:
    return "Int";
  case NodeKind::FloatLiteral:
    return "Float";
  case NodeKind::StringLiteral:
    return "String";
  case NodeKind::BoolLiteral:
    return "Bool";
  case NodeKind::NoneLiteral:
    return "None";
  case NodeKind::Paren:
    return "Paren";
  case NodeKind::Tuple:
    return "Tuple";
  case NodeKind::List:
    return "List";
  case NodeKind::Unary:
    return "Unary";
  case NodeKind::Binary:
    return "Binary";
  case NodeKind::Layout:
    return "Layout";
  case NodeKind::Conditional:
    return "Conditional";
  case NodeKind::Call:
    return "Call";
  case NodeKind::Subscript:
    return "Subscript";
  case NodeKind::Attribute:
    return "Attribute";
  case NodeKind::Assign:
    return "Assign";
  case NodeKind::AugAssign:
    return "AugAssign";
  case NodeKind::ExprStmt:
    return "ExprStmt";
  case NodeKind::Pass:
    return "Pass";
  case NodeKind::Break:
    return "Break";
  case NodeKind::Continue:
    return "Continue";
  case NodeKind::Return:
    return "Return";
  case NodeKind::If:
    return "If";
  case NodeKind::For:
    return "For";
  case NodeKind::While:
    return "While";
  case NodeKind::FunctionDef:
    return "FunctionDef";
  case NodeKind::Param:
    return "Param";
  case NodeKind::Module:
    return "Module";
  }
  return "?";
}

llvm::StringRef getSpelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Negate:
    return "-";
  case UnaryOp::Plus:
    return "+";
  case UnaryOp::Not:
    return "not";
  case UnaryOp::Invert:
    return "~";
  case UnaryOp::Unpack:
    return "*";
  }
  return "?";
}

llvm::StringRef getSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::FloorDiv:
    return "//";
  case BinaryOp::Mod:
    return "%";
  case BinaryOp::Pow:
    return "**";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::And:
    return "and";
  case BinaryOp::Or:
    return "or";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::LShift:
    return "<<";
  case BinaryOp::RShift:
    return ">>";
  case BinaryOp::Is:
    return "is";
  case BinaryOp::IsNot:
    return "is not";
  }
  return "?";
}

} // namespace cutec::ast
