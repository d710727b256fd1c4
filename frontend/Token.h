// Token: one lexical unit of a .cute file, with its place in the buffer.
#ifndef CUTEC_FRONTEND_TOKEN_H
#define CUTEC_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>

namespace cutec {

enum class TokenKind : uint8_t {
#define TOK(ID, DESCRIPTION) ID,
#include "frontend/TokenKinds.def"
};

/// How a message names a kind: "end of line", "'('", "identifier".
llvm::StringRef describeTokenKind(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::eof;
  /// The token's text in the source buffer. Tokens the lexer makes up
  /// (newline, indent, dedent, eof) have an empty spelling at the place they
  /// stand for, so every token has a valid location.
  llvm::StringRef spelling;
  /// Literal values, decoded and checked by the lexer.
  uint64_t intValue = 0;
  double floatValue = 0;
  std::string stringValue;

  bool is(TokenKind k) const { return kind == k; }
  bool isNot(TokenKind k) const { return kind != k; }
  llvm::SMLoc getLoc() const { return llvm::SMLoc::getFromPointer(spelling.data()); }
  llvm::SMLoc getEndLoc() const { return llvm::SMLoc::getFromPointer(spelling.end()); }
  llvm::SMRange getRange() const { return {getLoc(), getEndLoc()}; }
  /// How a message names this token: "identifier 'x'", "'('", "end of file".
  std::string describe() const;
};

} // namespace cutec

#endif // CUTEC_FRONTEND_TOKEN_H
