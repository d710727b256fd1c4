// The layout algebra of SIMT tiled copies: make_layout_tv and the
// thread-value partition of a tile (CuTe's make_layout_tv and
// TiledCopy::tidfrg_S with one atom per thread-value pair).
#include "frontend/TiledCopy.h"

namespace cutec {

/// A static layout that maps its shape one-to-one onto [0, size).
static bool isCompact(const Layout &l) {
  if (!l.isStatic())
    return false;
  std::vector<IntTuple> strides;
  flattenInto(l.stride, strides);
  for (const IntTuple &stride : strides)
    if (stride.leaf().isConstant(0))
      return false;
  return cosize(l) == size(l);
}

llvm::Expected<ThreadValueLayout> makeLayoutTv(const Layout &thr, const Layout &val) {
  for (const Layout *l : {&thr, &val})
    if (!isCompact(*l))
      return layoutError("make_layout_tv needs compact thread and value layouts (static, "
                         "one-to-one onto 0..size-1), not " +
                         l->str());
  if (thr.shape.isTuple() != val.shape.isTuple() ||
      (thr.shape.isTuple() && thr.rank() != val.rank()))
    return layoutError("the thread layout " + thr.str() + " and the value layout " + val.str() +
                       " must have the same rank");
  llvm::Expected<Layout> mn = rakedProduct(thr, val);
  if (!mn)
    return mn.takeError();
  llvm::Expected<Layout> inverse = rightInverse(*mn);
  if (!inverse)
    return inverse.takeError();
  llvm::Expected<Layout> tv =
      composition(*inverse, makeLayout(IntTuple::tuple({size(thr), size(val)})));
  if (!tv)
    return tv.takeError();
  return ThreadValueLayout{productEach(mn->shape), *tv};
}

llvm::Expected<Layout> threadValuePartition(const ThreadValueLayout &copy, const Layout &tensor) {
  size_t modes = copy.tiler.rank(), rank = tensor.rank();
  if (rank < modes)
    return layoutError("a tensor of shape " + tensor.shape.str() +
                       " has fewer modes than the "
                       "tiled copy's tile " +
                       copy.tiler.str());
  for (size_t i = 0; i < modes; ++i) {
    IntExpr extent = product(tensor.shape[i]);
    IntExpr tile = product(copy.tiler[i]);
    if (!extent.isStatic() || extent.staticValue() % tile.staticValue() != 0)
      return layoutError("the tiled copy's tile " + copy.tiler.str() +
                         " does not divide the tensor's shape " + tensor.shape.str() + " (mode " +
                         llvm::Twine(i) + ": " + extent.str() + " is not a multiple of " +
                         tile.str() + "); take tiles of the tensor with local_tile first");
  }
  llvm::Expected<Layout> divided = zippedDivide(tensor, Tiler::fromShape(copy.tiler));
  if (!divided)
    return divided.takeError();
  llvm::Expected<Layout> threadValue = composition((*divided)[0], copy.tv);
  if (!threadValue)
    return threadValue.takeError();
  std::vector<Layout> result{(*threadValue)[0], (*threadValue)[1]};
  Layout rest = (*divided)[1];
  for (size_t i = 0; i < rest.rank(); ++i)
    result.push_back(rest[i]);
  return makeLayout(result);
}

} // namespace cutec
