// Lexer: turns a .cute buffer into tokens, including Python-style
// NEWLINE/INDENT/DEDENT structure tokens.
//
// Lexical errors are reported to the DiagnosticEngine and lexing continues
// with a best-effort token (or none), so the parser sees a well-formed stream:
// indents and dedents balance and the last token is always eof.
#ifndef CUTEC_FRONTEND_LEXER_H
#define CUTEC_FRONTEND_LEXER_H

#include "frontend/Diagnostics.h"
#include "frontend/Token.h"

#include <vector>

namespace cutec {

std::vector<Token> tokenize(const llvm::SourceMgr &sourceMgr, unsigned bufferId,
                            DiagnosticEngine &diags);

} // namespace cutec

#endif // CUTEC_FRONTEND_LEXER_H
