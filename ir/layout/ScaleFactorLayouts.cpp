//===- ScaleFactorLayouts.cpp - Block-scaled MMA scale factors ------------===//
#include "ir/layout/ScaleFactorLayouts.h"

namespace cutec {
namespace {

/// What the layouts are made of: the SF tiles per row block and along K, and
/// how many factors one MMA reads.
struct Blocking {
  int64_t mnTiles;  // 128-row SF tiles along MN
  int64_t kTiles;   // 4-factor SF tiles along K
  int64_t perMma;   // factors one MMA reads (1, 2 or 4)
  int64_t mmas;     // MMAs along K
};

llvm::Expected<Blocking> blocking(int64_t mn, int64_t k, int64_t vec, int64_t mmaK) {
  if (vec != 16 && vec != 32)
    return layoutError("scale factors cover 16 or 32 elements of K, not " + llvm::Twine(vec));
  if (mmaK <= 0 || mmaK % vec != 0 || (mmaK / vec != 1 && mmaK / vec != 2 && mmaK / vec != 4))
    return layoutError("an MMA of K = " + llvm::Twine(mmaK) + " does not read whole groups of " +
                       llvm::Twine(vec) + " elements 1, 2 or 4 at a time");
  if (mn <= 0 || k <= 0 || k % (4 * vec) != 0 || k % mmaK != 0)
    return layoutError("the K extent " + llvm::Twine(k) + " must be a multiple of " +
                       llvm::Twine(4 * vec) + " (one SF tile) and of the MMA's " +
                       llvm::Twine(mmaK));
  return Blocking{(mn + 127) / 128, k / (4 * vec), mmaK / vec, k / mmaK};
}

IntTuple tup(std::initializer_list<IntTuple> items) { return IntTuple::tuple(items); }

/// A mode of `n` elements at `stride`, with CuTe's stride 0 for size 1.
std::pair<IntTuple, IntTuple> mode(int64_t n, int64_t stride) {
  return {IntTuple(n), IntTuple(n == 1 ? 0 : stride)};
}

/// MMA_K: the MMAs that share an SF tile's factors (`perTile`, `perMma`
/// apart), then the tiles (`tileStride` apart).
std::pair<IntTuple, IntTuple> mmaKMode(const Blocking &b, int64_t tileStride) {
  int64_t perTile = 4 / b.perMma;
  if (perTile == 1)
    return mode(b.mmas, tileStride);
  if (b.kTiles == 1)
    return mode(perTile, b.perMma);
  return {tup({IntTuple(perTile), IntTuple(b.kTiles)}),
          tup({IntTuple(b.perMma), IntTuple(tileStride)})};
}

} // namespace

llvm::Expected<Layout> scaleFactorSmemLayout(int64_t mn, int64_t k, int64_t vec, int64_t mmaK,
                                             int64_t stages) {
  llvm::Expected<Blocking> b = blocking(mn, k, vec, mmaK);
  if (!b)
    return b.takeError();
  if (stages <= 0)
    return layoutError("the number of stages must be positive, not " + llvm::Twine(stages));
  auto [restMn, restMnStride] = mode(b->mnTiles, b->kTiles * 512);
  auto [restK, restKStride] = mode(b->perMma, 1);
  auto [mmaK_, mmaKStride] = mmaKMode(*b, 512);
  auto [stage, stageStride] = mode(stages, b->kTiles * b->mnTiles * 512);
  IntTuple shape = tup({tup({tup({tup({32, 4}), restMn}), tup({IntTuple(vec), restK})}),
                        IntTuple(1), mmaK_, stage});
  IntTuple stride = tup({tup({tup({tup({16, 4}), restMnStride}), tup({IntTuple(0), restKStride})}),
                         IntTuple(0), mmaKStride, stageStride});
  return makeLayout(shape, stride);
}

llvm::Expected<Layout> scaleFactorTmemLayout(int64_t mn, int64_t k, int64_t vec, int64_t mmaK) {
  llvm::Expected<Blocking> b = blocking(mn, k, vec, mmaK);
  if (!b)
    return b.takeError();
  // Rows: 32 lanes, then one column (4 bytes) per 32-row group; the four
  // lane quarters hold copies.
  constexpr int64_t lane = 4 * 65536;
  int64_t rowGroups = 4 * b->mnTiles;
  auto [restK, restKStride] = mode(b->perMma, 1);
  auto [mmaK_, mmaKStride] = mmaKMode(*b, 4 * rowGroups);
  IntTuple shape = tup({tup({tup({IntTuple(32), IntTuple(rowGroups)}), IntTuple(4)}),
                        tup({IntTuple(vec), restK})});
  IntTuple stride = tup({tup({tup({IntTuple(lane), IntTuple(4)}), IntTuple(32 * lane)}),
                         tup({IntTuple(0), restKStride})});
  return makeLayout(tup({shape, IntTuple(1), mmaK_}), tup({stride, IntTuple(0), mmaKStride}));
}

} // namespace cutec
