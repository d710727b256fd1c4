// Parser tests: one per construct, comparing the AST dump.
#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

using cutec::test::parse;
using cutec::test::parseBody;

namespace {

TEST(ParserTest, ModuleLineNamesTheBuffer) {
  EXPECT_EQ(parse("").ast, "Module 'test.cute' @1:1\n");
}

TEST(ParserTest, TupleAssignment) {
  EXPECT_EQ(parseBody("tile_mnk = (128, 1, 64)\n"), R"(Assign @1:1
  target: Name 'tile_mnk' @1:1
  value: Tuple @1:12
    Int 128 @1:13
    Int 1 @1:18
    Int 64 @1:21
)");
}

TEST(ParserTest, TupleTargets) {
  EXPECT_EQ(parseBody("M, K, L = shape\n"), R"(Assign @1:1
  target: Tuple @1:1
    Name 'M' @1:1
    Name 'K' @1:4
    Name 'L' @1:7
  value: Name 'shape' @1:11
)");
}

TEST(ParserTest, SubscriptAndAttributeTargets) {
  EXPECT_EQ(parseBody("gC[tidx, 0] = v\nt.x = 1\n"), R"(Assign @1:1
  target: Subscript @1:1
    base: Name 'gC' @1:1
    index: Name 'tidx' @1:4
    index: Int 0 @1:10
  value: Name 'v' @1:15
Assign @2:1
  target: Attribute 'x' @2:1
    base: Name 't' @2:1
  value: Int 1 @2:7
)");
}

TEST(ParserTest, AugmentedAssignment) {
  EXPECT_EQ(parseBody("res += x\nn //= 2\n"), R"(AugAssign '+=' @1:1
  target: Name 'res' @1:1
  value: Name 'x' @1:8
AugAssign '//=' @2:1
  target: Name 'n' @2:1
  value: Int 2 @2:7
)");
}

TEST(ParserTest, EmptyAndSingletonTuplesAndParens) {
  EXPECT_EQ(parseBody("x = ((), (a,), (a))\n"), R"(Assign @1:1
  target: Name 'x' @1:1
  value: Tuple @1:5
    Tuple @1:6
    Tuple @1:10
      Name 'a' @1:11
    Paren @1:16
      Name 'a' @1:17
)");
}

TEST(ParserTest, ListDisplay) {
  EXPECT_EQ(parseBody("x = [a, 1]\n"), R"(Assign @1:1
  target: Name 'x' @1:1
  value: List @1:5
    Name 'a' @1:6
    Int 1 @1:9
)");
}

TEST(ParserTest, Literals) {
  EXPECT_EQ(parseBody("f(1, 2.5, 'hi', True, False)\n"), R"(ExprStmt @1:1
  expr: Call @1:1
    callee: Name 'f' @1:1
    arg: Int 1 @1:3
    arg: Float 2.5 @1:6
    arg: String "hi" @1:11
    arg: Bool True @1:17
    arg: Bool False @1:23
)");
}

TEST(ParserTest, ArithmeticPrecedence) {
  // a + b * c ** -d  ==  a + (b * (c ** (-d)))
  EXPECT_EQ(parseBody("a + b * c ** -d\n"), R"(ExprStmt @1:1
  expr: Binary '+' @1:1
    lhs: Name 'a' @1:1
    rhs: Binary '*' @1:5
      lhs: Name 'b' @1:5
      rhs: Binary '**' @1:9
        lhs: Name 'c' @1:9
        rhs: Unary '-' @1:14
          operand: Name 'd' @1:15
)");
}

TEST(ParserTest, LeftAssociativity) {
  EXPECT_EQ(parseBody("a - b - c\n"), R"(ExprStmt @1:1
  expr: Binary '-' @1:1
    lhs: Binary '-' @1:1
      lhs: Name 'a' @1:1
      rhs: Name 'b' @1:5
    rhs: Name 'c' @1:9
)");
}

TEST(ParserTest, PowerIsRightAssociativeAndBindsTighterThanUnaryMinus) {
  EXPECT_EQ(parseBody("-a ** b ** c\n"), R"(ExprStmt @1:1
  expr: Unary '-' @1:1
    operand: Binary '**' @1:2
      lhs: Name 'a' @1:2
      rhs: Binary '**' @1:7
        lhs: Name 'b' @1:7
        rhs: Name 'c' @1:12
)");
}

TEST(ParserTest, BooleanAndComparisonPrecedence) {
  // not binds looser than ==, and looser than not, or loosest.
  EXPECT_EQ(parseBody("a or not b == c and d % 2 >= 1\n"), R"(ExprStmt @1:1
  expr: Binary 'or' @1:1
    lhs: Name 'a' @1:1
    rhs: Binary 'and' @1:6
      lhs: Unary 'not' @1:6
        operand: Binary '==' @1:10
          lhs: Name 'b' @1:10
          rhs: Name 'c' @1:15
      rhs: Binary '>=' @1:21
        lhs: Binary '%' @1:21
          lhs: Name 'd' @1:21
          rhs: Int 2 @1:25
        rhs: Int 1 @1:30
)");
}

TEST(ParserTest, CallWithKeywordsAndMethodChain) {
  EXPECT_EQ(parseBody("x.load().to(f32, mode=3)\n"), R"(ExprStmt @1:1
  expr: Call @1:1
    callee: Attribute 'to' @1:1
      base: Call @1:1
        callee: Attribute 'load' @1:1
          base: Name 'x' @1:1
    arg: Name 'f32' @1:13
    keyword 'mode': Int 3 @1:23
)");
}

TEST(ParserTest, SubscriptWithWildcards) {
  EXPECT_EQ(parseBody("gA[tidx, _, bidx]\n"), R"(ExprStmt @1:1
  expr: Subscript @1:1
    base: Name 'gA' @1:1
    index: Name 'tidx' @1:4
    index: Name '_' @1:10
    index: Name 'bidx' @1:13
)");
}

TEST(ParserTest, LayoutOperator) {
  EXPECT_EQ(parseBody("l = (M, K):(K, 1)\n"), R"(Assign @1:1
  target: Name 'l' @1:1
  value: Layout @1:5
    shape: Tuple @1:5
      Name 'M' @1:6
      Name 'K' @1:9
    stride: Tuple @1:12
      Name 'K' @1:13
      Int 1 @1:16
)");
}

TEST(ParserTest, LayoutBindsLooserThanArithmetic) {
  EXPECT_EQ(parseBody("l = 4 * n : 2 + 1\n"), R"(Assign @1:1
  target: Name 'l' @1:1
  value: Layout @1:5
    shape: Binary '*' @1:5
      lhs: Int 4 @1:5
      rhs: Name 'n' @1:9
    stride: Binary '+' @1:13
      lhs: Int 2 @1:13
      rhs: Int 1 @1:17
)");
}

TEST(ParserTest, LayoutBindsTighterThanComma) {
  EXPECT_EQ(parseBody("f(4:1, s=8:2)\n"), R"(ExprStmt @1:1
  expr: Call @1:1
    callee: Name 'f' @1:1
    arg: Layout @1:3
      shape: Int 4 @1:3
      stride: Int 1 @1:5
    keyword 's': Layout @1:10
      shape: Int 8 @1:10
      stride: Int 2 @1:12
)");
}

TEST(ParserTest, NestedLayoutKeepsParentheses) {
  // CuTe's printed ((16,4)):((0,1)) is a rank-1 layout: the Paren is kept.
  EXPECT_EQ(parseBody("l = ((16, 4)):((0, 1))\n"), R"(Assign @1:1
  target: Name 'l' @1:1
  value: Layout @1:5
    shape: Paren @1:5
      Tuple @1:6
        Int 16 @1:7
        Int 4 @1:11
    stride: Paren @1:15
      Tuple @1:16
        Int 0 @1:17
        Int 1 @1:20
)");
}

TEST(ParserTest, LayoutsInsideTuplesAndSubscripts) {
  EXPECT_EQ(parseBody("t = Tensor[f16, (2, 2):(1, 2)]\n"), R"(Assign @1:1
  target: Name 't' @1:1
  value: Subscript @1:5
    base: Name 'Tensor' @1:5
    index: Name 'f16' @1:12
    index: Layout @1:17
      shape: Tuple @1:17
        Int 2 @1:18
        Int 2 @1:21
      stride: Tuple @1:24
        Int 1 @1:25
        Int 2 @1:28
)");
}

TEST(ParserTest, ForLoopWithTupleTarget) {
  EXPECT_EQ(parseBody("for i, j in pairs(n):\n    pass\n"), R"(For @1:1
  target: Tuple @1:5
    Name 'i' @1:5
    Name 'j' @1:8
  iter: Call @1:13
    callee: Name 'pairs' @1:13
    arg: Name 'n' @1:19
  body:
    Pass @2:5
)");
}

TEST(ParserTest, WhileLoop) {
  EXPECT_EQ(parseBody("while n > 1 and ok:\n    n = n // 2\n"), R"(While @1:1
  condition: Binary 'and' @1:7
    lhs: Binary '>' @1:7
      lhs: Name 'n' @1:7
      rhs: Int 1 @1:11
    rhs: Name 'ok' @1:17
  body:
    Assign @2:5
      target: Name 'n' @2:5
      value: Binary '//' @2:9
        lhs: Name 'n' @2:9
        rhs: Int 2 @2:14
)");
  // A suite on the same line.
  EXPECT_EQ(parseBody("while x: x = x - 1\n"), R"(While @1:1
  condition: Name 'x' @1:7
  body:
    Assign @1:10
      target: Name 'x' @1:10
      value: Binary '-' @1:14
        lhs: Name 'x' @1:14
        rhs: Int 1 @1:18
)");
}

TEST(ParserTest, IfElifElse) {
  EXPECT_EQ(parseBody("if a:\n  x = 1\nelif b:\n  x = 2\nelse:\n  return\n"), R"(If @1:1
  condition: Name 'a' @1:4
  then:
    Assign @2:3
      target: Name 'x' @2:3
      value: Int 1 @2:7
  elif: Name 'b' @3:6
  then:
    Assign @4:3
      target: Name 'x' @4:3
      value: Int 2 @4:7
  else:
    Return @6:3
)");
}

TEST(ParserTest, InlineSuite) {
  EXPECT_EQ(parseBody("if a: return a\n"), R"(If @1:1
  condition: Name 'a' @1:4
  then:
    Return @1:7
      value: Name 'a' @1:14
)");
}

TEST(ParserTest, HelperFunctionWithDefaultsAndReturnType) {
  EXPECT_EQ(parseBody("def f(x, n: i32 = 4) -> i32:\n    return x, n\n"), R"(FunctionDef 'f' @1:1
  param: Param 'x' @1:7
  param: Param 'n' @1:10
    annotation: Name 'i32' @1:13
    default: Int 4 @1:19
  returns: Name 'i32' @1:25
  body:
    Return @2:5
      value: Tuple @2:12
        Name 'x' @2:12
        Name 'n' @2:15
)");
}

TEST(ParserTest, DecoratedKernelWithLayoutAnnotation) {
  EXPECT_EQ(
      parseBody("@kernel\n@kernel(block=128)\ndef k(mA: Tensor[f4e2m1, (M,):(1,)]):\n  pass\n"),
      R"(FunctionDef 'k' @3:1
  decorator: Name 'kernel' @1:2
  decorator: Call @2:2
    callee: Name 'kernel' @2:2
    keyword 'block': Int 128 @2:15
  param: Param 'mA' @3:7
    annotation: Subscript @3:11
      base: Name 'Tensor' @3:11
      index: Name 'f4e2m1' @3:18
      index: Layout @3:26
        shape: Tuple @3:26
          Name 'M' @3:27
        stride: Tuple @3:31
          Int 1 @3:32
  body:
    Pass @4:3
)");
}

TEST(ParserTest, AnnotationMayBeABareLayout) {
  EXPECT_EQ(parseBody("def f(l: 4:1):\n  pass\n"), R"(FunctionDef 'f' @1:1
  param: Param 'l' @1:7
    annotation: Layout @1:10
      shape: Int 4 @1:10
      stride: Int 1 @1:12
  body:
    Pass @2:3
)");
}

TEST(ParserTest, TrailingCommas) {
  EXPECT_EQ(parseBody("f(a,)\nx = 1,\n"), R"(ExprStmt @1:1
  expr: Call @1:1
    callee: Name 'f' @1:1
    arg: Name 'a' @1:3
Assign @2:1
  target: Name 'x' @2:1
  value: Tuple @2:5
    Int 1 @2:5
)");
}

TEST(ParserTest, StringEscapesInDump) {
  EXPECT_EQ(parseBody("'a\\n\"b'\n"), R"(ExprStmt @1:1
  expr: String "a\0A\22b" @1:1
)");
}

TEST(ParserTest, CrlfSourceParsesLikeLf) {
  EXPECT_EQ(parseBody("for i in r:\r\n    x += i\r\n"), parseBody("for i in r:\n    x += i\n"));
}

TEST(ParserTest, RangesCoverTheConstruct) {
  cutec::test::SourceFixture fixture("y = (a + b) * c\n");
  auto module = cutec::parseModule(fixture.sourceMgr, fixture.bufferId, fixture.diags);
  const auto &assign = llvm::cast<cutec::ast::AssignStmt>(*module->getBody().front());
  llvm::SMRange range = assign.getValue().getRange();
  EXPECT_EQ(
      llvm::StringRef(range.Start.getPointer(), range.End.getPointer() - range.Start.getPointer()),
      "(a + b) * c");
  const auto &mul = llvm::cast<cutec::ast::BinaryExpr>(assign.getValue());
  EXPECT_EQ(*mul.getOpLoc().getPointer(), '*');
}

} // namespace
