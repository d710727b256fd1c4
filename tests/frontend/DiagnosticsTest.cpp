// Diagnostic tests: one per user mistake, named after it, each checking the
// exact text printed (location, message, source line, caret and range).
#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

using cutec::test::diagnose;
using cutec::test::parse;

namespace {

// Lexical mistakes.

TEST(DiagnosticsTest, InvalidCharacter) {
  EXPECT_EQ(diagnose("x = $\n"), "test.cute:1:5: error: invalid character '$'\nx = $\n    ^\n");
}

TEST(DiagnosticsTest, RunOfInvalidCharactersIsOneError) {
  EXPECT_EQ(diagnose("x = 1 $$ 2\n"),
            "test.cute:1:7: error: invalid character '$'\nx = 1 $$ 2\n      ^~\n");
}

TEST(DiagnosticsTest, NulByte) {
  EXPECT_EQ(parse(llvm::StringRef("x = 1\0\n", 7)).errorCount, 1u);
  EXPECT_EQ(llvm::StringRef(parse(llvm::StringRef("x = 1\0\n", 7)).diagnostics).split('\n').first,
            "test.cute:1:6: error: invalid character U+0000");
}

TEST(DiagnosticsTest, InvalidUtf8) {
  cutec::test::ParseResult result = parse("x = \xff\xfe\n");
  EXPECT_EQ(result.errorCount, 1u);
  EXPECT_EQ(llvm::StringRef(result.diagnostics).split('\n').first,
            "test.cute:1:5: error: invalid UTF-8 byte 0xFF");
}

TEST(DiagnosticsTest, InvalidUtf8InComment) {
  EXPECT_EQ(llvm::StringRef(diagnose("x = 1 # \xc3\n")).split('\n').first,
            "test.cute:1:9: error: invalid UTF-8 byte 0xC3 in comment");
}

TEST(DiagnosticsTest, NonAsciiCharacterOutsideString) {
  EXPECT_EQ(llvm::StringRef(diagnose("x = a \xe2\x80\x99 b\n")).split('\n').first,
            "test.cute:1:7: error: invalid character U+2019");
}

TEST(DiagnosticsTest, UnterminatedString) {
  EXPECT_EQ(diagnose("s = 'abc\n"),
            "test.cute:1:5: error: unterminated string literal\ns = 'abc\n    ^\n");
}

TEST(DiagnosticsTest, UnterminatedTripleQuotedString) {
  EXPECT_EQ(diagnose("x = 1\ns = \"\"\"abc\n\n"),
            "test.cute:2:5: error: unterminated string literal\ns = \"\"\"abc\n    ^\n");
}

TEST(DiagnosticsTest, UnknownEscape) {
  EXPECT_EQ(diagnose("x = 'a\\q'\n"), "test.cute:1:7: error: unknown escape sequence '\\q' in "
                                      "string literal\nx = 'a\\q'\n      ^~\n");
}

TEST(DiagnosticsTest, HexPrefixWithoutDigits) {
  EXPECT_EQ(diagnose("x = 0x\n"),
            "test.cute:1:5: error: expected hexadecimal digits after '0x'\nx = 0x\n    ^~\n");
}

TEST(DiagnosticsTest, SuffixOnNumber) {
  EXPECT_EQ(diagnose("x = 12abc\n"),
            "test.cute:1:7: error: invalid suffix 'abc' on numeric literal\nx = 12abc\n"
            "    ~~^~~\n");
}

TEST(DiagnosticsTest, MisplacedUnderscoreInNumber) {
  EXPECT_EQ(diagnose("x = 1__0\n"),
            "test.cute:1:6: error: invalid suffix '__0' on numeric literal\nx = 1__0\n    ~^~~\n");
}

TEST(DiagnosticsTest, LeadingZeros) {
  EXPECT_EQ(diagnose("x = 0123\n"), "test.cute:1:5: error: leading zeros are not allowed in a "
                                    "decimal integer literal\nx = 0123\n    ^~~~\n");
}

TEST(DiagnosticsTest, IntegerTooLarge) {
  EXPECT_EQ(diagnose("x = 18446744073709551616\n"),
            "test.cute:1:5: error: integer literal is too large for 64 bits\n"
            "x = 18446744073709551616\n    ^~~~~~~~~~~~~~~~~~~~\n");
}

TEST(DiagnosticsTest, FloatOutOfRange) {
  EXPECT_EQ(diagnose("x = 1e999\n"),
            "test.cute:1:5: error: float literal is out of range\nx = 1e999\n    ^~~~~\n");
}

TEST(DiagnosticsTest, BackslashContinuation) {
  // Reported, then the lines are joined so the statement still parses.
  EXPECT_EQ(diagnose("x = 1 \\\n  + 2\n"),
            "test.cute:1:7: error: line continuation with '\\' is not supported; break the line "
            "inside parentheses instead\nx = 1 \\\n      ^\n");
}

TEST(DiagnosticsTest, TabIndentation) {
  EXPECT_EQ(diagnose("if a:\n\tpass\n"),
            "test.cute:2:1: error: tab character in indentation; indent with spaces\n"
            "        pass\n^^^^^^^^\n");
}

TEST(DiagnosticsTest, InvalidCharacterIsNotReportedTwice) {
  // The parser stops at the lexer's error token without a message (or note)
  // of its own.
  EXPECT_EQ(diagnose("x = (1 $\n"), "test.cute:1:8: error: invalid character '$'\nx = (1 $\n"
                                    "       ^\n");
}

// Indentation mistakes.

TEST(DiagnosticsTest, UnexpectedIndent) {
  EXPECT_EQ(diagnose("x = 1\n    y = 2\n"),
            "test.cute:2:5: error: unexpected indent\n    y = 2\n    ^\n");
}

TEST(DiagnosticsTest, IndentedFirstLine) {
  EXPECT_EQ(diagnose("  x = 1\n"), "test.cute:1:3: error: unexpected indent\n  x = 1\n  ^\n");
}

TEST(DiagnosticsTest, UnindentToUnknownLevel) {
  EXPECT_EQ(diagnose("if a:\n        b\n    c\n"),
            "test.cute:3:5: error: unindent does not match any outer indentation level\n"
            "    c\n    ^\n");
}

TEST(DiagnosticsTest, MissingIndentedBlock) {
  EXPECT_EQ(diagnose("def f(x):\nreturn x\n"),
            "test.cute:2:1: error: expected an indented block after function definition on line "
            "1\nreturn x\n^\n");
}

TEST(DiagnosticsTest, MissingIndentedBlockAtEndOfFile) {
  EXPECT_EQ(diagnose("for i in r:\n"),
            "test.cute:2:1: error: expected an indented block after 'for' statement on line 1\n"
            "\n^\n");
}

// Syntax mistakes.

TEST(DiagnosticsTest, UnclosedParenthesis) {
  EXPECT_EQ(diagnose("x = (1, 2\n"), "test.cute:1:10: error: expected ')' to close '(', found "
                                     "end of line\nx = (1, 2\n         ^\n"
                                     "test.cute:1:5: note: '(' opened here\nx = (1, 2\n    ^\n");
}

TEST(DiagnosticsTest, UnclosedCallBeforeNextStatement) {
  EXPECT_EQ(diagnose("x = f(a, b\ny = 2\n"),
            "test.cute:2:1: error: expected ')' to close '(', found identifier 'y'\ny = 2\n^\n"
            "test.cute:1:6: note: '(' opened here\nx = f(a, b\n     ^\n");
}

TEST(DiagnosticsTest, MismatchedBracket) {
  EXPECT_EQ(diagnose("x = [1, 2)\n"),
            "test.cute:1:10: error: expected ']' to close '[', found ')'\nx = [1, 2)\n         ^\n"
            "test.cute:1:5: note: '[' opened here\nx = [1, 2)\n    ^\n");
}

TEST(DiagnosticsTest, MissingColonAfterForHeader) {
  EXPECT_EQ(diagnose("for k in range(n)\n    pass\n"),
            "test.cute:1:18: error: expected ':' after 'for' header, found end of line\n"
            "for k in range(n)\n                 ^\n");
}

TEST(DiagnosticsTest, AssignmentInIfCondition) {
  EXPECT_EQ(diagnose("if x = 1:\n  pass\n"),
            "test.cute:1:6: error: expected ':' after 'if' header, found '='\nif x = 1:\n     ^\n");
}

TEST(DiagnosticsTest, MissingInAfterForTarget) {
  EXPECT_EQ(diagnose("for k range(n):\n  pass\n"),
            "test.cute:1:7: error: expected 'in' after 'for' target, found identifier 'range'\n"
            "for k range(n):\n      ^~~~~\n");
}

TEST(DiagnosticsTest, MissingExpression) {
  EXPECT_EQ(diagnose("x = \n"),
            "test.cute:1:4: error: expected expression, found end of line\nx = \n   ^\n");
}

TEST(DiagnosticsTest, TwoExpressionsOnALine) {
  EXPECT_EQ(diagnose("x = 1 2\n"), "test.cute:1:7: error: expected end of line after statement, "
                                   "found integer literal '2'\nx = 1 2\n      ^\n");
}

TEST(DiagnosticsTest, UnsupportedPythonKeyword) {
  EXPECT_EQ(diagnose("for x in y:\n  class\n"),
            "test.cute:2:3: error: 'class' is not supported in the kernel language\n  class\n"
            "  ^~~~~\n");
}

TEST(DiagnosticsTest, WhileElse) {
  EXPECT_EQ(diagnose("while x:\n  pass\nelse:\n  pass\ny = 1\n"),
            "test.cute:3:1: error: 'else' after a 'while' loop is not supported; write its "
            "statements after the loop\nelse:\n^~~~\n");
}

TEST(DiagnosticsTest, ReservedWordInExpression) {
  EXPECT_EQ(diagnose("f = lambda x: x\n"),
            "test.cute:1:5: error: 'lambda' is not supported in the kernel language\n"
            "f = lambda x: x\n    ^~~~~~\n");
}

TEST(DiagnosticsTest, ElseWithoutIf) {
  EXPECT_EQ(diagnose("else:\n  pass\n"),
            "test.cute:1:1: error: 'else' without a matching 'if'\nelse:\n^~~~\n");
}

TEST(DiagnosticsTest, SliceInSubscript) {
  EXPECT_EQ(diagnose("x = a[:, 0]\n"), "test.cute:1:7: error: slices are not supported; index a "
                                       "whole mode with '_'\nx = a[:, 0]\n      ^\n");
}

TEST(DiagnosticsTest, OpenEndedSlice) {
  EXPECT_EQ(diagnose("x = a[1:]\n"), "test.cute:1:8: error: slices are not supported; index a "
                                     "whole mode with '_'\nx = a[1:]\n       ^\n");
}

TEST(DiagnosticsTest, LayoutWithoutStride) {
  EXPECT_EQ(diagnose("x = (1:)\n"), "test.cute:1:8: error: expected layout stride after ':', "
                                    "found ')'\nx = (1:)\n       ^\n");
}

TEST(DiagnosticsTest, ChainedLayout) {
  EXPECT_EQ(diagnose("x = 1:2:3\n"),
            "test.cute:1:8: error: unexpected ':' after a layout's stride; parenthesise a layout "
            "used as a shape or stride\nx = 1:2:3\n       ^\n");
}

TEST(DiagnosticsTest, ChainedComparison) {
  EXPECT_EQ(diagnose("a < b < c\n"), "test.cute:1:7: error: comparisons cannot be chained; "
                                     "combine them with 'and'\na < b < c\n      ^\n");
}

TEST(DiagnosticsTest, PositionalAfterKeywordArgument) {
  EXPECT_EQ(diagnose("f(a=1, 2)\n"), "test.cute:1:8: error: positional argument follows keyword "
                                     "argument\nf(a=1, 2)\n       ^\n");
}

TEST(DiagnosticsTest, AssignToLiteral) {
  EXPECT_EQ(diagnose("1 = x\n"), "test.cute:1:1: error: cannot assign to a literal\n1 = x\n^\n");
}

TEST(DiagnosticsTest, AssignToCall) {
  EXPECT_EQ(diagnose("f() = x\n"),
            "test.cute:1:1: error: cannot assign to a function call\nf() = x\n^~~\n");
}

TEST(DiagnosticsTest, AnnotatedAssignment) {
  EXPECT_EQ(diagnose("x: i32 = 0\n"),
            "test.cute:1:1: error: cannot assign to a layout; annotated assignments like 'x: T = "
            "v' are not supported\nx: i32 = 0\n^~~~~~\n");
}

TEST(DiagnosticsTest, AugmentedAssignmentToTuple) {
  EXPECT_EQ(diagnose("a, b += 1\n"), "test.cute:1:1: error: the target of an augmented "
                                     "assignment must be a name, subscript or attribute\n"
                                     "a, b += 1\n^~~~\n");
}

TEST(DiagnosticsTest, ChainedAssignment) {
  EXPECT_EQ(diagnose("x = y = 1\n"),
            "test.cute:1:7: error: chained assignment is not supported\nx = y = 1\n      ^\n");
}

TEST(DiagnosticsTest, DefWithoutName) {
  EXPECT_EQ(diagnose("def (x):\n  pass\n"), "test.cute:1:5: error: expected function name after "
                                            "'def', found '('\ndef (x):\n    ^\n");
}

TEST(DiagnosticsTest, DefWithoutParameterList) {
  EXPECT_EQ(diagnose("def f x:\n  pass\n"), "test.cute:1:7: error: expected '(' after function "
                                            "name, found identifier 'x'\ndef f x:\n      ^\n");
}

TEST(DiagnosticsTest, StarredParameter) {
  EXPECT_EQ(diagnose("def f(*args):\n  pass\n"), "test.cute:1:7: error: expected parameter "
                                                 "name, found '*'\ndef f(*args):\n      ^\n");
}

TEST(DiagnosticsTest, DecoratorWithoutDef) {
  EXPECT_EQ(diagnose("@kernel\nx = 1\n"), "test.cute:2:1: error: expected 'def' after "
                                          "decorator, found identifier 'x'\nx = 1\n^\n");
}

TEST(DiagnosticsTest, DecoratorIsNotACall) {
  EXPECT_EQ(diagnose("@a + b\ndef f():\n  pass\n"),
            "test.cute:1:2: error: a decorator must be a name or a call\n@a + b\n ^~~~~\n");
}

TEST(DiagnosticsTest, MissingAttributeName) {
  EXPECT_EQ(diagnose("x = a.\n"), "test.cute:1:7: error: expected attribute name after '.', "
                                  "found end of line\nx = a.\n      ^\n");
}

TEST(DiagnosticsTest, EmptySubscript) {
  EXPECT_EQ(diagnose("x = a[]\n"),
            "test.cute:1:7: error: expected index, found ']'\nx = a[]\n      ^\n");
}

// Recovery.

TEST(DiagnosticsTest, EveryBrokenStatementIsReported) {
  cutec::test::ParseResult result = parse("x = (1\n"
                                          "y = 2\n"
                                          "def f(a):\n"
                                          "    b = a +\n"
                                          "    return b\n"
                                          "z = ]\n"
                                          "for i in r\n"
                                          "    q = = 1\n"
                                          "w = 3\n");
  EXPECT_EQ(result.errorCount, 5u) << result.diagnostics;
  EXPECT_EQ(result.diagnostics,
            "test.cute:2:1: error: expected ')' to close '(', found identifier 'y'\ny = 2\n^\n"
            "test.cute:1:5: note: '(' opened here\nx = (1\n    ^\n"
            "test.cute:4:12: error: expected expression, found end of line\n    b = a +\n"
            "           ^\n"
            "test.cute:6:5: error: expected expression, found ']'\nz = ]\n    ^\n"
            "test.cute:7:11: error: expected ':' after 'for' header, found end of line\n"
            "for i in r\n          ^\n"
            "test.cute:8:9: error: expected expression, found '='\n    q = = 1\n        ^\n");
  // The statements around the errors survive.
  EXPECT_NE(result.ast.find("Return @5:5"), std::string::npos);
  EXPECT_NE(result.ast.find("Name 'w' @9:1"), std::string::npos);
}

TEST(DiagnosticsTest, ErrorsInsideAStrayBlockAreReported) {
  cutec::test::ParseResult result = parse("x = 1\n  y = (\n  z = 1 1\n");
  EXPECT_EQ(result.errorCount, 2u) << result.diagnostics;
}

TEST(DiagnosticsTest, ErrorLimitStopsTheFlood) {
  std::string source;
  for (int i = 0; i < 200; ++i)
    source += "x = )\n";
  cutec::test::ParseResult result = parse(source);
  EXPECT_EQ(result.errorCount, 51u);
  EXPECT_TRUE(llvm::StringRef(result.diagnostics)
                  .ends_with("error: too many errors emitted, stopping now\n"));
}

TEST(DiagnosticsTest, NamedBufferAppearsInMessages) {
  cutec::test::SourceFixture fixture("x = $\n", "kernels/gemv.cute");
  cutec::parseModule(fixture.sourceMgr, fixture.bufferId, fixture.diags);
  EXPECT_TRUE(llvm::StringRef(fixture.diagText).starts_with("kernels/gemv.cute:1:5: error:"));
  EXPECT_TRUE(fixture.diags.hasErrors());
}

} // namespace
