//===- OpSignature.h - What each op takes: operands, results, attributes --===//
//
// Each op's row in Ops.def declares how many operands and results it takes
// and which attributes, of which kinds. `signatureIssues` checks an op
// against its row; the verifier adds what a table cannot say (types that
// must agree, attribute values, regions).
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_OPSIGNATURE_H
#define CUTEC_IR_CORE_OPSIGNATURE_H

#include "ir/core/IR.h"

#include <string>
#include <vector>

namespace cutec::ir {

/// How many operands (or results) an op takes: from `min` to `max`.
struct Arity {
  static constexpr unsigned unbounded = ~0u;
  constexpr Arity(unsigned n) : min(n), max(n) {}
  constexpr Arity(unsigned min, unsigned max, llvm::StringLiteral message)
      : min(min), max(max), message(message) {}

  unsigned min, max;
  /// The message for another count, when not "expected N operand(s), found M".
  llvm::StringLiteral message = "";
};

/// An attribute an op takes.
struct AttributeDecl {
  llvm::StringLiteral name;
  unsigned kinds; // kindBit bits
  bool required;
  /// The message for a missing one or one of another kind, when not the
  /// generic one.
  llvm::StringLiteral message;
};

struct OpSignature {
  Arity operands, results;
  llvm::ArrayRef<AttributeDecl> attributes;
};

/// The row of `kind` in Ops.def.
const OpSignature &signature(OpKind kind);
/// The attribute `name` of `kind`'s row; null when the op does not take it.
const AttributeDecl *findAttribute(OpKind kind, llvm::StringRef name);
/// The message for the attribute `name` of a `kind` op missing or holding
/// a value of another kind; the verifier gives it for a value out of range
/// too.
std::string attributeIssue(OpKind kind, llvm::StringRef name);
/// How `op` departs from its row, one message each: the operand and result
/// counts, missing attributes, attributes of another kind, and attributes
/// the row does not declare. Empty when it matches.
std::vector<std::string> signatureIssues(const Operation &op);

} // namespace cutec::ir

#endif
