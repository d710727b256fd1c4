// Parser: the entry point that turns a .cute buffer into an AST.
//
// The parser is recursive descent over the token vector from the lexer. It
// reports every syntax error through the DiagnosticEngine and recovers at
// statement level (skipping to the end of the logical line, and through any
// block that follows it), so one run reports all independent errors. It never
// aborts: any byte string yields a Module, complete or partial, and the caller
// decides from `diags.hasErrors()` whether to go on.
#ifndef CUTEC_FRONTEND_PARSER_H
#define CUTEC_FRONTEND_PARSER_H

#include "frontend/AST.h"
#include "frontend/Diagnostics.h"

#include <memory>

namespace cutec {

/// How deeply blocks and expressions may nest. Each bracket, block, unary
/// operator and each operator, call, subscript or attribute applied in a
/// chain counts one level, so the tree's depth stays bounded and recursive
/// walks over it cannot exhaust the stack.
inline constexpr unsigned kMaxNestingDepth = 256;

std::unique_ptr<ast::Module> parseModule(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                                         DiagnosticEngine &diags);

} // namespace cutec

#endif // CUTEC_FRONTEND_PARSER_H
