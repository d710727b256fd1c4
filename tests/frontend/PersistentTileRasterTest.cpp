// The persistent tile scheduler's index arithmetic (frontend/
// PersistentTileRaster.h) on integers: walking the digits with carries from
// a cluster's first work unit by the grid's cluster count visits the same
// cluster coordinates, and becomes invalid at the same step, as inverting
// CuTe DSL's problem_layout_ncluster_mnl at every linear index does.
#include "frontend/PersistentTileRaster.h"

#include <gtest/gtest.h>

#include <map>

namespace cutec {
namespace {

struct IntArith {
  using Int = int64_t;
  Int constant(int64_t v) { return v; }
  Int add(Int a, Int b) { return a + b; }
  Int sub(Int a, Int b) { return a - b; }
  Int mul(Int a, Int b) { return a * b; }
  Int div(Int a, Int b) { return a / b; }
  Int rem(Int a, Int b) { return a % b; }
  bool ge(Int a, Int b) { return a >= b; }
  Int select(bool c, Int a, Int b) { return c ? a : b; }
};

using Raster = TileRaster<IntArith>;
using Coord = std::array<int64_t, 3>;

/// CuTe DSL's problem_layout_ncluster_mnl, evaluated forward at every
/// coordinate (its shape, strides and rounding as the Python builds them),
/// inverted into linear index -> (m, n, l).
std::map<int64_t, Coord> cuteDslInverse(int64_t cm, int64_t cn, int64_t l, RasterOrder order) {
  std::map<int64_t, Coord> inverse;
  int64_t s = order.swizzle;
  auto roundUp = [&](int64_t x) { return (x + s - 1) / s * s; };
  if (s == 1) {
    for (int64_t k = 0; k < l; ++k)
      for (int64_t n = 0; n < cn; ++n)
        for (int64_t m = 0; m < cm; ++m)
          inverse[order.alongM ? m + cm * (n + cn * k) : n + cn * (m + cm * k)] = {m, n, k};
    return inverse;
  }
  if (order.alongM) { // (cm, (s, cn'/s), l) : (s, (1, s*cm), cm*cn')
    int64_t cn2 = roundUp(cn);
    for (int64_t k = 0; k < l; ++k)
      for (int64_t n1 = 0; n1 < cn2 / s; ++n1)
        for (int64_t n0 = 0; n0 < s; ++n0)
          for (int64_t m = 0; m < cm; ++m)
            inverse[m * s + n0 + n1 * s * cm + k * cm * cn2] = {m, n0 + s * n1, k};
  } else { // ((s, cm'/s), cn, l) : ((1, s*cn), s, cm'*cn)
    int64_t cm2 = roundUp(cm);
    for (int64_t k = 0; k < l; ++k)
      for (int64_t n = 0; n < cn; ++n)
        for (int64_t m1 = 0; m1 < cm2 / s; ++m1)
          for (int64_t m0 = 0; m0 < s; ++m0)
            inverse[m0 + m1 * s * cn + n * s + k * cm2 * cn] = {m0 + s * m1, n, k};
  }
  return inverse;
}

void checkWalks(int64_t cm, int64_t cn, int64_t l, RasterOrder order, int64_t clusters) {
  IntArith a;
  std::map<int64_t, Coord> expected = cuteDslInverse(cm, cn, l, order);
  std::vector<int64_t> radices = Raster::radices(a, order, cm, cn);
  std::vector<int64_t> step = Raster::digits(a, clusters, radices);
  int64_t visited = 0;
  for (int64_t c = 0; c < clusters; ++c) {
    std::vector<int64_t> d = Raster::digits(a, c, radices);
    for (int64_t linear = c;; linear += clusters) {
      bool valid = d.back() < l;
      ASSERT_EQ(valid, expected.count(linear) == 1)
          << "cluster " << c << " at unit " << linear << " of " << cm << "x" << cn << "x" << l;
      if (!valid)
        break;
      EXPECT_EQ(Raster::clusterCoord(a, order, d), expected[linear]) << "unit " << linear;
      ++visited;
      d = Raster::advance(a, d, step, radices);
    }
  }
  EXPECT_EQ(visited, int64_t(expected.size()));
}

TEST(PersistentTileRaster, WalksMatchTheInverseOfCuteDslsClusterLayout) {
  for (bool alongM : {true, false})
    for (int64_t swizzle : {1, 2, 3, 8})
      for (auto [cm, cn, l] : {std::array<int64_t, 3>{1, 1, 1}, {5, 3, 2}, {4, 7, 1}, {9, 2, 3}})
        for (int64_t clusters : {1, 2, 3, 7, 16, 100}) {
          SCOPED_TRACE(testing::Message() << (alongM ? "along M" : "along N") << ", swizzle "
                                          << swizzle << ", " << clusters << " clusters");
          checkWalks(cm, cn, l, {alongM, swizzle}, clusters);
        }
}

TEST(PersistentTileRaster, RasterAlongMVisitsMFastest) {
  IntArith a;
  RasterOrder order;
  std::vector<int64_t> radices = Raster::radices(a, order, 3, 2);
  std::vector<int64_t> d = Raster::digits(a, 4, radices);
  EXPECT_EQ(Raster::clusterCoord(a, order, d), (Coord{1, 1, 0}));
  d = Raster::advance(a, d, Raster::digits(a, 4, radices), radices);
  EXPECT_EQ(Raster::clusterCoord(a, order, d), (Coord{2, 0, 1}));
}

} // namespace
} // namespace cutec
