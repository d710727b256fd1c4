// Drawing layouts as index tables (text and SVG).
#include "LayoutTestUtil.h"

#include "ir/layout/LayoutDraw.h"

namespace cutec {
namespace {

IndexTable table(llvm::StringRef expr) {
  LayoutExprResult r = evaluateLayoutExpr(expr);
  EXPECT_TRUE(r.value) << r.error;
  auto t = tabulate(*r.value);
  EXPECT_TRUE(bool(t));
  return t ? *t : IndexTable();
}

TEST(LayoutDraw, TextTableLikePrintLayout) {
  EXPECT_EQ(drawAsText(table("(2,3):(3,1)")), "(2,3):(3,1)\n"
                                               "      0   1   2 \n"
                                               "    +---+---+---+\n"
                                               " 0  | 0 | 1 | 2 |\n"
                                               "    +---+---+---+\n"
                                               " 1  | 3 | 4 | 5 |\n"
                                               "    +---+---+---+\n");
  // Ten indices need two digits.
  EXPECT_NE(drawAsText(table("10:1")).find("|  9 |"), std::string::npos);
}

TEST(LayoutDraw, HigherRanksGroupTheTrailingModes) {
  IndexTable t = table("(2,2,2):(1,2,4)");
  EXPECT_EQ(t.rows, 2);
  EXPECT_EQ(t.cols, 4);
  EXPECT_EQ(t.cells, (std::vector<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
  IndexTable column = table("4:3");
  EXPECT_EQ(column.rows, 4);
  EXPECT_EQ(column.cols, 1);
}

TEST(LayoutDraw, SwizzledLayoutsShowTheSwizzledIndices) {
  IndexTable t = table("S<1,0,1> o 0 o (2,2):(1,2)");
  EXPECT_EQ(t.cells, (std::vector<int64_t>{0, 3, 1, 2}));
}

TEST(LayoutDraw, SvgHasOneCellPerIndexAndEscapesTheTitle) {
  std::string svg = drawAsSvg(table("S<1,0,1> o 0 o (2,2):(1,2)"));
  EXPECT_NE(svg.find("<title>S&lt;1,0,1&gt; o 0 o (2,2):(1,2)</title>"), std::string::npos);
  size_t rects = 0;
  for (size_t p = svg.find("<rect"); p != std::string::npos; p = svg.find("<rect", p + 1))
    ++rects;
  EXPECT_EQ(rects, 4u);
}

TEST(LayoutDraw, DynamicAndNonLayoutValuesAreErrors) {
  auto dyn = tabulate(LayoutValue(Layout(IntExpr::symbol("M"), 1)));
  ASSERT_FALSE(bool(dyn));
  EXPECT_NE(llvm::toString(dyn.takeError()).find("cannot draw the dynamic layout"),
            std::string::npos);
  auto tuple = tabulate(LayoutValue(tup(2, 3)));
  ASSERT_FALSE(bool(tuple));
  EXPECT_NE(llvm::toString(tuple.takeError()).find("only layouts can be drawn"),
            std::string::npos);
  auto huge = tabulate(LayoutValue(makeLayout(tup(4096, 4096))));
  ASSERT_FALSE(bool(huge));
  llvm::consumeError(huge.takeError());
}

} // namespace
} // namespace cutec
