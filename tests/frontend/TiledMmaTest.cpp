// The tiled-MMA partitions of frontend/TiledMma.h that the lit tests see
// only through printed types: one CTA's share of a pair's tiles and the
// accumulator's tensor-memory layout (make_fragment_C).
#include "frontend/TiledMma.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

TiledMma f16Atom(int64_t m, int64_t n, int ctaGroup) {
  TiledMma mma;
  mma.op = "MmaF16BF16Op";
  mma.m = m;
  mma.n = n;
  mma.ctaGroup = ctaGroup;
  return mma;
}

IntTuple tuple(std::vector<IntTuple> e) { return IntTuple::tuple(std::move(e)); }

TEST(TiledMmaTest, PairInstructionTileIsEachCtasHalf) {
  TiledMma pair = f16Atom(256, 256, 2);
  EXPECT_EQ(instructionTile(pair, MmaOperand::A), std::make_pair(int64_t(128), int64_t(16)));
  EXPECT_EQ(instructionTile(pair, MmaOperand::B), std::make_pair(int64_t(128), int64_t(16)));
  EXPECT_EQ(instructionTile(pair, MmaOperand::C), std::make_pair(int64_t(128), int64_t(256)));
  TiledMma one = f16Atom(128, 256, 1);
  EXPECT_EQ(instructionTile(one, MmaOperand::C), std::make_pair(int64_t(128), int64_t(256)));
}

TEST(TiledMmaTest, CtaShareHalvesTheFirstModeOfAPairOnly) {
  IntTuple tile = tuple({IntTuple(256), IntTuple(64), IntTuple(3)});
  EXPECT_EQ(ctaShare(f16Atom(256, 256, 2), tile).str(), "(128,64,3)");
  EXPECT_EQ(ctaShare(f16Atom(128, 256, 1), tile).str(), "(256,64,3)");
  // An odd extent is left for partitionLayout to report.
  EXPECT_EQ(ctaShare(f16Atom(256, 256, 2), tuple({IntTuple(255), IntTuple(64)})).str(), "(255,64)");
}

TEST(TiledMmaTest, AccumulatorLanesThenColumns) {
  TiledMma one = f16Atom(128, 128, 1);
  llvm::Expected<Layout> staged =
      accumulatorLayout(one, tuple({IntTuple(128), IntTuple(256), IntTuple(2)}));
  ASSERT_TRUE(bool(staged)) << llvm::toString(staged.takeError());
  EXPECT_EQ(staged->str(), "((128,128),1,2,2):((65536,1),0,128,256)");
  // Row 5, column 44 of N tile 1 of stage 1: lane 5, column 44 + 128 + 256.
  llvm::Expected<IntExpr> cell = crd2idx(
      tuple({tuple({IntTuple(5), IntTuple(44)}), IntTuple(0), IntTuple(1), IntTuple(1)}), *staged);
  ASSERT_TRUE(bool(cell)) << llvm::toString(cell.takeError());
  EXPECT_EQ(cell->getStatic(), int64_t(5 << 16) + 428);
}

TEST(TiledMmaTest, AccumulatorOfAPairFromThePairsTile) {
  llvm::Expected<Layout> l =
      accumulatorLayout(f16Atom(256, 256, 2), tuple({IntTuple(256), IntTuple(256)}));
  ASSERT_TRUE(bool(l)) << llvm::toString(l.takeError());
  EXPECT_EQ(l->str(), "((128,256),1,1):((65536,1),0,256)");
}

TEST(TiledMmaTest, AccumulatorErrors) {
  TiledMma one = f16Atom(128, 256, 1);
  auto message = [&](const IntTuple &shape) {
    llvm::Expected<Layout> l = accumulatorLayout(one, shape);
    return l ? std::string("no error") : llvm::toString(l.takeError());
  };
  EXPECT_NE(message(tuple({IntTuple(128), IntTuple(256), IntTuple(3)})).find("768 columns"),
            std::string::npos);
  EXPECT_NE(message(tuple({IntTuple(256), IntTuple(256)})).find("MMA_M = 1"), std::string::npos);
  EXPECT_NE(message(tuple({IntTuple(128), IntTuple(100)})).find("does not divide"),
            std::string::npos);
}

} // namespace
} // namespace cutec
