// Lexer: characters to tokens, indentation to INDENT/DEDENT.
//
// The whole buffer is lexed up front into a vector (the parser then has
// unlimited lookahead and no lexer state to coordinate with). The rules:
//  - Outside brackets a line break ends a logical line (NEWLINE), unless the
//    line had no tokens (blank or comment-only lines are invisible).
//  - Inside (), [] and {} line breaks and indentation are ignored. As error
//    recovery, a line that starts with a statement keyword (def, for, if, ...)
//    or '@' closes any bracket left open, so one missing ')' does not swallow
//    the rest of the file.
//  - Indentation is measured at the first token of a logical line, counting
//    spaces. Tabs in indentation are an error (reported once per file); after
//    it a tab advances to the next multiple of kTabWidth.
//  - A line that dedents to a column no enclosing block uses is an error; the
//    blocks deeper than the line are closed, the line continues the block
//    that remains, and its column is remembered as a "phantom" level that
//    produces no tokens, so following lines at that column do not report
//    again.
#include "frontend/Lexer.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace cutec {
namespace {

/// After a tab in indentation has been reported, it advances the column to
/// the next multiple of this.
constexpr unsigned kTabWidth = 8;

struct SpelledToken {
  TokenKind kind;
  llvm::StringLiteral spelling;
};
constexpr SpelledToken kPunctuation[] = {
#define PUNCT(ID, SPELLING) {TokenKind::ID, SPELLING},
#include "frontend/TokenKinds.def"
};

constexpr SpelledToken kKeywords[] = {
#define KEYWORD(ID, SPELLING) {TokenKind::kw_##ID, SPELLING},
#include "frontend/TokenKinds.def"
};

/// Python keywords with no meaning here; lexed as `reserved` so the parser
/// can say "'class' is not supported" instead of a puzzling syntax error.
constexpr llvm::StringLiteral kReservedWords[] = {
    "as",     "assert", "async",    "await", "class", "del",  "except",
    "finally", "from",  "global", "import", "lambda", "nonlocal", "raise",
    "try",    "with",   "yield"};

/// Keywords that can only begin a statement: seeing one first on a line
/// inside brackets means a closing bracket is missing. (`if` and `else` may
/// continue a conditional expression, `x if c else y`, on the next line.)
constexpr TokenKind kStatementKeywords[] = {
    TokenKind::kw_def,    TokenKind::kw_for,   TokenKind::kw_while,
    TokenKind::kw_elif,   TokenKind::kw_return, TokenKind::kw_pass,
    TokenKind::kw_break,  TokenKind::kw_continue};

bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }
bool isHorizontalSpace(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\r'; }

TokenKind classifyWord(llvm::StringRef word) {
  for (const SpelledToken &keyword : kKeywords)
    if (word == keyword.spelling)
      return keyword.kind;
  if (llvm::is_contained(kReservedWords, word))
    return TokenKind::reserved;
  return TokenKind::identifier;
}

/// The end of the well-formed UTF-8 character at `p`, or null if the bytes
/// there are not one.
const char *endOfUtf8Char(const char *p, const char *end) {
  auto *bytes = reinterpret_cast<const llvm::UTF8 *>(p);
  unsigned length = llvm::getNumBytesForUTF8(*bytes);
  if (length > static_cast<size_t>(end - p) || !llvm::isLegalUTF8Sequence(bytes, bytes + length))
    return nullptr;
  return p + length;
}

/// Control characters other than tab and line breaks have no place in source.
bool isForbiddenControl(char c) {
  auto byte = static_cast<unsigned char>(c);
  return (byte < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || byte == 0x7f;
}

/// Names the character at `p` for a message ("character '$'", "UTF-8 byte
/// 0xFF") and returns its end (one byte past it for invalid UTF-8).
const char *describeInvalidChar(const char *p, const char *end, std::string &description) {
  auto byte = static_cast<unsigned char>(*p);
  if (byte < 0x80) {
    description = llvm::isPrint(*p) ? ("character '" + llvm::Twine(*p) + "'").str()
                                    : llvm::formatv("character U+{0:X-4}", unsigned(byte)).str();
    return p + 1;
  }
  const char *charEnd = endOfUtf8Char(p, end);
  if (!charEnd) {
    description = llvm::formatv("UTF-8 byte 0x{0:X-2}", unsigned(byte)).str();
    return p + 1;
  }
  auto *source = reinterpret_cast<const llvm::UTF8 *>(p);
  llvm::UTF32 codePoint = 0;
  llvm::convertUTF8Sequence(&source, reinterpret_cast<const llvm::UTF8 *>(charEnd), &codePoint,
                            llvm::strictConversion);
  description = llvm::formatv("character U+{0:X-4}", unsigned(codePoint)).str();
  return charEnd;
}

struct IndentLevel {
  unsigned column;
  /// A level made up after a bad unindent: it emits no INDENT/DEDENT.
  bool phantom;
};

class Lexer {
public:
  Lexer(llvm::StringRef buffer, DiagnosticEngine &diags)
      : cur(buffer.begin()), end(buffer.end()), lineStart(buffer.begin()), diags(diags) {
    indents.push_back({0, false});
  }

  std::vector<Token> run();

private:
  void lexToken();
  void lexIdentifier();
  void lexNumber();
  void lexString();
  bool lexPunctuation();
  void lexInvalidCharacters();
  void lexLineBreak();
  void lexBackslash();
  void skipComment();

  bool startsToken(const char *p) const;
  const SpelledToken *matchPunctuation(const char *p) const;
  bool nextLineStartsStatement() const;
  unsigned lexDigits(bool (*isDigit)(char));
  void computeIntegerValue(Token &token, unsigned radix);
  void computeFloatValue(Token &token);

  Token &pushToken(TokenKind kind, const char *begin);
  void pushStructureToken(TokenKind kind, const char *at);
  void applyIndentation(const char *firstToken);

  llvm::SMLoc loc(const char *p) const { return llvm::SMLoc::getFromPointer(p); }
  llvm::SMRange range(const char *begin, const char *stop) const { return {loc(begin), loc(stop)}; }

  const char *cur;
  const char *const end;
  /// Start of the physical line on which the current logical line began.
  const char *lineStart;
  /// True until the current logical line has a token.
  bool atLogicalLineStart = true;
  unsigned bracketDepth = 0;
  bool reportedTab = false;
  std::vector<IndentLevel> indents;
  std::vector<Token> tokens;
  DiagnosticEngine &diags;
};

std::vector<Token> Lexer::run() {
  while (cur < end) {
    char c = *cur;
    if (isHorizontalSpace(c)) {
      ++cur;
    } else if (c == '\n') {
      lexLineBreak();
    } else if (c == '#') {
      skipComment();
    } else if (c == '\\') {
      lexBackslash();
    } else {
      lexToken();
    }
  }
  if (!atLogicalLineStart)
    pushStructureToken(TokenKind::newline, tokens.back().spelling.end());
  for (; indents.size() > 1; indents.pop_back())
    if (!indents.back().phantom)
      pushStructureToken(TokenKind::dedent, end);
  pushStructureToken(TokenKind::eof, end);
  return std::move(tokens);
}

/// Python's explicit line joining is not part of the language, but after
/// saying so the lexer joins the lines anyway, so the statement still parses.
void Lexer::lexBackslash() {
  diags.error(loc(cur), "line continuation with '\\' is not supported; break the line inside "
                        "parentheses instead");
  ++cur;
  if (cur < end && *cur == '\r')
    ++cur;
  if (cur < end && *cur == '\n')
    ++cur;
}

void Lexer::lexLineBreak() {
  ++cur;
  if (bracketDepth > 0 && !nextLineStartsStatement())
    return;
  bracketDepth = 0;
  if (!atLogicalLineStart)
    pushStructureToken(TokenKind::newline, tokens.back().spelling.end());
  atLogicalLineStart = true;
  lineStart = cur;
}

bool Lexer::nextLineStartsStatement() const {
  const char *p = cur;
  while (p < end && isHorizontalSpace(*p))
    ++p;
  if (p < end && *p == '@')
    return true;
  const char *wordEnd = p;
  while (wordEnd < end && isIdentifierChar(*wordEnd))
    ++wordEnd;
  return llvm::is_contained(kStatementKeywords, classifyWord(llvm::StringRef(p, wordEnd - p)));
}

void Lexer::skipComment() {
  bool reported = false;
  while (cur < end && *cur != '\n') {
    const char *next = static_cast<unsigned char>(*cur) < 0x80 ? cur + 1 : endOfUtf8Char(cur, end);
    if ((!next || isForbiddenControl(*cur)) && !reported) {
      std::string what;
      describeInvalidChar(cur, end, what);
      diags.error(loc(cur), "invalid " + what + " in comment");
      reported = true;
    }
    cur = next ? next : cur + 1;
  }
}

Token &Lexer::pushToken(TokenKind kind, const char *begin) {
  if (atLogicalLineStart) {
    applyIndentation(begin);
    atLogicalLineStart = false;
  }
  Token &token = tokens.emplace_back();
  token.kind = kind;
  token.spelling = llvm::StringRef(begin, cur - begin);
  return token;
}

void Lexer::pushStructureToken(TokenKind kind, const char *at) {
  Token &token = tokens.emplace_back();
  token.kind = kind;
  token.spelling = llvm::StringRef(at, 0);
}

void Lexer::applyIndentation(const char *firstToken) {
  unsigned column = 0;
  for (const char *p = lineStart; p < firstToken && isHorizontalSpace(*p); ++p) {
    if (*p == ' ') {
      ++column;
    } else if (*p == '\t') {
      if (!reportedTab)
        diags.error(loc(p), "tab character in indentation; indent with spaces");
      reportedTab = true;
      column = (column / kTabWidth + 1) * kTabWidth;
    }
  }
  if (column > indents.back().column) {
    indents.push_back({column, false});
    pushStructureToken(TokenKind::indent, firstToken);
    return;
  }
  for (; column < indents.back().column; indents.pop_back())
    if (!indents.back().phantom)
      pushStructureToken(TokenKind::dedent, firstToken);
  if (column > indents.back().column) {
    diags.error(loc(firstToken), "unindent does not match any outer indentation level");
    indents.push_back({column, true});
  }
}

void Lexer::lexToken() {
  char c = *cur;
  if (isIdentifierStart(c))
    return lexIdentifier();
  if (llvm::isDigit(c) || (c == '.' && cur + 1 < end && llvm::isDigit(cur[1])))
    return lexNumber();
  if (c == '"' || c == '\'')
    return lexString();
  if (!lexPunctuation())
    lexInvalidCharacters();
}

void Lexer::lexIdentifier() {
  const char *begin = cur;
  while (cur < end && isIdentifierChar(*cur))
    ++cur;
  pushToken(classifyWord(llvm::StringRef(begin, cur - begin)), begin);
}

/// Consumes digits with single '_' separators between them; returns the
/// number of digits. A '_' not followed by a digit is left for the caller
/// (it then reads as an invalid suffix).
unsigned Lexer::lexDigits(bool (*isDigit)(char)) {
  unsigned digits = 0;
  while (cur < end) {
    if (isDigit(*cur)) {
      ++cur;
      ++digits;
    } else if (*cur == '_' && digits > 0 && cur + 1 < end && isDigit(cur[1])) {
      ++cur;
    } else {
      break;
    }
  }
  return digits;
}

void Lexer::lexNumber() {
  const char *begin = cur;
  auto isDecimal = [](char c) { return llvm::isDigit(c); };
  auto isHex = [](char c) { return llvm::isHexDigit(c); };
  bool isHexLiteral = *cur == '0' && cur + 1 < end && (cur[1] == 'x' || cur[1] == 'X');
  bool isFloat = false;
  bool wellFormed = true;
  if (isHexLiteral) {
    cur += 2;
    if (lexDigits(isHex) == 0) {
      diags.error(loc(begin), "expected hexadecimal digits after '0x'", range(begin, cur));
      wellFormed = false;
    }
  } else {
    lexDigits(isDecimal);
    if (cur < end && *cur == '.') {
      isFloat = true;
      ++cur;
      lexDigits(isDecimal);
    }
    if (cur < end && (*cur == 'e' || *cur == 'E')) {
      const char *exponent = cur + 1;
      if (exponent < end && (*exponent == '+' || *exponent == '-'))
        ++exponent;
      if (exponent < end && llvm::isDigit(*exponent)) {
        isFloat = true;
        cur = exponent;
        lexDigits(isDecimal);
      }
    }
  }
  if (cur < end && isIdentifierChar(*cur)) {
    const char *suffix = cur;
    while (cur < end && isIdentifierChar(*cur))
      ++cur;
    diags.error(loc(suffix),
                "invalid suffix '" + llvm::StringRef(suffix, cur - suffix) + "' on numeric literal",
                range(begin, cur));
    wellFormed = false;
  }
  Token &token = pushToken(isFloat ? TokenKind::floating : TokenKind::integer, begin);
  if (!wellFormed)
    return;
  if (isFloat)
    computeFloatValue(token);
  else
    computeIntegerValue(token, isHexLiteral ? 16 : 10);
}

void Lexer::computeIntegerValue(Token &token, unsigned radix) {
  llvm::StringRef digits = token.spelling;
  if (radix == 16)
    digits = digits.drop_front(2);
  else if (digits.size() > 1 && digits.front() == '0' &&
           digits.find_first_not_of("0_") != llvm::StringRef::npos)
    diags.error(token.getLoc(), "leading zeros are not allowed in a decimal integer literal",
                token.getRange());
  uint64_t value = 0;
  for (char c : digits) {
    if (c == '_')
      continue;
    if (__builtin_mul_overflow(value, uint64_t(radix), &value) ||
        __builtin_add_overflow(value, uint64_t(llvm::hexDigitValue(c)), &value)) {
      diags.error(token.getLoc(), "integer literal is too large for 64 bits", token.getRange());
      return;
    }
  }
  token.intValue = value;
}

void Lexer::computeFloatValue(Token &token) {
  std::string text;
  llvm::copy_if(token.spelling, std::back_inserter(text), [](char c) { return c != '_'; });
  llvm::APFloat value(llvm::APFloat::IEEEdouble());
  auto status = value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    diags.error(token.getLoc(), "invalid float literal", token.getRange());
    return;
  }
  if (*status & llvm::APFloat::opOverflow) {
    diags.error(token.getLoc(), "float literal is out of range", token.getRange());
    return;
  }
  token.floatValue = value.convertToDouble();
}

void Lexer::lexString() {
  const char *begin = cur;
  char quote = *cur;
  bool triple = end - cur >= 3 && cur[1] == quote && cur[2] == quote;
  cur += triple ? 3 : 1;
  std::string value;
  bool reportedBadChar = false;
  auto reportBadChar = [&](const char *p) {
    if (reportedBadChar)
      return;
    std::string what;
    describeInvalidChar(p, end, what);
    diags.error(loc(p), "invalid " + what + " in string literal");
    reportedBadChar = true;
  };
  while (true) {
    bool lineEnds =
        cur < end && (*cur == '\n' || (*cur == '\r' && cur + 1 < end && cur[1] == '\n'));
    if (cur >= end || (!triple && lineEnds)) {
      diags.error(loc(begin), "unterminated string literal");
      break;
    }
    if (*cur == quote && (!triple || (end - cur >= 3 && cur[1] == quote && cur[2] == quote))) {
      cur += triple ? 3 : 1;
      break;
    }
    if (*cur == '\\' && cur + 1 < end && cur[1] != '\n') {
      char escaped = cur[1];
      static constexpr llvm::StringLiteral kEscapes = "nrt0\\'\"";
      static constexpr char kValues[] = "\n\r\t\0\\'\"";
      size_t which = kEscapes.find(escaped);
      if (which == llvm::StringRef::npos) {
        diags.error(loc(cur),
                    "unknown escape sequence '\\" + llvm::Twine(escaped) + "' in string literal",
                    range(cur, cur + 2));
        value.append(cur, 2);
      } else {
        value.push_back(kValues[which]);
      }
      cur += 2;
      continue;
    }
    const char *next = static_cast<unsigned char>(*cur) < 0x80 ? cur + 1 : endOfUtf8Char(cur, end);
    if (!next || isForbiddenControl(*cur)) {
      reportBadChar(cur);
      next = next ? next : cur + 1;
    }
    value.append(cur, next);
    cur = next;
  }
  pushToken(TokenKind::string, begin).stringValue = std::move(value);
}

const SpelledToken *Lexer::matchPunctuation(const char *p) const {
  llvm::StringRef rest(p, end - p);
  const SpelledToken *best = nullptr;
  for (const SpelledToken &punct : kPunctuation)
    if (rest.starts_with(punct.spelling) &&
        (!best || punct.spelling.size() > best->spelling.size()))
      best = &punct;
  return best;
}

bool Lexer::lexPunctuation() {
  const SpelledToken *punct = matchPunctuation(cur);
  if (!punct)
    return false;
  const char *begin = cur;
  cur += punct->spelling.size();
  switch (punct->kind) {
  case TokenKind::l_paren:
  case TokenKind::l_square:
  case TokenKind::l_brace:
    ++bracketDepth;
    break;
  case TokenKind::r_paren:
  case TokenKind::r_square:
  case TokenKind::r_brace:
    // An unmatched closer is the parser's to report; depth never goes negative.
    bracketDepth -= bracketDepth > 0;
    break;
  default:
    break;
  }
  pushToken(punct->kind, begin);
  return true;
}

bool Lexer::startsToken(const char *p) const {
  char c = *p;
  return isHorizontalSpace(c) || c == '\n' || c == '#' || c == '\\' || c == '"' || c == '\'' ||
         isIdentifierChar(c) || matchPunctuation(p);
}

/// Reports a run of characters that cannot start a token as one error, and
/// makes an error token of it.
void Lexer::lexInvalidCharacters() {
  const char *begin = cur;
  std::string what;
  cur = describeInvalidChar(cur, end, what);
  while (cur < end && !startsToken(cur)) {
    std::string ignored;
    cur = describeInvalidChar(cur, end, ignored);
  }
  diags.error(loc(begin), "invalid " + what, range(begin, cur));
  pushToken(TokenKind::error, begin);
}

} // namespace

std::vector<Token> tokenize(const llvm::SourceMgr &sourceMgr, unsigned bufferId,
                            DiagnosticEngine &diags) {
  return Lexer(sourceMgr.getMemoryBuffer(bufferId)->getBuffer(), diags).run();
}

} // namespace cutec
