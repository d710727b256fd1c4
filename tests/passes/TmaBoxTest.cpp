// planTmaBox: the tensor-map dimensions and box of a tile from the leaves
// of the tensor's layout. Flat layouts keep one dimension per mode (the
// stride-1 one first); nested ones lose their broadcast leaves and merge
// contiguous whole leaves where TMA needs it; tiles TMA cannot express are
// refused with the reason.
#include "passes/lowering/TmaBox.h"

#include "ir/layout/LayoutExprParser.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

Layout layoutOf(llvm::StringRef text) {
  LayoutExprResult r = evaluateLayoutExpr(text);
  EXPECT_TRUE(r.value && r.value->get<Layout>()) << text.str() << ": " << r.error;
  return r.value && r.value->get<Layout>() ? *r.value->get<Layout>() : Layout();
}

/// "dims (extent:stride box ...)" of a plan, for compact expectations.
std::string dimsText(const TmaBoxPlan &plan) {
  std::string text;
  for (const TmaBoxDim &d : plan.dims)
    text += (text.empty() ? "" : " ") + d.extent.str() + ":" + d.stride.str() + "/" +
            std::to_string(d.box);
  return text;
}

TmaBoxPlan plan(llvm::StringRef tensor, std::vector<int64_t> tiler, unsigned bits,
                int64_t rowBytes = 16) {
  llvm::Expected<TmaBoxPlan> p = planTmaBox(layoutOf(tensor), tiler, bits, rowBytes);
  EXPECT_TRUE(bool(p)) << (p ? "" : llvm::toString(p.takeError()));
  return p ? *p : TmaBoxPlan();
}

std::string refusal(llvm::StringRef tensor, std::vector<int64_t> tiler, unsigned bits) {
  llvm::Expected<TmaBoxPlan> p = planTmaBox(layoutOf(tensor), tiler, bits, 16);
  EXPECT_FALSE(bool(p)) << "planned " << tensor.str();
  return p ? "" : llvm::toString(p.takeError());
}

TEST(TmaBox, AFlatLayoutKeepsItsModesTheContiguousOneFirst) {
  TmaBoxPlan p = plan("(M,K,L):(K,1,M*K)", {128, 64, 1}, 16);
  EXPECT_EQ(dimsText(p), "K:1/64 M:K/128 L:K*M/1");
  // Each mode's rest coordinate steps its own dimension by the tile extent.
  ASSERT_EQ(p.originTerms(0).size(), 1u);
  EXPECT_EQ(p.originTerms(0)[0], std::make_pair(size_t(1), int64_t(64)));
  EXPECT_EQ(p.originTerms(1)[0], std::make_pair(size_t(0), int64_t(128)));
  // Tile element (m, k) = (1, 0) lies one row of 64 further into the box.
  EXPECT_EQ(p.dimCoords(1), (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(p.dimCoords(128), (std::vector<int64_t>{1, 0, 0}));
}

TEST(TmaBox, AModesLastLeafTakesTheTileWhateverItsExtent) {
  // TMA clips boxes at the tensor's edges: 32 rows of 100, 64 columns of 120.
  EXPECT_EQ(dimsText(plan("(100,120):(120,1)", {32, 64}, 16)), "120:1/64 100:120/32");
  // Also behind whole leaves, and before leaves of extent 1.
  EXPECT_EQ(dimsText(plan("((16,5,1),K):((1,16,80),80)", {32, 1}, 8)),
            "16:1/16 5:16/2 1:80/1 K:80/1");
}

TEST(TmaBox, ScaleFactorAtomsBecomeSixteenByteRowsOfWholeAtoms) {
  const char *sfa = "tile_to_shape(((32,4),(16,4)):((16,4),(0,1)), (M, K), (2, 1))";
  TmaBoxPlan p = plan(sfa, {128, 256}, 8);
  EXPECT_EQ(dimsText(p),
            "16:1/16 32:16/32 ceil_div(K,64):512/4 ceil_div(M,128):512*ceil_div(K,64)/1");
  EXPECT_EQ(p.tileElements(), 128 * 256);
  EXPECT_EQ(p.boxElements(), 2048);
  // Row m of the tile, factor k: the broadcast K leaf (16) is no dimension.
  // m = 33 is row 1 of the atom's second 32-row group: byte 4 of row 1.
  EXPECT_EQ(p.dimCoords(33), (std::vector<int64_t>{4, 1, 0, 0}));
  // K = 16 is the atom's second factor, K = 64 the next atom.
  EXPECT_EQ(p.dimCoords(16 * 128), (std::vector<int64_t>{1, 0, 0, 0}));
  EXPECT_EQ(p.dimCoords(64 * 128), (std::vector<int64_t>{0, 0, 1, 0}));
  EXPECT_EQ(p.originTerms(2)[0], std::make_pair(size_t(1), int64_t(4)));
  EXPECT_EQ(p.originTerms(3)[0], std::make_pair(size_t(0), int64_t(1)));
  // 256 rows of B: two atoms along MN per box.
  EXPECT_EQ(plan(sfa, {256, 256}, 8).dims[3].box, 2);
}

TEST(TmaBox, MoreThanFiveLeavesMergeWhereTheyContinueEachOther) {
  // Six f32 leaves, the first a 16-byte row already: the first whole one
  // and the one continuing it become one dimension.
  TmaBoxPlan p = plan("((4,2,2,2,2),M):((1,4,8,16,32),64)", {64, 1}, 32);
  EXPECT_EQ(dimsText(p), "8:1/8 2:8/2 2:16/2 2:32/2 M:64/1");
}

TEST(TmaBox, WholeLeavesMergeIntoSixteenByteRows) {
  TmaBoxPlan p = plan("((4,4),M):((1,4),16)", {16, 1}, 8);
  EXPECT_EQ(dimsText(p), "16:1/16 M:16/1");
  // A whole leaf takes part of the next: the box is 8 bytes of its 16.
  EXPECT_EQ(dimsText(plan("((4,4),M):((1,4),16)", {8, 1}, 8)), "16:1/8 M:16/1");
  // A part of a leaf cannot take the next one.
  EXPECT_EQ(dimsText(plan("(4,(4,M)):(1,(4,16))", {2, 4}, 8)), "4:1/2 4:4/4 M:16/1");
}

TEST(TmaBox, RefusesWhatTmaCannotExpress) {
  EXPECT_NE(refusal("(M,K):(2*K,2)", {16, 64}, 16).find("needs exactly one mode of stride 1"),
            std::string::npos);
  EXPECT_NE(refusal("((48,M),K):((1,48),48*M)", {32, 1}, 8)
                .find("the tile extent 32 of mode 0 of ((48,M),K):((1,48),48*M) cuts its leaf 48"),
            std::string::npos);
  EXPECT_NE(
      refusal("((16,4,M),K):((1,16,64),64*M)", {32, 1}, 8).find("step through its leaves 4 and M"),
      std::string::npos);
  EXPECT_NE(refusal("(2,2,2,2,2,2):(1,4,16,64,256,1024)", {2, 2, 2, 2, 2, 2}, 32)
                .find("TMA copies tensors of at most 5 modes, this one has 6"),
            std::string::npos);
}

} // namespace
} // namespace cutec
