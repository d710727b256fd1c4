//===- OpSignature.cpp - What each op takes, from Ops.def -----------------===//
#include "ir/core/OpSignature.h"

#include <array>
#include <cassert>

namespace cutec::ir {
namespace {

// The arity columns of Ops.def.
constexpr Arity Exactly(unsigned n, llvm::StringLiteral message) { return {n, n, message}; }
constexpr Arity AtLeast(unsigned n, llvm::StringLiteral message = "") {
  return {n, Arity::unbounded, message};
}
constexpr Arity Between(unsigned min, unsigned max, llvm::StringLiteral message = "") {
  return {min, max, message};
}
constexpr Arity Any = AtLeast(0);
// The op's own check in the verifier counts them: the count depends on an
// attribute or a type.
constexpr Arity Custom = Any;

template <typename... Decls>
constexpr std::array<AttributeDecl, sizeof...(Decls)> declare(Decls... decls) {
  return {decls...};
}

// The attribute columns: Required(name) or Optional(name, "message"); the
// empty literal in front makes the message "" when there is none.
#define Required(Name, ...)                                                                        \
  AttributeDecl { attr::Name.spelling, attr::Name.kinds, true, "" __VA_ARGS__ }
#define Optional(Name, ...)                                                                        \
  AttributeDecl { attr::Name.spelling, attr::Name.kinds, false, "" __VA_ARGS__ }
#define CUTEC_OP(Enum, Spelling, Traits, Operands, Results, ...)                                   \
  constexpr auto Enum##Attributes = declare(__VA_ARGS__);
#include "ir/core/Ops.def"
#undef Required
#undef Optional

const OpSignature signatures[] = {
#define CUTEC_OP(Enum, Spelling, Traits, Operands, Results, ...)                                   \
  {Operands, Results, Enum##Attributes},
#include "ir/core/Ops.def"
};

std::string arityIssue(const Arity &arity, size_t found, llvm::StringRef what) {
  if (found >= arity.min && found <= arity.max)
    return "";
  if (!arity.message.empty())
    return arity.message.str();
  std::string expected = arity.min == arity.max ? std::to_string(arity.min)
                         : arity.max == Arity::unbounded
                             ? "at least " + std::to_string(arity.min)
                             : std::to_string(arity.min) + " to " + std::to_string(arity.max);
  return "expected " + expected + " " + what.str() + "(s), found " + std::to_string(found);
}

std::string missingMessage(const AttributeDecl &decl) {
  if (!decl.message.empty())
    return decl.message.str();
  return "needs " + describeKinds(decl.kinds) + " '" + decl.name.str() + "'";
}

} // namespace

const OpSignature &signature(OpKind kind) { return signatures[unsigned(kind)]; }

const AttributeDecl *findAttribute(OpKind kind, llvm::StringRef name) {
  for (const AttributeDecl &decl : signature(kind).attributes)
    if (decl.name == name)
      return &decl;
  return nullptr;
}

std::string attributeIssue(OpKind kind, llvm::StringRef name) {
  const AttributeDecl *decl = findAttribute(kind, name);
  assert(decl && "an attribute of the op's row");
  return missingMessage(*decl);
}

std::vector<std::string> signatureIssues(const Operation &op) {
  const OpSignature &row = signature(op.kind());
  std::vector<std::string> issues;
  for (std::string issue : {arityIssue(row.operands, op.operands().size(), "operand"),
                            arityIssue(row.results, op.results().size(), "result")})
    if (!issue.empty())
      issues.push_back(std::move(issue));
  for (const AttributeDecl &decl : row.attributes) {
    const Attribute *value = op.attr(decl.name);
    if (!value && decl.required)
      issues.push_back(missingMessage(decl));
    else if (value && !(decl.kinds & (1u << value->index())))
      issues.push_back(!decl.message.empty()
                           ? decl.message.str()
                           : "'" + decl.name.str() + "' must be " + describeKinds(decl.kinds));
  }
  for (const auto &[name, value] : op.attributes())
    if (!findAttribute(op.kind(), name))
      issues.push_back("unknown attribute '" + name + "'");
  return issues;
}

} // namespace cutec::ir
