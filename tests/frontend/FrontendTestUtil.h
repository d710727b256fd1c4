// Helpers for the front-end tests: run the lexer or the parser over a source
// string held in a SourceMgr buffer named "test.cute", and capture the
// diagnostics and the AST dump as text.
#ifndef CUTEC_TESTS_FRONTEND_FRONTENDTESTUTIL_H
#define CUTEC_TESTS_FRONTEND_FRONTENDTESTUTIL_H

#include "frontend/ASTPrinter.h"
#include "frontend/Lexer.h"
#include "frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

#include <ostream>
#include <string>

namespace llvm {
/// Lets GoogleTest print StringRefs in failure messages.
inline void PrintTo(StringRef text, std::ostream *os) { *os << '"' << text.str() << '"'; }
} // namespace llvm

namespace cutec::test {

/// One source buffer with its diagnostics captured in a string.
struct SourceFixture {
  explicit SourceFixture(llvm::StringRef source, llvm::StringRef name = "test.cute")
      : diagStream(diagText), diags(sourceMgr, diagStream, /*errorLimit=*/50) {
    bufferId = sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, name),
                                            llvm::SMLoc());
  }
  llvm::SourceMgr sourceMgr;
  unsigned bufferId = 0;
  std::string diagText;
  llvm::raw_string_ostream diagStream;
  DiagnosticEngine diags;
};

struct ParseResult {
  std::string ast;
  std::string diagnostics;
  unsigned errorCount = 0;
};

inline ParseResult parse(llvm::StringRef source) {
  SourceFixture fixture(source);
  std::unique_ptr<ast::Module> module =
      parseModule(fixture.sourceMgr, fixture.bufferId, fixture.diags);
  return {dumpAST(*module, fixture.sourceMgr), fixture.diagText, fixture.diags.errorCount()};
}

/// The AST dump of the module's statements, without the Module line and with
/// their indentation removed, for tests of one construct.
inline std::string parseBody(llvm::StringRef source) {
  std::string dump = parse(source).ast;
  std::string body;
  llvm::StringRef rest(dump);
  rest = rest.split('\n').second;
  while (!rest.empty()) {
    auto [line, next] = rest.split('\n');
    body += line.drop_front(2).str() + "\n";
    rest = next;
  }
  return body;
}

/// Tokens as one compact line: `id:x = int:1 NEWLINE EOF`.
struct LexResult {
  std::string tokens;
  std::string diagnostics;
};

inline LexResult lex(llvm::StringRef source) {
  SourceFixture fixture(source);
  std::vector<Token> tokens = tokenize(fixture.sourceMgr, fixture.bufferId, fixture.diags);
  std::string text;
  for (const Token &token : tokens) {
    if (!text.empty())
      text += ' ';
    switch (token.kind) {
    case TokenKind::newline:
      text += "NEWLINE";
      break;
    case TokenKind::indent:
      text += "INDENT";
      break;
    case TokenKind::dedent:
      text += "DEDENT";
      break;
    case TokenKind::eof:
      text += "EOF";
      break;
    case TokenKind::identifier:
      text += "id:" + token.spelling.str();
      break;
    case TokenKind::reserved:
      text += "reserved:" + token.spelling.str();
      break;
    case TokenKind::integer:
      text += "int:" + std::to_string(token.intValue);
      break;
    case TokenKind::floating:
      text += "float:" + std::to_string(token.floatValue);
      break;
    case TokenKind::string:
      text += "str:<" + token.stringValue + ">";
      break;
    default:
      text += token.spelling.str();
      break;
    }
  }
  return {text, fixture.diagText};
}

/// The single error a source produces, as printed (message, line, caret).
inline std::string diagnose(llvm::StringRef source) { return parse(source).diagnostics; }

} // namespace cutec::test

#endif // CUTEC_TESTS_FRONTEND_FRONTENDTESTUTIL_H
