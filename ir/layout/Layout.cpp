//===- Layout.cpp - Layout construction, structure, slicing, coalesce -----===//
#include "ir/layout/Layout.h"
#include "ir/layout/LayoutDetail.h"

namespace cutec {

Tiler Tiler::of(cutec::Layout layout) {
  Tiler t;
  t.kind = Kind::Layout;
  t.layout = std::move(layout);
  return t;
}

Tiler Tiler::byMode(std::vector<Tiler> modes) {
  Tiler t;
  t.kind = Kind::ByMode;
  t.modes = std::move(modes);
  return t;
}

Tiler Tiler::fromShape(const IntTuple &shape) {
  if (shape.isUnderscore())
    return underscore();
  if (shape.isLeaf())
    return of(makeLayout(shape));
  std::vector<Tiler> modes;
  for (const IntTuple &e : shape.elements())
    modes.push_back(fromShape(e));
  return byMode(std::move(modes));
}

std::string Tiler::str() const {
  switch (kind) {
  case Kind::Layout:
    return layout.str();
  case Kind::Underscore:
    return "_";
  case Kind::ByMode:
    break;
  }
  std::string s = "[";
  for (size_t i = 0; i < modes.size(); ++i)
    s += (i ? "," : "") + modes[i].str();
  return s + "]";
}

llvm::Expected<Layout> makeLayout(IntTuple shape, IntTuple stride) {
  if (!congruent(shape, stride))
    return layoutError("shape " + shape.str() + " and stride " + stride.str() +
                       " are not congruent");
  return Layout(std::move(shape), std::move(stride));
}

Layout makeLayout(const IntTuple &shape) { return Layout(shape, compactColMajor(shape)); }

Layout makeLayout(const std::vector<Layout> &modes) {
  std::vector<IntTuple> shapes, strides;
  for (const Layout &m : modes) {
    shapes.push_back(m.shape);
    strides.push_back(m.stride);
  }
  return Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

/// The products of the sub-shapes that the leaves of `order` stand for.
static IntTuple productLike(const IntTuple &shape, const IntTuple &order) {
  if (order.isLeaf())
    return product(shape);
  std::vector<IntTuple> out;
  for (size_t i = 0; i < order.rank(); ++i)
    out.push_back(productLike(shape[i], order[i]));
  return IntTuple::tuple(std::move(out));
}

static IntTuple orderedStrides(const IntTuple &shape, const IntTuple &order,
                               const std::vector<IntTuple> &refShape,
                               const std::vector<IntTuple> &refOrder) {
  if (order.isTuple()) {
    std::vector<IntTuple> out;
    for (size_t i = 0; i < order.rank(); ++i)
      out.push_back(orderedStrides(shape[i], order[i], refShape, refOrder));
    return IntTuple::tuple(std::move(out));
  }
  // The modes ordered before this one are laid out first.
  IntExpr start(1);
  for (size_t j = 0; j < refOrder.size(); ++j)
    if (refOrder[j].leaf().staticValue() < order.leaf().staticValue())
      start = start * refShape[j].leaf();
  return compactColMajor(shape, start);
}

llvm::Expected<Layout> makeOrderedLayout(const IntTuple &shape, const IntTuple &order) {
  if (!weaklyCongruent(order, shape) && !(order.isTuple() && shape.isLeaf() && order.rank() == 1))
    return layoutError("order " + order.str() + " does not match shape " + shape.str());
  if (!order.isStatic())
    return layoutError("order " + order.str() + " must be static");
  IntTuple wrappedShape = order.isTuple() && shape.isLeaf() ? tup(shape) : shape;
  std::vector<IntTuple> refShape, refOrder;
  flattenInto(productLike(wrappedShape, order), refShape);
  flattenInto(order, refOrder);
  return Layout(wrappedShape, orderedStrides(wrappedShape, order, refShape, refOrder));
}

IntExpr size(const Layout &l) { return product(l.shape); }

// cosize = l(size-1) + 1 with |strides|; as a sum over leaves it stays exact
// for dynamic shapes.
IntExpr cosize(const Layout &l) {
  std::vector<IntTuple> shapes, strides;
  flattenInto(l.shape, shapes);
  flattenInto(l.stride, strides);
  IntExpr sum(1);
  for (size_t i = 0; i < shapes.size(); ++i) {
    IntExpr d = strides[i].leaf();
    if (d.isStatic() && d.staticValue() < 0)
      d = IntExpr(-d.staticValue());
    sum = sum + (shapes[i].leaf() - IntExpr(1)) * d;
  }
  return sum;
}

int depth(const Layout &l) { return depth(l.shape); }

Layout flatten(const Layout &l) { return Layout(flatten(l.shape), flatten(l.stride)); }

llvm::Expected<Layout> select(const Layout &l, llvm::ArrayRef<int64_t> modes) {
  std::vector<Layout> out;
  for (int64_t m : modes) {
    if (m < 0 || m >= static_cast<int64_t>(l.rank()))
      return layoutError("mode " + llvm::Twine(m) + " is out of range for " + l.str());
    out.push_back(l[m]);
  }
  return makeLayout(out);
}

llvm::Expected<Layout> take(const Layout &l, int64_t begin, int64_t end) {
  if (begin < 0 || begin >= end || end > static_cast<int64_t>(l.rank()))
    return layoutError("take: modes [" + llvm::Twine(begin) + "," + llvm::Twine(end) +
                       ") are out of range for " + l.str());
  std::vector<int64_t> modes;
  for (int64_t i = begin; i < end; ++i)
    modes.push_back(i);
  return select(l, modes);
}

llvm::Expected<Layout> groupModes(const Layout &l, int64_t begin, int64_t end) {
  auto group = take(l, begin, end);
  if (!group)
    return group.takeError();
  std::vector<Layout> out;
  for (int64_t i = 0; i < begin; ++i)
    out.push_back(l[i]);
  out.push_back(*group);
  for (size_t i = end; i < l.rank(); ++i)
    out.push_back(l[i]);
  return makeLayout(out);
}

Layout append(const Layout &l, const Layout &x) {
  return Layout(append(l.shape, x.shape), append(l.stride, x.stride));
}

Layout prepend(const Layout &l, const Layout &x) {
  return Layout(prepend(l.shape, x.shape), prepend(l.stride, x.stride));
}

Layout appendTo(const Layout &l, size_t n) {
  return Layout(appendTo(l.shape, n, 1), appendTo(l.stride, n, 0));
}

// CuTe's zip of (a, b): when a is a tuple, the i-th mode pairs a_i with b_i;
// otherwise the pair itself becomes the only mode.
static IntTuple zipPair(const IntTuple &a, const IntTuple &b) {
  if (a.isLeaf())
    return tup(tup(a, b));
  std::vector<IntTuple> out;
  for (size_t i = 0; i < a.rank(); ++i)
    out.push_back(tup(a[i], b[i]));
  return IntTuple::tuple(std::move(out));
}

llvm::Expected<Layout> zip(const Layout &a, const Layout &b) {
  if (a.shape.isTuple() && a.rank() != b.rank())
    return layoutError("cannot zip " + a.str() + " with " + b.str() + ": their ranks differ");
  return Layout(zipPair(a.shape, b.shape), zipPair(a.stride, b.stride));
}

llvm::Expected<IntExpr> crd2idx(const IntTuple &coord, const Layout &l) {
  return crd2idx(coord, l.shape, l.stride);
}

std::optional<StaticIndexer> StaticIndexer::of(const Layout &l) {
  if (!l.isStatic())
    return std::nullopt;
  std::vector<IntTuple> shapes, strides;
  flattenInto(l.shape, shapes);
  flattenInto(l.stride, strides);
  if (shapes.size() != strides.size())
    return std::nullopt;
  StaticIndexer indexer;
  int64_t total = 1;
  for (size_t i = 0; i < shapes.size(); ++i) {
    int64_t extent = shapes[i].leaf().staticValue();
    if (extent < 1 || __builtin_mul_overflow(total, extent, &total) || total > (int64_t(1) << 62))
      return std::nullopt;
    indexer.shapes.push_back(extent);
    indexer.strides.push_back(strides[i].leaf().staticValue());
  }
  return indexer;
}

int64_t StaticIndexer::size() const {
  int64_t n = 1;
  for (int64_t extent : shapes)
    n *= extent;
  return n;
}

int64_t StaticIndexer::operator()(int64_t r) const {
  int64_t index = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    index += r % shapes[i] * strides[i];
    r /= shapes[i];
  }
  return index;
}

// CuTe's slice: each `_` keeps its mode as one element of the result, each
// tuple coordinate splices the modes it keeps, integers drop their mode.
static llvm::Error sliceInto(const IntTuple &coord, const IntTuple &shape, const IntTuple &stride,
                             std::vector<IntTuple> &shapes, std::vector<IntTuple> &strides) {
  if (coord.isUnderscore()) {
    shapes.push_back(shape);
    strides.push_back(stride);
    return llvm::Error::success();
  }
  if (coord.isLeaf())
    return llvm::Error::success();
  if (shape.isLeaf() || coord.rank() != shape.rank())
    return layoutError("coordinate " + coord.str() + " does not match shape " + shape.str());
  for (size_t i = 0; i < coord.rank(); ++i)
    if (llvm::Error e = sliceInto(coord[i], shape[i], stride[i], shapes, strides))
      return e;
  return llvm::Error::success();
}

llvm::Expected<Layout> slice(const Layout &l, const IntTuple &coord) {
  if (coord.isUnderscore())
    return l;
  if (coord.isLeaf())
    return Layout(IntTuple::tuple({}), IntTuple::tuple({}));
  std::vector<IntTuple> shapes, strides;
  if (llvm::Error e = sliceInto(coord, l.shape, l.stride, shapes, strides))
    return e;
  return Layout(IntTuple::tuple(std::move(shapes)), IntTuple::tuple(std::move(strides)));
}

llvm::Expected<IntExpr> sliceOffset(const Layout &l, const IntTuple &coord) {
  return crd2idx(coord, l);
}

Layout detail::coalesceBackwards(const std::vector<IntTuple> &shapes,
                                const std::vector<IntTuple> &strides, size_t count,
                                IntExpr frontShape, IntExpr frontStride) {
  std::vector<IntExpr> outShape{frontShape}, outStride{frontStride};
  bool isTuple = false;
  for (size_t k = count; k-- > 0;) {
    IntExpr s = shapes[k].leaf(), d = strides[k].leaf();
    if (s.isConstant(1))
      continue;
    if (!isTuple && outShape.front().isConstant(1)) {
      outShape.front() = s;
      outStride.front() = d;
    } else if (outShape.front().isStatic() && s * d == outStride.front()) {
      outShape.front() = s * outShape.front();
      outStride.front() = d;
    } else {
      outShape.insert(outShape.begin(), s);
      outStride.insert(outStride.begin(), d);
      isTuple = true;
    }
  }
  if (!isTuple)
    return outShape.front().isConstant(1) ? Layout(1, 0) : Layout(outShape.front(), outStride.front());
  std::vector<IntTuple> sh(outShape.begin(), outShape.end()), st(outStride.begin(), outStride.end());
  return Layout(IntTuple::tuple(std::move(sh)), IntTuple::tuple(std::move(st)));
}

/// Flattens `l` and coalesces it from the back. A trailing size-1 mode either
/// disappears (coalesce) or keeps its stride behind a placeholder extent of 2
/// (CuTe's coalesce_x, which composition needs so the function is preserved
/// outside the domain too).
static Layout coalesceFlattened(const Layout &l, bool keepTrailingStride) {
  std::vector<IntTuple> shapes, strides;
  flattenInto(l.shape, shapes);
  flattenInto(l.stride, strides);
  size_t r = shapes.size();
  if (r == 0)
    return Layout(1, 0);
  IntExpr last = shapes[r - 1].leaf();
  if (keepTrailingStride && last.isConstant(1))
    last = IntExpr(2);
  return detail::coalesceBackwards(shapes, strides, r - 1, last, strides[r - 1].leaf());
}

Layout coalesce(const Layout &l) { return coalesceFlattened(l, /*keepTrailingStride=*/false); }

Layout coalesce(const Layout &l, const IntTuple &profile) {
  if (profile.isLeaf() || profile.isUnderscore())
    return coalesce(l);
  std::vector<Layout> modes;
  for (size_t i = 0; i < l.rank(); ++i)
    modes.push_back(i < profile.rank() ? coalesce(l[i], profile[i]) : l[i]);
  return makeLayout(modes);
}

static IntTuple zeroStrideToUnitShape(const IntTuple &stride, const IntTuple &shape) {
  if (shape.isLeaf())
    return stride.leaf().isConstant(0) ? IntTuple(1) : shape;
  std::vector<IntTuple> out;
  for (size_t i = 0; i < shape.rank(); ++i)
    out.push_back(zeroStrideToUnitShape(stride[i], shape[i]));
  return IntTuple::tuple(std::move(out));
}

Layout filterZeros(const Layout &l) {
  return Layout(zeroStrideToUnitShape(l.stride, l.shape), l.stride);
}

Layout filter(const Layout &l) { return coalesce(filterZeros(l)); }

Layout detail::coalesceKeepingTail(const Layout &l) {
  return coalesceFlattened(l, /*keepTrailingStride=*/true);
}

} // namespace cutec
