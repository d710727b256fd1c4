//===- Verifier.h - Structural and type checks of the IR ------------------===//
//
// Run after the front end and between passes. It checks that every operand
// is defined before its use in an enclosing scope, that regions end in the
// right terminator, and each operation's arity, attributes and types. A
// failure after a pass is a compiler bug; the message names the operation
// and the pass manager names the pass.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_VERIFIER_H
#define CUTEC_IR_CORE_VERIFIER_H

#include "ir/core/IR.h"

#include <string>
#include <vector>

namespace cutec::ir {

struct VerifierIssue {
  llvm::SMLoc loc;
  std::string message;
};

/// All issues found in `kernel`; empty when it verifies.
std::vector<VerifierIssue> verify(const Operation &kernel);

} // namespace cutec::ir

#endif
