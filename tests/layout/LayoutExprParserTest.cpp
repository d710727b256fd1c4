// The expression parser: notation, precedence, and errors with their offsets.
#include "LayoutTestUtil.h"

namespace cutec {
namespace {

using test::eval;

TEST(LayoutExprParser, Notation) {
  EXPECT_EQ(eval("  ( 4 , ( 2 , 2 ) ) : ( 1 , ( 4 , 8 ) ) "), "(4,(2,2)):(1,(4,8))");
  EXPECT_EQ(eval("(4)"), "(4)");
  EXPECT_EQ(eval("()"), "()");
  EXPECT_EQ(eval("_"), "_");
  EXPECT_EQ(eval("[4:1,_,(2,2)]"), "[4:1,_,[2:1,2:1]]");
  EXPECT_EQ(eval("S<3,4,3> o 0 o 8:1"), "S<3,4,3> o 0 o 8:1");
  EXPECT_EQ(eval("Sw<1,4,3> o 8:1"), "S<1,4,3> o 0 o 8:1");
}

TEST(LayoutExprParser, ArithmeticPrecedenceAndGrouping) {
  EXPECT_EQ(eval("2+3*4"), "14");
  EXPECT_EQ(eval("(2+3)*4"), "20");
  EXPECT_EQ(eval("-3+10"), "7");
  EXPECT_EQ(eval("(M,K):(1,M)"), "(M,K):(1,M)");
  EXPECT_EQ(eval("(M*K):(2*K+1)"), "(K*M):(2*K+1)");
  EXPECT_EQ(eval("7/2"), "3");
  EXPECT_EQ(eval("7%4"), "3");
}

struct ParseError {
  const char *text;
  const char *message;
  size_t offset;
};

TEST(LayoutExprParser, ErrorsPointAtTheirColumn) {
  const ParseError cases[] = {
      {"(4,2", "expected ')' to close the tuple, found end of input", 4},
      {"(4,2]", "expected ')' to close the tuple, found ']'", 4},
      {"size((4,2):(1,4)", "expected ')' to close the argument list of size, found end of input", 16},
      {"frobnicate(4)", "unknown function 'frobnicate'", 0},
      {"4:1 7", "unexpected '7' after the expression", 4},
      {"(0,2):(1,1)", "shape extents must be positive integers or names, found 0", 0},
      {"4/0", "division by zero", 2},
      {"(2,2)*3", "arithmetic needs integers, not the tuple (2,2)", 0},
      {"99999999999999999999", "integer literal is too large", 0},
      {"S<3,4>", "expected ',' in S<B,M,S>, found '>'", 5},
      {"8:1 o 4:1", "only a swizzle can be composed with 'o' here", 0},
      {"(2,8:1)", "a tuple holds integers and tuples, not the layout 8:1", 0},
      {"", "expected an expression, found end of input", 0},
      {"$", "expected an expression, found '$'", 0},
  };
  for (const ParseError &c : cases) {
    LayoutExprResult r = evaluateLayoutExpr(c.text);
    EXPECT_FALSE(r.value) << c.text;
    EXPECT_EQ(r.error, c.message) << c.text;
    EXPECT_EQ(r.errorOffset, c.offset) << c.text;
  }
}

TEST(LayoutExprParser, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '(');
  LayoutExprResult r = evaluateLayoutExpr(deep);
  EXPECT_FALSE(r.value);
  EXPECT_EQ(r.error, "expression is nested too deeply");
}

TEST(LayoutExprParser, EvaluationErrorsPointAtTheCall) {
  LayoutExprResult r = evaluateLayoutExpr("size(complement((2,2):(1,1)))");
  EXPECT_FALSE(r.value);
  EXPECT_EQ(r.errorOffset, 5u);
}

} // namespace
} // namespace cutec
