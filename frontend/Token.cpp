// Token: names of token kinds and tokens for diagnostics.
#include "frontend/Token.h"

#include "llvm/ADT/Twine.h"

namespace cutec {

llvm::StringRef describeTokenKind(TokenKind kind) {
  switch (kind) {
#define TOK(ID, DESCRIPTION)                                                                       \
  case TokenKind::ID:                                                                              \
    return DESCRIPTION;
#include "frontend/TokenKinds.def"
  }
  return "token";
}

std::string Token::describe() const {
  switch (kind) {
  case TokenKind::identifier:
  case TokenKind::integer:
  case TokenKind::floating:
  case TokenKind::reserved:
    // A long spelling (a garbage number, say) is cut so the message stays short.
    if (spelling.size() > 32)
      return (llvm::Twine(describeTokenKind(kind)) + " '" + spelling.take_front(29) + "...'").str();
    return (llvm::Twine(describeTokenKind(kind)) + " '" + spelling + "'").str();
  default:
    return describeTokenKind(kind).str();
  }
}

} // namespace cutec
