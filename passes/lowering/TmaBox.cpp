//===- TmaBox.cpp - How a tile of a tensor becomes a TMA box --------------===//
#include "passes/lowering/TmaBox.h"

#include "llvm/ADT/Twine.h"

#include <optional>

namespace cutec {
namespace {

/// The leaves of a group of TMA dimensions being formed, lowest first.
struct DimGroup {
  std::vector<size_t> leaves;
  IntExpr extent, stride;
  int64_t box = 1;

  bool whole() const { return extent.isConstant(box); }
  /// Whether `next` starts where this group ends in memory.
  bool continuedBy(const DimGroup &next) const { return next.stride == extent * stride; }
  void absorb(const DimGroup &next) {
    leaves.insert(leaves.end(), next.leaves.begin(), next.leaves.end());
    extent = extent * next.extent;
    box *= next.box;
  }
};

/// Cuts the leaves of mode `mode` by the tile extent `tile`; appends them.
/// The mode's last leaf of an extent other than 1 takes what remains of the
/// tile, however it compares to the leaf's extent (TMA clips a box at the
/// tensor's edge); the leaves before it must be taken whole, or hold the
/// rest of the tile in a whole number of steps.
llvm::Error cutMode(const Layout &tensor, const Layout &modeLayout, size_t mode, int64_t tile,
                    std::vector<TmaTileLeaf> &leaves) {
  std::vector<IntTuple> shapes, strides;
  flattenInto(modeLayout.shape, shapes);
  flattenInto(modeLayout.stride, strides);
  size_t last = shapes.size() - 1;
  while (last > 0 && shapes[last].leaf().isConstant(1))
    --last;
  std::optional<size_t> rest; // the leaf the tile ends in
  int64_t remaining = tile;
  for (size_t i = 0; i < shapes.size(); ++i) {
    TmaTileLeaf leaf;
    leaf.mode = mode;
    leaf.extent = shapes[i].leaf();
    leaf.stride = strides[i].leaf();
    std::optional<int64_t> e = leaf.extent.getStatic();
    if (rest) {
      if (!leaf.extent.isConstant(1))
        return layoutError("the tiles of mode " + llvm::Twine(mode) + " of " + tensor.str() +
                           " step through its leaves " + shapes[*rest].leaf().str() + " and " +
                           leaf.extent.str() +
                           "; a box moves along one leaf per rest coordinate, so the tile must "
                           "take every leaf of the mode but the last whole");
    } else if (i != last && e && *e > 0 && remaining % *e == 0) {
      leaf.box = *e;
      remaining /= *e;
    } else if (i == last || !e || *e % remaining == 0) {
      leaf.box = remaining;
      remaining = 1;
      rest = i;
    } else {
      return layoutError("the tile extent " + llvm::Twine(tile) + " of mode " + llvm::Twine(mode) +
                         " of " + tensor.str() + " cuts its leaf " + leaf.extent.str() +
                         ", which it neither divides nor is a multiple of");
    }
    leaves.push_back(leaf);
  }
  leaves[leaves.size() - shapes.size() + *rest].carriesRest = true;
  return llvm::Error::success();
}

bool isBroadcast(const TmaTileLeaf &leaf) { return leaf.stride.isConstant(0); }

} // namespace

int64_t TmaBoxPlan::tileElements() const {
  int64_t n = 1;
  for (int64_t t : tiler)
    n *= t;
  return n;
}

int64_t TmaBoxPlan::boxElements() const {
  int64_t n = 1;
  for (const TmaBoxDim &d : dims)
    n *= d.box;
  return n;
}

std::vector<int64_t> TmaBoxPlan::dimCoords(int64_t r) const {
  std::vector<int64_t> coords(dims.size());
  dimCoordsInto(r, coords);
  return coords;
}

void TmaBoxPlan::dimCoordsInto(int64_t r, std::vector<int64_t> &coords) const {
  std::fill(coords.begin(), coords.end(), 0);
  size_t next = 0;
  for (size_t mode = 0; mode < tiler.size(); ++mode) {
    int64_t index = r % tiler[mode];
    r /= tiler[mode];
    for (; next < leaves.size() && leaves[next].mode == mode; ++next) {
      const TmaTileLeaf &leaf = leaves[next];
      if (leaf.dim >= 0)
        coords[size_t(leaf.dim)] += index % leaf.box * leaf.step;
      index /= leaf.box;
    }
  }
}

std::vector<std::pair<size_t, int64_t>> TmaBoxPlan::originTerms(int dim) const {
  std::vector<std::pair<size_t, int64_t>> terms;
  for (const TmaTileLeaf &leaf : leaves)
    if (leaf.dim == dim && leaf.carriesRest)
      terms.push_back({leaf.mode, leaf.box * leaf.step});
  return terms;
}

Layout TmaBoxPlan::boxLayout() const {
  std::vector<int64_t> packed(dims.size(), 1);
  for (size_t d = 1; d < dims.size(); ++d)
    packed[d] = packed[d - 1] * dims[d - 1].box;
  std::vector<IntTuple> shape, stride;
  for (const TmaTileLeaf &leaf : leaves) {
    int64_t extent = leaf.box;
    if (leaf.dim >= 0 && dims[size_t(leaf.dim)].box < extent)
      extent = dims[size_t(leaf.dim)].box; // dimension 0 cut into boxes one swizzle span wide
    shape.push_back(IntTuple(extent));
    stride.push_back(IntTuple(leaf.dim < 0 ? 0 : leaf.step * packed[size_t(leaf.dim)]));
  }
  return Layout(IntTuple::tuple(shape), IntTuple::tuple(stride));
}

llvm::Expected<TmaBoxPlan> planTmaBox(const Layout &tensor, llvm::ArrayRef<int64_t> tiler,
                                      unsigned elementBits, int64_t rowBytes) {
  TmaBoxPlan plan;
  plan.tiler.assign(tiler.begin(), tiler.end());
  size_t rank = tensor.shape.isLeaf() ? 1 : tensor.rank();
  for (size_t mode = 0; mode < rank; ++mode)
    if (llvm::Error e = cutMode(tensor, tensor.shape.isLeaf() ? tensor : tensor[mode], mode,
                                mode < tiler.size() ? tiler[mode] : 1, plan.leaves))
      return e;

  // Dimension 0: the stride-1 leaf; then each leaf continuing the previous
  // one in memory, or else the next in layout order.
  std::vector<size_t> remaining;
  std::optional<size_t> contiguous;
  unsigned strideOne = 0;
  for (size_t i = 0; i < plan.leaves.size(); ++i) {
    if (isBroadcast(plan.leaves[i]))
      continue;
    if (plan.leaves[i].stride.isConstant(1)) {
      ++strideOne;
      contiguous = i;
      continue;
    }
    remaining.push_back(i);
  }
  if (strideOne != 1)
    return layoutError("the tensor " + tensor.str() +
                       " needs exactly one mode of stride 1 (the contiguous one TMA reads rows "
                       "of)");
  auto groupOf = [&](size_t i) {
    const TmaTileLeaf &leaf = plan.leaves[i];
    return DimGroup{{i}, leaf.extent, leaf.stride, leaf.box};
  };
  std::vector<DimGroup> groups{groupOf(*contiguous)};
  while (!remaining.empty()) {
    auto next = remaining.begin();
    for (auto it = remaining.begin(); it != remaining.end(); ++it)
      if (groups.back().continuedBy(groupOf(*it))) {
        next = it;
        break;
      }
    groups.push_back(groupOf(*next));
    remaining.erase(next);
  }

  // Merge where TMA needs it: a box row of at least `rowBytes`, at most five
  // dimensions.
  auto bytes = [&](int64_t elements) { return elements * elementBits / 8; };
  while (groups.size() > 1 && bytes(groups[0].box) < rowBytes && groups[0].whole() &&
         groups[0].continuedBy(groups[1])) {
    groups[0].absorb(groups[1]);
    groups.erase(groups.begin() + 1);
  }
  while (groups.size() > 5) {
    size_t i = 0;
    while (i + 1 < groups.size() && !(groups[i].whole() && groups[i].continuedBy(groups[i + 1]) &&
                                      groups[i].box * groups[i + 1].box <= 256))
      ++i;
    if (i + 1 == groups.size())
      break;
    groups[i].absorb(groups[i + 1]);
    groups.erase(groups.begin() + std::ptrdiff_t(i) + 1);
  }
  if (groups.size() > 5)
    return layoutError("TMA copies tensors of at most 5 modes, this one has " +
                       llvm::Twine(groups.size()));

  for (size_t d = 0; d < groups.size(); ++d) {
    int64_t step = 1;
    for (size_t i : groups[d].leaves) {
      plan.leaves[i].dim = int(d);
      plan.leaves[i].step = step;
      step *= plan.leaves[i].extent.isStatic() ? plan.leaves[i].extent.staticValue() : 1;
    }
    plan.dims.push_back({groups[d].extent, groups[d].stride, groups[d].box});
  }
  return plan;
}

} // namespace cutec
