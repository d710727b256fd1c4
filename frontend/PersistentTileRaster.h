//===- PersistentTileRaster.h - The index arithmetic of persistent tile schedulers ===//
//
// StaticPersistentTileScheduler (CuTe DSL's, frontend/irgen/IRGenTileScheduler.cpp)
// numbers the clusters of tiles of a problem in raster order and gives the
// persistent cluster with linear index c the work units c, c + P, c + 2P, ...
// (P clusters in the grid). A work unit's linear index is a mixed-radix
// number: its digits, fastest first, are
//
//   raster along M:               (m, n, l)          radices (CM, CN)
//   raster along N:               (n, m, l)          radices (CN, CM)
//   along M, swizzle S > 1:       (n0, m, n1, l)     radices (S, CM, ceil(CN/S))
//   along N, swizzle S > 1:       (m0, n, m1, l)     radices (S, CN, ceil(CM/S))
//
// (CM x CN clusters per batch, n = n0 + S*n1, m = m0 + S*m1), which is the
// inverse of CuTe DSL's problem_layout_ncluster_mnl: with a swizzle, runs of
// S clusters along N (along M) are walked along M (along N), and the count
// in that mode is rounded up to a multiple of S, so the last run may hold
// clusters past the problem's edge, as in CuTe DSL. The batch digit l is
// unbounded: a unit is valid while l < L.
//
// The digits are computed once from c and from P (divisions), after which
// every step adds P's digits to the current ones with carries: no division
// inside the persistent loop. The arithmetic is a template over `Arith`, so
// that the compiler emits it as IR and the unit tests run it on integers:
//
//   using Int = ...; using Bool = ...;
//   Int constant(int64_t); Int add(Int, Int); Int sub(Int, Int);
//   Int mul(Int, Int); Int div(Int, Int); Int rem(Int, Int);
//   Bool ge(Int, Int); Int select(Bool, Int, Int);
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_FRONTEND_PERSISTENTTILERASTER_H
#define CUTEC_FRONTEND_PERSISTENTTILERASTER_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cutec {

/// How clusters are ordered: CuTe DSL's raster_along_m and swizzle_size.
struct RasterOrder {
  bool alongM = true;
  int64_t swizzle = 1;
};

template <typename Arith> struct TileRaster {
  using Int = typename Arith::Int;

  /// The radices of every digit but the last, fastest first, for `clustersM`
  /// x `clustersN` clusters per batch.
  static std::vector<Int> radices(Arith &a, const RasterOrder &order, Int clustersM,
                                  Int clustersN) {
    Int fast = order.alongM ? clustersM : clustersN;
    Int slow = order.alongM ? clustersN : clustersM;
    if (order.swizzle == 1)
      return {fast, slow};
    Int s = a.constant(order.swizzle);
    // ceil(slow / S) runs of S clusters
    return {s, fast, a.div(a.add(slow, a.constant(order.swizzle - 1)), s)};
  }

  /// The digits of `linear`, fastest first (divisions).
  static std::vector<Int> digits(Arith &a, Int linear, const std::vector<Int> &radices) {
    std::vector<Int> d;
    for (const Int &r : radices) {
      d.push_back(a.rem(linear, r));
      linear = a.div(linear, r);
    }
    d.push_back(linear);
    return d;
  }

  /// `current` + `step`, digit by digit with carries. Each bounded digit is
  /// below its radix in both, so one subtraction brings it back.
  static std::vector<Int> advance(Arith &a, const std::vector<Int> &current,
                                  const std::vector<Int> &step, const std::vector<Int> &radices) {
    std::vector<Int> next;
    Int carry = a.constant(0);
    for (size_t i = 0; i < radices.size(); ++i) {
      Int sum = a.add(a.add(current[i], step[i]), carry);
      auto wraps = a.ge(sum, radices[i]);
      next.push_back(a.select(wraps, a.sub(sum, radices[i]), sum));
      carry = a.select(wraps, a.constant(1), a.constant(0));
    }
    next.push_back(a.add(a.add(current.back(), step.back()), carry));
    return next;
  }

  /// The cluster coordinate (m, n, l) that the digits stand for.
  static std::array<Int, 3> clusterCoord(Arith &a, const RasterOrder &order,
                                         const std::vector<Int> &d) {
    if (order.swizzle == 1)
      return order.alongM ? std::array<Int, 3>{d[0], d[1], d[2]}
                          : std::array<Int, 3>{d[1], d[0], d[2]};
    Int swizzled = a.add(d[0], a.mul(a.constant(order.swizzle), d[2]));
    return order.alongM ? std::array<Int, 3>{d[1], swizzled, d[3]}
                        : std::array<Int, 3>{swizzled, d[1], d[3]};
  }
};

} // namespace cutec

#endif
