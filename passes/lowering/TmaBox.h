//===- TmaBox.h - How a tile of a tensor becomes a TMA box ----------------===//
//
// A TMA tensor map sees a tensor as up to five dimensions, each an extent
// and a stride, dimension 0 contiguous; a copy moves one box of them, packed
// in dimension order in shared memory. planTmaBox finds the dimensions and
// the box for the tiles `local_tile(tensor, tiler, ...)` from the tensor's
// layout, whatever its nesting:
//
//  - Each leaf of the layout is a candidate dimension, except broadcast
//    (stride-0) leaves: they do not exist in memory, and the tile's elements
//    along them are the same bytes.
//  - The tiler's extent for a mode covers the mode's leaves in order: the
//    first ones whole, then part of one (the box of that leaf), the others
//    not at all; the mode's last leaf takes whatever remains, more than its
//    extent too (TMA clips a box at the tensor's edge). The mode's rest
//    coordinate steps the leaf the tile ends in by its box; TMA cannot
//    follow a rest coordinate into further leaves.
//  - Dimension 0 is the stride-1 leaf. Each next dimension is the leaf that
//    continues the previous one in memory (stride = extent x stride), if
//    any, else the next leaf in layout order.
//  - Neighbouring dimensions merge where TMA needs it: dimension 0 takes the
//    whole leaves that continue it until its box row has the bytes TMA
//    moves (16, or the swizzle span), and while there are more than five
//    dimensions, the first whole dimension merges with the one continuing it.
//
// For a flat layout (one leaf per mode) the dimensions are the modes, the
// stride-1 mode first. The scale factors of block-scaled GEMMs,
// tile_to_shape(((32,4),(16,4)):((16,4),(0,1)), (M, K), (2, 1)), tiled by
// (128, 256), become the map (16, 32, K/64, M/128) of 16-byte rows: whole
// 512-byte atoms, four of them per box.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_LOWERING_TMABOX_H
#define CUTEC_PASSES_LOWERING_TMABOX_H

#include "ir/layout/Layout.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace cutec {

/// One leaf of the tensor's layout, as the tile cuts it.
struct TmaTileLeaf {
  size_t mode = 0; // the tensor's top-level mode it belongs to
  IntExpr extent, stride;
  int64_t box = 1; // its elements inside the tile
  /// Whether its mode's rest coordinate steps it (by `box` elements).
  bool carriesRest = false;
  /// Its TMA dimension; -1 for a broadcast leaf.
  int dim = -1;
  /// Elements of its dimension per element of the leaf (the extent of the
  /// leaves merged below it).
  int64_t step = 1;
};

/// One dimension of the tensor map, in elements.
struct TmaBoxDim {
  IntExpr extent, stride;
  int64_t box = 1;
};

struct TmaBoxPlan {
  std::vector<int64_t> tiler;      // per mode of the tensor
  std::vector<TmaTileLeaf> leaves; // mode by mode, each mode's in order
  std::vector<TmaBoxDim> dims;     // TMA order

  /// Elements of the tile (broadcast ones included): the tiler's product.
  int64_t tileElements() const;
  /// Elements of the box: what TMA moves, the tile without broadcasts.
  int64_t boxElements() const;
  /// The coordinate in each dimension of tile element `r`
  /// (colexicographic over the tiler, each mode over its leaves).
  std::vector<int64_t> dimCoords(int64_t r) const;
  /// The same into `coords` (of one element per dimension), which it reuses.
  void dimCoordsInto(int64_t r, std::vector<int64_t> &coords) const;
  /// The leaves of dimension `dim` that a rest coordinate steps: (mode,
  /// elements of the dimension per step of that coordinate).
  std::vector<std::pair<size_t, int64_t>> originTerms(int dim) const;
  /// The tile as it lies in the packed box: per leaf, its box and its
  /// stride in the image (0 for broadcasts), for messages.
  Layout boxLayout() const;
};

/// The dimensions and box of the tiles of `tensor` by `tiler` (static, one
/// extent per mode, 1 past its end). `rowBytes` is what dimension 0's box
/// must reach by merging if it can (16, or the swizzle span); `elementBits`
/// the element width. Fails with a message when TMA cannot express the tile.
llvm::Expected<TmaBoxPlan> planTmaBox(const Layout &tensor, llvm::ArrayRef<int64_t> tiler,
                                      unsigned elementBits, int64_t rowBytes);

} // namespace cutec

#endif
