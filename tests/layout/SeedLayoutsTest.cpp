// The layouts printed in the seed documents: the scale-factor tensors of seed
// 000 (tile_to_shape of the scale-factor atom) and the local_tile views of the
// NVFP4 GEMV in seed 004. Each is checked with static sizes against the
// printout, and with dynamic (named) M, K, L: the dynamic result, with the
// names bound, must be the static one.
#include "LayoutTestUtil.h"

#include "ir/layout/LayoutValue.h"

namespace cutec {
namespace {

using test::layoutOf;

const char *kSfAtom = "((32,4),(16,4)):((16,4),(0,1))";

std::string sfLayout(llvm::StringRef m, llvm::StringRef k, llvm::StringRef l) {
  return ("tile_to_shape(" + llvm::Twine(kSfAtom) + ",(" + m + "," + k + "," + l + "),(2,1,3))")
      .str();
}

void expectMatches(const Layout &actual, llvm::StringRef printed) {
  Layout expected = layoutOf(printed);
  EXPECT_TRUE(layoutValuesMatch(actual, expected))
      << "expected " << printed.str() << "\n  actual   " << actual.str();
}

Layout bind(const Layout &l, int64_t m, int64_t k, int64_t batches) {
  llvm::StringMap<int64_t> values{{"M", m}, {"K", k}, {"L", batches}};
  return Layout(substitute(l.shape, values), substitute(l.stride, values));
}

struct SfCase {
  int64_t m, k, l;
  const char *printed; // seed 000
};

TEST(Seed000, ScaleFactorLayouts) {
  const SfCase cases[] = {
      {128, 64, 1, "(((32,4),1),((16,4),1),(1,1)):(((16,4),512),((0,1),512),(0,512))"},
      {128, 128, 1, "(((32,4),1),((16,4),2),(1,1)):(((16,4),1024),((0,1),512),(0,1024))"},
      {256, 64, 1, "(((32,4),2),((16,4),1),(1,1)):(((16,4),512),((0,1),512),(0,1024))"},
      {256, 128, 1, "(((32,4),2),((16,4),2),(1,1)):(((16,4),1024),((0,1),512),(0,2048))"},
  };
  Layout dynamic = layoutOf(sfLayout("M", "K", "L"));
  EXPECT_EQ(dynamic.str(), "(((32,4),ceil_div(M,128)),((16,4),ceil_div(K,64)),(1,L)):"
                           "(((16,4),512*ceil_div(K,64)),((0,1),512),"
                           "(0,512*ceil_div(K,64)*ceil_div(M,128)))");
  for (const SfCase &c : cases) {
    SCOPED_TRACE(c.printed);
    Layout fixed = layoutOf(sfLayout(std::to_string(c.m), std::to_string(c.k),
                                     std::to_string(c.l)));
    expectMatches(fixed, c.printed);
    // size(sfa) == size(a): one scale factor entry per element, broadcast.
    EXPECT_EQ(size(fixed).staticValue(), c.m * c.k * c.l);
    expectMatches(bind(dynamic, c.m, c.k, c.l), c.printed);
  }
}

TEST(Seed000, BatchedScaleFactorLayoutStridesAcrossL) {
  Layout dynamic = layoutOf(sfLayout("M", "K", "L"));
  Layout fixed = layoutOf(sfLayout("256", "128", "3"));
  EXPECT_EQ(bind(dynamic, 256, 128, 3), fixed);
  expectMatches(fixed, "(((32,4),2),((16,4),2),(1,3)):(((16,4),1024),((0,1),512),(0,2048))");
}

struct TileCase {
  const char *name;
  std::string tensor; // the global tensor's layout, dynamic in M, K, L
  const char *tiler;
  const char *printed; // seed 004, for M=128, K=256, L=1
};

TEST(Seed004, LocalTileViews) {
  const TileCase cases[] = {
      {"gA", "(M,K,L):(K,1,M*K)", "(128,64)", "(128,64,1,4,1):(256,1,32768,64,32768)"},
      {"gSFA", sfLayout("M", "K", "L"), "(128,64)",
       "((32,4),(16,4),1,4,(1,1)):((16,4),(0,1),2048,512,(0,2048))"},
      {"gB", "(128,K,L):(K,1,128*K)", "(1,64)", "(1,64,128,4,1):(0,1,256,64,32768)"},
      {"gSFB", sfLayout("128", "K", "L"), "(1,64)",
       "(1,(16,4),(32,4),4,(1,1)):(0,(0,1),(16,4),512,(0,2048))"},
      {"gC", "(M,1,L):(1,0,M)", "(128,1)", "(128,1,1,1,1):(1,0,128,0,128)"},
  };
  for (const TileCase &c : cases) {
    SCOPED_TRACE(c.name);
    std::string expr = "local_tile(" + c.tensor + "," + c.tiler + ",(_,_,_))";
    Layout dynamic = layoutOf(expr);
    expectMatches(bind(dynamic, 128, 256, 1), c.printed);
    // The same with static sizes from the start.
    std::string fixedTensor = c.tensor;
    for (auto [name, value] : {std::pair{"M", "128"}, {"K", "256"}, {"L", "1"}}) {
      size_t pos;
      while ((pos = fixedTensor.find(name)) != std::string::npos)
        fixedTensor.replace(pos, 1, value);
    }
    expectMatches(layoutOf("local_tile(" + fixedTensor + "," + c.tiler + ",(_,_,_))"), c.printed);
  }
}

TEST(Seed004, PerThreadSlicesOfTheKLoop) {
  // tArA = (64):(1) and tArSFA = ((16,4)):((0,1)): thread 5 of CTA 0, k tile 2.
  Layout gA = layoutOf("local_tile((M,K,L):(K,1,M*K),(128,64),(_,_,_))");
  auto a = slice(gA, tup(5, IntTuple::underscore(), 0, 2, 0));
  ASSERT_TRUE(bool(a));
  EXPECT_EQ(a->str(), "(64):(1)");
  auto offset = sliceOffset(gA, tup(5, IntTuple::underscore(), 0, 2, 0));
  ASSERT_TRUE(bool(offset));
  EXPECT_EQ(offset->str(), "5*K+128");

  Layout gSFA = layoutOf("local_tile(" + sfLayout("M", "K", "L") + ",(128,64),(_,_,_))");
  auto sfa = slice(gSFA, tup(5, IntTuple::underscore(), 0, 2, 0));
  ASSERT_TRUE(bool(sfa));
  EXPECT_EQ(sfa->str(), "((16,4)):((0,1))");
}

} // namespace
} // namespace cutec
