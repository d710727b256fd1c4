//===- LayoutTiling.cpp - divides, products, tile_to_shape, local_tile ----===//
//
// Everything here is defined through composition and complement, as in CuTe.
// The rank-sensitive products (blocked, raked, tile_to_shape) return the
// zipped modes without coalescing them: that is the form CuTe prints for the
// seeds' scale-factor layouts, e.g. (((32,4),1),((16,4),1),(1,1)).
//
//===----------------------------------------------------------------------===//
#include "ir/layout/Layout.h"
#include "ir/layout/LayoutDetail.h"

namespace cutec {

/// Applies a per-mode operation under a by-mode tiler, keeping modes the
/// tiler does not reach; `_` leaves the layout as it is.
template <typename Op>
static llvm::Expected<Layout> byMode(const Layout &l, const Tiler &t, llvm::StringRef name,
                                     Op op) {
  if (t.kind == Tiler::Kind::Underscore)
    return l;
  if (t.kind == Tiler::Kind::Layout)
    return op(l, t.layout);
  if (t.modes.size() > l.rank())
    return layoutError(name + ": tiler " + t.str() + " has more modes than " + l.str());
  std::vector<Layout> modes;
  for (size_t i = 0; i < t.modes.size(); ++i) {
    CUTEC_TRY(mode, byMode(l[i], t.modes[i], name, op));
    modes.push_back(mode);
  }
  for (size_t i = t.modes.size(); i < l.rank(); ++i)
    modes.push_back(l[i]);
  return makeLayout(modes);
}

llvm::Expected<Layout> logicalDivide(const Layout &l, const Tiler &t) {
  return byMode(l, t, "logical_divide",
                [](const Layout &mode, const Layout &tile) -> llvm::Expected<Layout> {
                  CUTEC_TRY(rest, complement(tile, size(mode)));
                  return composition(mode, makeLayout({tile, rest}));
                });
}

// CuTe's zip2_by: the rank-2 modes found at the terminals of the tiler are
// split, their first halves gathered in mode 0 and second halves (followed by
// the modes the tiler does not reach) in mode 1.
static llvm::Expected<std::pair<std::vector<IntTuple>, std::vector<IntTuple>>>
zip2By(const IntTuple &t, const Tiler &guide) {
  if (guide.kind != Tiler::Kind::ByMode) {
    if (t.isLeaf() || t.rank() != 2)
      return layoutError("expected a rank-2 mode under the tiler, found " + t.str());
    return std::make_pair(std::vector<IntTuple>{t[0]}, std::vector<IntTuple>{t[1]});
  }
  std::vector<IntTuple> first, second;
  for (size_t i = 0; i < guide.modes.size(); ++i) {
    CUTEC_TRY(split, zip2By(t[i], guide.modes[i]));
    first.push_back(split.first.size() == 1 && guide.modes[i].kind != Tiler::Kind::ByMode
                        ? split.first[0]
                        : IntTuple::tuple(split.first));
    second.push_back(split.second.size() == 1 && guide.modes[i].kind != Tiler::Kind::ByMode
                         ? split.second[0]
                         : IntTuple::tuple(split.second));
  }
  for (size_t i = guide.modes.size(); i < t.rank(); ++i)
    second.push_back(t[i]);
  return std::make_pair(first, second);
}

static llvm::Expected<Layout> tileUnzip(const Layout &l, const Tiler &t) {
  if (t.kind == Tiler::Kind::Underscore)
    return layoutError("a zipped divide or product needs a tiler, not `_`");
  CUTEC_TRY(shapes, zip2By(l.shape, t));
  CUTEC_TRY(strides, zip2By(l.stride, t));
  auto pack = [&](const std::vector<IntTuple> &v) {
    return t.kind == Tiler::Kind::ByMode ? IntTuple::tuple(v) : v[0];
  };
  return Layout(tup(pack(shapes.first), pack(shapes.second)),
                tup(pack(strides.first), pack(strides.second)));
}

/// `_` for a mode of rank 1 (kept whole), a tuple of `_` otherwise (spliced):
/// CuTe's repeat<rank>(_).
static IntTuple wildcardsFor(const IntTuple &mode) {
  if (mode.rank() == 1)
    return IntTuple::underscore();
  return IntTuple::tuple(std::vector<IntTuple>(mode.rank(), IntTuple::underscore()));
}

llvm::Expected<Layout> zippedDivide(const Layout &l, const Tiler &t) {
  CUTEC_TRY(divided, logicalDivide(l, t));
  return tileUnzip(divided, t);
}

llvm::Expected<Layout> tiledDivide(const Layout &l, const Tiler &t) {
  CUTEC_TRY(zipped, zippedDivide(l, t));
  return slice(zipped, tup(IntTuple::underscore(), wildcardsFor(zipped.shape[1])));
}

llvm::Expected<Layout> flatDivide(const Layout &l, const Tiler &t) {
  CUTEC_TRY(zipped, zippedDivide(l, t));
  return slice(zipped, tup(wildcardsFor(zipped.shape[0]), wildcardsFor(zipped.shape[1])));
}

static llvm::Expected<Layout> logicalProductOfLayouts(const Layout &block, const Layout &tiler) {
  CUTEC_TRY(rest, complement(block, size(block) * cosize(tiler)));
  CUTEC_TRY(repeated, composition(rest, tiler));
  return makeLayout({block, repeated});
}

llvm::Expected<Layout> logicalProduct(const Layout &block, const Tiler &t) {
  return byMode(block, t, "logical_product", logicalProductOfLayouts);
}

llvm::Expected<Layout> zippedProduct(const Layout &block, const Tiler &t) {
  CUTEC_TRY(product, logicalProduct(block, t));
  return tileUnzip(product, t);
}

llvm::Expected<Layout> tiledProduct(const Layout &block, const Tiler &t) {
  CUTEC_TRY(zipped, zippedProduct(block, t));
  return slice(zipped, tup(IntTuple::underscore(), wildcardsFor(zipped.shape[1])));
}

llvm::Expected<Layout> flatProduct(const Layout &block, const Tiler &t) {
  CUTEC_TRY(zipped, zippedProduct(block, t));
  return slice(zipped, tup(wildcardsFor(zipped.shape[0]), wildcardsFor(zipped.shape[1])));
}

/// The logical product of `block` and `tiler` padded to a common rank,
/// returned as its (block, repetition) halves.
static llvm::Expected<std::pair<Layout, Layout>> rankedProduct(const Layout &block,
                                                               const Layout &tiler) {
  size_t r = std::max(block.rank(), tiler.rank());
  CUTEC_TRY(product, logicalProductOfLayouts(appendTo(block, r), appendTo(tiler, r)));
  return std::make_pair(product[0], product[1]);
}

llvm::Expected<Layout> blockedProduct(const Layout &block, const Layout &tiler) {
  CUTEC_TRY(halves, rankedProduct(block, tiler));
  return zip(halves.first, halves.second);
}

llvm::Expected<Layout> rakedProduct(const Layout &block, const Layout &tiler) {
  CUTEC_TRY(halves, rankedProduct(block, tiler));
  return zip(halves.second, halves.first);
}

llvm::Expected<Layout> tileToShape(const Layout &block, const IntTuple &target,
                                   const std::optional<IntTuple> &order) {
  size_t r = target.rank();
  if (block.rank() > r)
    return layoutError("tile_to_shape: block " + block.str() + " has more modes than target " +
                       target.str());
  Layout padded = appendTo(block, r);
  IntTuple blockShape = productEach(padded.shape), targetShape = productEach(target);
  for (size_t i = 0; i < r; ++i) {
    IntExpr t = targetShape[i].leaf(), b = blockShape[i].leaf();
    if (b.isStatic() && b.staticValue() <= 0)
      return layoutError("tile_to_shape: block " + block.str() + " has an empty mode");
    if (t.isStatic() && b.isStatic() && t.staticValue() % b.staticValue() != 0)
      return layoutError("tile_to_shape: block shape " + blockShape.str() +
                         " does not divide target shape " + targetShape.str() + " in mode " +
                         llvm::Twine(i));
  }
  IntTuple productShape = ceilDiv(targetShape, blockShape);
  Layout repetition = makeLayout(productShape);
  if (order) {
    CUTEC_TRY(ordered, makeOrderedLayout(productShape, *order));
    repetition = ordered;
  }
  return blockedProduct(padded, repetition);
}

llvm::Expected<TileView> localTile(const Layout &l, const Tiler &tiler, const IntTuple &coord) {
  CUTEC_TRY(zipped, zippedDivide(l, tiler));
  IntTuple restCoord = coord;
  if (coord.isTuple()) {
    size_t restRank = zipped.shape[1].rank();
    if (coord.rank() > restRank)
      return layoutError("local_tile: coordinate " + coord.str() + " has more modes than the " +
                         llvm::Twine(restRank) + " tile-index modes of " + zipped.str());
    restCoord = appendTo(coord, restRank, IntTuple::underscore());
  }
  IntTuple full = tup(wildcardsFor(zipped.shape[0]), restCoord);
  CUTEC_TRY(view, slice(zipped, full));
  CUTEC_TRY(offset, sliceOffset(zipped, full));
  return TileView{view, offset};
}

static llvm::Expected<IntTuple> mapLeaves(
    const IntTuple &shape, const IntTuple &stride,
    const std::function<llvm::Expected<std::pair<IntTuple, IntTuple>>(const IntExpr &,
                                                                      const IntExpr &)> &f,
    IntTuple &newStride) {
  if (shape.isLeaf()) {
    CUTEC_TRY(leaf, f(shape.leaf(), stride.leaf()));
    newStride = leaf.second;
    return leaf.first;
  }
  std::vector<IntTuple> shapes, strides;
  for (size_t i = 0; i < shape.rank(); ++i) {
    IntTuple d;
    CUTEC_TRY(s, mapLeaves(shape[i], stride[i], f, d));
    shapes.push_back(s);
    strides.push_back(d);
  }
  newStride = IntTuple::tuple(std::move(strides));
  return IntTuple::tuple(std::move(shapes));
}

llvm::Expected<Layout> upcast(const Layout &l, int64_t n) {
  if (n <= 0)
    return layoutError("upcast: factor must be positive, got " + llvm::Twine(n));
  IntTuple stride;
  CUTEC_TRY(shape, mapLeaves(l.shape, l.stride,
                             [n](const IntExpr &s, const IntExpr &d)
                                 -> llvm::Expected<std::pair<IntTuple, IntTuple>> {
                               if (d.isConstant(0))
                                 return std::make_pair(IntTuple(s), IntTuple(d));
                               if (!d.isStatic())
                                 return std::make_pair(IntTuple(s), IntTuple(d / IntExpr(n)));
                               IntExpr absD(std::abs(d.staticValue()));
                               CUTEC_TRY(perElem, shapeDiv(IntExpr(n), absD));
                               CUTEC_TRY(newShape, shapeDiv(s, perElem));
                               CUTEC_TRY(newStride, shapeDiv(d, IntExpr(n)));
                               return std::make_pair(IntTuple(newShape), IntTuple(newStride));
                             },
                             stride));
  return Layout(shape, stride);
}

static bool hasUnitStride(const IntTuple &stride) {
  std::vector<IntTuple> leaves;
  flattenInto(stride, leaves);
  for (const IntTuple &d : leaves)
    if (d.leaf().isConstant(1) || d.leaf().isConstant(-1))
      return true;
  return false;
}

llvm::Expected<Layout> downcast(const Layout &l, int64_t n) {
  if (n <= 0)
    return layoutError("downcast: factor must be positive, got " + llvm::Twine(n));
  if (!hasUnitStride(l.stride))
    return layoutError("downcast: " + l.str() + " has no stride-1 mode of adjacent elements");
  IntTuple stride;
  CUTEC_TRY(shape, mapLeaves(l.shape, l.stride,
                             [n](const IntExpr &s, const IntExpr &d)
                                 -> llvm::Expected<std::pair<IntTuple, IntTuple>> {
                               if (d.isConstant(1) || d.isConstant(-1))
                                 return std::make_pair(IntTuple(s * IntExpr(n)), IntTuple(d));
                               return std::make_pair(IntTuple(s), IntTuple(d * IntExpr(n)));
                             },
                             stride));
  return Layout(shape, stride);
}

} // namespace cutec
