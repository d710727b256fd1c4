// IntExpr: folding of static parts, canonical forms of dynamic ones, printing
// and evaluation.
#include "ir/layout/IntExpr.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

IntExpr M = IntExpr::symbol("M"), K = IntExpr::symbol("K");

TEST(IntExpr, StaticArithmeticFolds) {
  EXPECT_TRUE((IntExpr(6) * IntExpr(7)).isConstant(42));
  EXPECT_TRUE(ceilDiv(IntExpr(7), IntExpr(2)).isConstant(4));
  EXPECT_TRUE((IntExpr(7) / IntExpr(2)).isConstant(3));
  EXPECT_TRUE((IntExpr(7) % IntExpr(4)).isConstant(3));
  EXPECT_TRUE(min(IntExpr(3), IntExpr(9)).isConstant(3));
}

TEST(IntExpr, ProductsAndSumsAreCanonical) {
  EXPECT_EQ(M * K, K * M);
  EXPECT_EQ((IntExpr(2) * M) * (IntExpr(3) * K), IntExpr(6) * K * M);
  EXPECT_EQ((M * K).str(), "K*M");
  EXPECT_EQ((IntExpr(512) * M).str(), "512*M");
  EXPECT_EQ((M + IntExpr(1)) + IntExpr(2), IntExpr(3) + M);
  EXPECT_EQ((M - M).str(), "M-M"); // no cancellation of symbolic terms
  EXPECT_TRUE((IntExpr(0) * M).isConstant(0));
  EXPECT_EQ(IntExpr(1) * M, M);
}

TEST(IntExpr, ExactDivisionSimplifies) {
  EXPECT_EQ((IntExpr(128) * M) / IntExpr(64), IntExpr(2) * M);
  EXPECT_EQ(ceilDiv(IntExpr(128) * M, IntExpr(128)), M);
  EXPECT_EQ((K * M) / K, M);
  EXPECT_TRUE((M / M).isConstant(1));
  EXPECT_TRUE(((IntExpr(4) * M) % IntExpr(2)).isConstant(0));
  EXPECT_EQ(ceilDiv(M, IntExpr(128)).str(), "ceil_div(M,128)");
  EXPECT_EQ((M / IntExpr(3)).str(), "M/3");
  EXPECT_EQ(((M + IntExpr(1)) * K).str(), "K*(M+1)");
}

TEST(IntExpr, MinOfABoundItDoesNotExceedFolds) {
  // A size rounded up to a whole number of tiles is at least the size.
  EXPECT_EQ(min(M, ceilDiv(M, IntExpr(128)) * IntExpr(128)), M);
  EXPECT_EQ(min(ceilDiv(M, IntExpr(128)) * IntExpr(128), M), M);
  // Sizes are at least 1, and so is a positive size's tile count.
  EXPECT_EQ(min(IntExpr(2), ceilDiv(K, IntExpr(64)) * IntExpr(2)), IntExpr(2));
  EXPECT_EQ(min(IntExpr(1), K), IntExpr(1));
  // Nothing is known of these.
  EXPECT_EQ(min(IntExpr(3), ceilDiv(K, IntExpr(64)) * IntExpr(2)).kind(), IntExpr::Kind::Min);
  EXPECT_EQ(min(M, ceilDiv(M, IntExpr(128)) * IntExpr(64)).kind(), IntExpr::Kind::Min);
  EXPECT_EQ(min(M, K).kind(), IntExpr::Kind::Min);
}

TEST(IntExpr, EvaluatesWithBoundSymbols) {
  llvm::StringMap<int64_t> values{{"M", 300}, {"K", 64}};
  EXPECT_EQ(ceilDiv(M, IntExpr(128)).evaluate(values), 3);
  EXPECT_EQ((IntExpr(512) * ceilDiv(K, IntExpr(64)) * M).evaluate(values), 512 * 300);
  EXPECT_EQ(min(M, K).evaluate(values), 64);
  EXPECT_EQ(IntExpr::symbol("L").evaluate(values), std::nullopt);
  EXPECT_EQ((M / (K - K)).evaluate(values), std::nullopt); // division by zero
}

TEST(IntExpr, OverflowWrapsAndIsFlaggedInsteadOfBeingUndefined) {
  IntExpr::clearOverflow();
  EXPECT_TRUE((IntExpr(4) * IntExpr(5)).isConstant(20));
  EXPECT_FALSE(IntExpr::overflowed());
  (void)(IntExpr(INT64_MAX) + IntExpr(1));
  EXPECT_TRUE(IntExpr::overflowed());
  IntExpr::clearOverflow();
  (void)(IntExpr(INT64_MIN) / IntExpr(-1));
  EXPECT_TRUE(IntExpr::overflowed());
  IntExpr::clearOverflow();
  llvm::StringMap<int64_t> huge{{"M", int64_t(1) << 40}, {"K", int64_t(1) << 40}};
  EXPECT_TRUE((M * K).evaluate(huge).has_value());
  EXPECT_TRUE(IntExpr::overflowed());
  IntExpr::clearOverflow();
}

TEST(IntExpr, CollectsSymbolsSortedWithoutDuplicates) {
  std::vector<std::string> names;
  (M * K + ceilDiv(M, IntExpr(4))).collectSymbols(names);
  EXPECT_EQ(names, (std::vector<std::string>{"K", "M"}));
}

} // namespace
} // namespace cutec
