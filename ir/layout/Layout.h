//===- Layout.h - CuTe layouts (shape:stride) and their algebra -----------===//
//
// A Layout maps coordinates of its shape to indices through its stride:
// ((32,4),(16,4)):((16,4),(0,1)). The functions below are CuTe's layout
// algebra with CuTe's names and exact semantics (checked against vectors
// computed by CuTe in tests/data/layout). Leaves may be dynamic (IntExpr
// symbols); operations keep static parts static. Fallible operations return
// llvm::Expected with a message naming the operands.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_LAYOUT_LAYOUT_H
#define CUTEC_IR_LAYOUT_LAYOUT_H

#include "ir/layout/IntTuple.h"

#include <optional>

namespace cutec {

struct Layout {
  IntTuple shape;
  IntTuple stride;

  Layout() : shape(1), stride(0) {}
  Layout(IntTuple shape, IntTuple stride) : shape(std::move(shape)), stride(std::move(stride)) {}

  size_t rank() const { return shape.rank(); }
  /// Mode i as a layout (a leaf layout is its own mode 0).
  Layout operator[](size_t i) const { return {shape[i], stride[i]}; }
  bool isStatic() const { return shape.isStatic() && stride.isStatic(); }
  bool operator==(const Layout &other) const {
    return shape == other.shape && stride == other.stride;
  }
  std::string str() const { return shape.str() + ":" + stride.str(); }
};

/// A CuTe tiler: a layout, a by-mode tuple of tilers (CuTe's make_tile, also
/// what a plain shape like (128,64) means), or `_` (leave the mode alone).
struct Tiler {
  enum class Kind { Layout, ByMode, Underscore };
  Kind kind = Kind::Underscore;
  cutec::Layout layout;
  std::vector<Tiler> modes;

  static Tiler of(cutec::Layout layout);
  static Tiler byMode(std::vector<Tiler> modes);
  static Tiler underscore() { return Tiler(); }
  /// An integer n is the layout n:1; a tuple is by-mode.
  static Tiler fromShape(const IntTuple &shape);
  std::string str() const;
};

// --- Construction and structure ---------------------------------------------
llvm::Expected<Layout> makeLayout(IntTuple shape, IntTuple stride);
/// The compact column-major layout of `shape`.
Layout makeLayout(const IntTuple &shape);
/// Concatenates layouts as the modes of a new one: (A, B, ...).
Layout makeLayout(const std::vector<Layout> &modes);
/// Strides ordered by `order`: the mode with the smallest order is stride-1.
llvm::Expected<Layout> makeOrderedLayout(const IntTuple &shape, const IntTuple &order);

IntExpr size(const Layout &l);
IntExpr cosize(const Layout &l);
int depth(const Layout &l);
Layout flatten(const Layout &l);
llvm::Expected<Layout> select(const Layout &l, llvm::ArrayRef<int64_t> modes);
llvm::Expected<Layout> take(const Layout &l, int64_t begin, int64_t end);
/// Groups modes [begin, end) into one mode.
llvm::Expected<Layout> groupModes(const Layout &l, int64_t begin, int64_t end);
Layout append(const Layout &l, const Layout &x);
Layout prepend(const Layout &l, const Layout &x);
/// Pads `l` to rank n with 1:0 modes.
Layout appendTo(const Layout &l, size_t n);
/// Transposes a tuple of rank-2 modes: zip of layouts A and B is
/// ((A0,B0),(A1,B1),...). An error when A is a tuple and B has another rank.
llvm::Expected<Layout> zip(const Layout &a, const Layout &b);

// --- Evaluation and slicing -------------------------------------------------
llvm::Expected<IntExpr> crd2idx(const IntTuple &coord, const Layout &l);

/// A static layout flattened to its leaves, for evaluating it at many
/// integer coordinates: the index of r in [0, size) is the sum over the
/// leaves of (r / (the product of the shapes before) mod shape) * stride,
/// which is crd2idx(r, l) without building an expression per mode.
struct StaticIndexer {
  std::vector<int64_t> shapes, strides;
  /// Null for a layout with dynamic leaves or more than 2^62 elements.
  static std::optional<StaticIndexer> of(const Layout &l);
  /// The index of r in [0, size()).
  int64_t operator()(int64_t r) const;
  int64_t size() const;
};
/// The sub-layout of the modes where `coord` has `_`.
llvm::Expected<Layout> slice(const Layout &l, const IntTuple &coord);
/// The index of `coord` with `_` taken as 0.
llvm::Expected<IntExpr> sliceOffset(const Layout &l, const IntTuple &coord);

// --- Simplification ---------------------------------------------------------
/// Merges modes where shape*stride of one equals the stride of the next,
/// drops size-1 modes; depth <= 1, same function on the domain.
Layout coalesce(const Layout &l);
/// Coalesces at the terminals of `profile` only.
Layout coalesce(const Layout &l, const IntTuple &profile);
/// Replaces stride-0 modes by size-1 modes.
Layout filterZeros(const Layout &l);
/// filter_zeros, then coalesce: removes stride-0 and size-1 modes.
Layout filter(const Layout &l);

// --- Algebra ----------------------------------------------------------------
/// A o B: B's coordinates go in, A's indices come out.
llvm::Expected<Layout> composition(const Layout &a, const Layout &b);
llvm::Expected<Layout> composition(const Layout &a, const Tiler &b);
/// The layout of the indices up to `cotarget` that `l` does not reach.
llvm::Expected<Layout> complement(const Layout &l, const IntTuple &cotarget);
llvm::Expected<Layout> complement(const Layout &l);
llvm::Expected<Layout> rightInverse(const Layout &l);
llvm::Expected<Layout> leftInverse(const Layout &l);

// --- Divides and products ---------------------------------------------------
llvm::Expected<Layout> logicalDivide(const Layout &l, const Tiler &t);
llvm::Expected<Layout> zippedDivide(const Layout &l, const Tiler &t);
llvm::Expected<Layout> tiledDivide(const Layout &l, const Tiler &t);
llvm::Expected<Layout> flatDivide(const Layout &l, const Tiler &t);
llvm::Expected<Layout> logicalProduct(const Layout &block, const Tiler &t);
llvm::Expected<Layout> zippedProduct(const Layout &block, const Tiler &t);
llvm::Expected<Layout> tiledProduct(const Layout &block, const Tiler &t);
llvm::Expected<Layout> flatProduct(const Layout &block, const Tiler &t);
llvm::Expected<Layout> blockedProduct(const Layout &block, const Layout &tiler);
llvm::Expected<Layout> rakedProduct(const Layout &block, const Layout &tiler);
/// Repeats `block` to cover `target`, across modes in `order` (default
/// column-major: mode 0 first).
llvm::Expected<Layout> tileToShape(const Layout &block, const IntTuple &target,
                                   const std::optional<IntTuple> &order = std::nullopt);

/// CuTe's local_tile on a tensor of layout `l`: zipped_divide by `tiler`,
/// then slice the tile-index modes with `coord` (padded with `_`).
struct TileView {
  Layout layout;
  IntExpr offset;
};
llvm::Expected<TileView> localTile(const Layout &l, const Tiler &tiler, const IntTuple &coord);

// --- Recasting between element widths ---------------------------------------
/// Views a layout of narrow elements as one of elements n times wider.
llvm::Expected<Layout> upcast(const Layout &l, int64_t n);
/// Views a layout of wide elements as one of elements n times narrower.
llvm::Expected<Layout> downcast(const Layout &l, int64_t n);

} // namespace cutec

#endif
