// Lexer tests: each token class, literal values, and the indentation and
// line-structure rules (INDENT/DEDENT/NEWLINE, brackets, blank lines, CRLF).
#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

using cutec::test::lex;

namespace {

TEST(LexerTest, IdentifiersAndKeywords) {
  EXPECT_EQ(
      lex("def for while in if elif else return and or not True False pass break continue None "
          "is _ x_1 Tensor\n")
          .tokens,
      "def for while in if elif else return and or not True False pass break continue None is "
      "id:_ "
      "id:x_1 id:Tensor NEWLINE EOF");
}

TEST(LexerTest, PythonKeywordsAreReserved) {
  EXPECT_EQ(lex("class with lambda\n").tokens,
            "reserved:class reserved:with reserved:lambda NEWLINE EOF");
}

TEST(LexerTest, IntegerLiterals) {
  EXPECT_EQ(lex("0 42 1_000 0x1F 0XfF_ff 18446744073709551615\n").tokens,
            "int:0 int:42 int:1000 int:31 int:65535 int:18446744073709551615 NEWLINE EOF");
}

TEST(LexerTest, FloatLiterals) {
  EXPECT_EQ(lex("1.0 1e-3 .5 2. 1_0.2_5 3E+2\n").tokens,
            "float:1.000000 float:0.001000 float:0.500000 float:2.000000 float:10.250000 "
            "float:300.000000 NEWLINE EOF");
}

TEST(LexerTest, StringLiterals) {
  EXPECT_EQ(lex("'a' \"b c\" 'it\\'s' \"tab\\there\" ''\n").tokens,
            "str:<a> str:<b c> str:<it's> str:<tab\there> str:<> NEWLINE EOF");
}

TEST(LexerTest, TripleQuotedStringSpansLines) {
  EXPECT_EQ(lex("\"\"\"doc\nstring\"\"\"\nx\n").tokens,
            "str:<doc\nstring> NEWLINE id:x NEWLINE EOF");
}

TEST(LexerTest, Operators) {
  EXPECT_EQ(
      lex("+ - * / // % ** == != < <= > >= = += -= *= /= //= %= , : . @ ( ) [ ] -> { }\n").tokens,
      "+ - * / // % ** == != < <= > >= = += -= *= /= //= %= , : . @ ( ) [ ] -> { } NEWLINE "
      "EOF");
}

TEST(LexerTest, LongestMatchWithoutSpaces) {
  EXPECT_EQ(lex("a**-b//=c->d\n").tokens, "id:a ** - id:b //= id:c -> id:d NEWLINE EOF");
}

TEST(LexerTest, CommentsAreSkipped) {
  EXPECT_EQ(lex("x = 1  # the answer\n# whole line\ny\n").tokens,
            "id:x = int:1 NEWLINE id:y NEWLINE EOF");
}

TEST(LexerTest, IndentAndDedent) {
  EXPECT_EQ(lex("if a:\n    b\n    if c:\n        d\ne\n").tokens,
            "if id:a : NEWLINE INDENT id:b NEWLINE if id:c : NEWLINE INDENT id:d NEWLINE DEDENT "
            "DEDENT id:e NEWLINE EOF");
}

TEST(LexerTest, DedentsAtEndOfFile) {
  EXPECT_EQ(lex("if a:\n  if b:\n    c").tokens,
            "if id:a : NEWLINE INDENT if id:b : NEWLINE INDENT id:c NEWLINE DEDENT DEDENT EOF");
}

TEST(LexerTest, BlankAndCommentLinesDoNotAffectIndentation) {
  EXPECT_EQ(lex("if a:\n\n    b\n  # odd comment\n\n    c\n").tokens,
            "if id:a : NEWLINE INDENT id:b NEWLINE id:c NEWLINE DEDENT EOF");
}

TEST(LexerTest, BracketsJoinLines) {
  EXPECT_EQ(lex("f(a,\n      b,\n  c)\nd\n").tokens,
            "id:f ( id:a , id:b , id:c ) NEWLINE id:d NEWLINE EOF");
}

TEST(LexerTest, CrlfLineEndings) {
  EXPECT_EQ(lex("if a:\r\n    b\r\nc\r\n").tokens,
            "if id:a : NEWLINE INDENT id:b NEWLINE DEDENT id:c NEWLINE EOF");
}

TEST(LexerTest, EmptyAndBlankFiles) {
  EXPECT_EQ(lex("").tokens, "EOF");
  EXPECT_EQ(lex("\n\n  \n# only a comment").tokens, "EOF");
}

TEST(LexerTest, NoTrailingNewline) { EXPECT_EQ(lex("x = 1").tokens, "id:x = int:1 NEWLINE EOF"); }

TEST(LexerTest, StatementKeywordClosesUnbalancedBracket) {
  // Recovery: a missing ')' does not swallow the following definition.
  EXPECT_EQ(lex("x = f(1\ndef g():\n  pass\n").tokens,
            "id:x = id:f ( int:1 NEWLINE def id:g ( ) : NEWLINE INDENT pass NEWLINE DEDENT EOF");
}

TEST(LexerTest, TabIndentationIsReportedOnceAndCountsToEight) {
  cutec::test::LexResult result = lex("if a:\n\tb\n\tc\n        d\n");
  EXPECT_EQ(result.tokens,
            "if id:a : NEWLINE INDENT id:b NEWLINE id:c NEWLINE id:d NEWLINE DEDENT EOF");
  // SourceMgr prints the tab expanded, with the caret spanning it.
  EXPECT_EQ(result.diagnostics, "test.cute:2:1: error: tab character in indentation; indent "
                                "with spaces\n        b\n^^^^^^^^\n");
}

TEST(LexerTest, BadUnindentJoinsTheEnclosingBlockAndReportsOnce) {
  // `c` leaves the if block; its column becomes a phantom level, so `d` at
  // the same column is not reported again and `e` needs no extra DEDENT.
  cutec::test::LexResult result = lex("if a:\n    b\n  c\n  d\ne\n");
  EXPECT_EQ(result.tokens,
            "if id:a : NEWLINE INDENT id:b NEWLINE DEDENT id:c NEWLINE id:d NEWLINE id:e NEWLINE "
            "EOF");
  EXPECT_EQ(result.diagnostics, "test.cute:3:3: error: unindent does not match any outer "
                                "indentation level\n  c\n  ^\n");
}

TEST(LexerTest, NonAsciiIsAllowedInStringsAndComments) {
  cutec::test::LexResult result = lex("s = 'λ → µ'  # größe\n");
  EXPECT_EQ(result.tokens, "id:s = str:<λ → µ> NEWLINE EOF");
  EXPECT_EQ(result.diagnostics, "");
}

} // namespace
