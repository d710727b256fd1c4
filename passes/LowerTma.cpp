//===- LowerTma.cpp - tma_load of a tile to a tensor map and box coordinates =//
//
// `nvgpu.tma_load %tile, %smem, %bar` copies one tile of a global tensor into
// shared memory with cp.async.bulk.tensor. This pass works out what the host
// must encode (a TensorMapSpec: the tensor's extents and strides in TMA's
// dimension order, the box, the swizzle), adds a tensor-map argument to the
// kernel for each distinct one, and rewrites the copy into
// `nvgpu.tma_load_tile %map, %smem, %bar, %c0, ...` with the box origin in
// TMA units. It runs before `partition`, while the tile still says which
// tensor and which coordinates it came from (docs/ir.md, "Asynchronous
// copies").
//
// The tile must be `local_tile(param, tiler, coord)`, optionally sliced at
// its rest modes with every tile mode kept whole: then the box is the tiler
// and the origin in mode j is rest_coord_j * tiler_j. TMA's dimension 0 is
// the tensor's stride-1 mode; the other modes follow in order. The shared
// tensor must be the box's image: element r of the tile (colexicographic)
// at offset r of the packed box, with the swizzle TMA applies.
//
//===----------------------------------------------------------------------===//
#include "passes/MaterializeOffset.h"
#include "passes/Passes.h"

namespace cutec {
namespace {

using ir::DataType;
using ir::Operation;
using ir::OpKind;
using ir::Type;
using ir::Value;

/// The rest-mode coordinates of a tile: a static value or slice operand
/// `operand` scaled by the tile extent.
struct RestCoord {
  int64_t value = 0;
  Value *operand = nullptr;
};

class TmaLowering {
public:
  TmaLowering(Operation &kernel, PassContext &context) : kernel(kernel), context(context) {}

  void run() {
    for (Operation *load : ir::collect(kernel, OpKind::TmaLoad))
      if (!lower(*load))
        return;
  }

private:
  bool fail(const Operation &op, const llvm::Twine &message) {
    context.error(op.loc(), "tma_load: " + message);
    return false;
  }

  /// The tile's tensor parameter, tiler and per-mode origin; false after
  /// an error.
  struct Tile {
    Value *param = nullptr;
    std::vector<int64_t> tiler;          // per parameter mode (1 past the tiler)
    std::vector<RestCoord> restCoords;   // per parameter mode
  };

  bool analyseTile(const Operation &load, Value *src, Tile &tile) {
    Operation *slice = nullptr, *localTile = src->definingOp();
    if (localTile && localTile->kind() == OpKind::Slice) {
      slice = localTile;
      localTile = slice->operand(0)->definingOp();
    }
    if (!localTile || localTile->kind() != OpKind::LocalTile)
      return fail(load, "the source must be local_tile(tensor, tiler, coord), optionally indexed "
                        "at its tile coordinates");
    tile.param = localTile->operand(0);
    if (tile.param->definingOp() || !tile.param->type().isTensor())
      return fail(load, "the tiled tensor must be a kernel parameter");
    const Layout &layout = tile.param->type().tensorLayout();
    if (depth(layout) > 1)
      return fail(load, "the tensor's layout " + layout.str() + " is nested; TMA needs one "
                        "extent and stride per mode");
    const IntTuple *tiler = localTile->attrAs<IntTuple>("tiler");
    const IntTuple *coord = localTile->attrAs<IntTuple>("coord");
    size_t rank = layout.shape.isLeaf() ? 1 : layout.rank();
    if (!tiler || !coord || depth(makeLayout(*tiler)) > 1 || !tiler->isStatic())
      return fail(load, "the tiler must be a flat static shape");
    size_t tileRank = tiler->isLeaf() ? 1 : tiler->rank();
    if (tileRank > rank)
      return fail(load, "the tiler has more modes than the tensor");
    for (size_t j = 0; j < rank; ++j)
      tile.tiler.push_back(j < tileRank ? (tiler->isLeaf() ? *tiler : (*tiler)[j]).leaf().staticValue()
                                        : 1);
    // The rest coordinates: fixed by local_tile, or by the slice (which
    // must keep the tile modes whole and fix every remaining rest mode).
    std::vector<IntTuple> pattern;
    if (slice) {
      const IntTuple *p = slice->attrAs<IntTuple>("coord");
      if (!p)
        return fail(load, "internal error: a slice without a coordinate");
      flattenInto(*p, pattern);
    }
    std::vector<IntTuple> coords;
    flattenInto(*coord, coords);
    if (coords.size() != rank)
      return fail(load, "the coordinate of local_tile must have one entry per tensor mode");
    size_t next = tileRank;
    for (size_t k = 0; k < (slice ? tileRank : 0); ++k)
      if (k >= pattern.size() || !pattern[k].isUnderscore())
        return fail(load, "the tile must be copied whole: index only its rest modes");
    for (size_t j = 0; j < rank; ++j) {
      if (!coords[j].isUnderscore()) {
        tile.restCoords.push_back({coords[j].leaf().staticValue(), nullptr});
        continue;
      }
      if (!slice || next >= pattern.size() || pattern[next].isUnderscore())
        return fail(load, "mode " + llvm::Twine(j) + " of the tensor is not fixed to one tile; "
                          "index the tile's rest modes");
      const IntTuple &p = pattern[next++];
      if (p.leaf().isStatic()) {
        tile.restCoords.push_back({p.leaf().staticValue(), nullptr});
        continue;
      }
      // `$i` is the slice's operand i+1.
      llvm::StringRef name = p.leaf().dynamicNode()->name;
      unsigned index = 0;
      if (!name.consume_front("$") || name.getAsInteger(10, index) ||
          index + 1 >= slice->operands().size())
        return fail(load, "internal error: bad slice pattern " + p.str());
      tile.restCoords.push_back({0, slice->operand(index + 1)});
    }
    return true;
  }

  /// TMA dimension order: the stride-1 mode first, then the others.
  bool dimensionOrder(const Operation &load, const Layout &layout, std::vector<size_t> &order) {
    std::vector<IntTuple> strides;
    flattenInto(layout.stride, strides);
    for (size_t j = 0; j < strides.size(); ++j)
      if (strides[j].leaf().isConstant(1))
        order.push_back(j);
    if (order.size() != 1)
      return fail(load, "the tensor " + layout.str() + " needs exactly one mode of stride 1 (the "
                        "contiguous one TMA reads rows of)");
    for (size_t j = 0; j < strides.size(); ++j)
      if (j != order.front())
        order.push_back(j);
    if (order.size() > 5)
      return fail(load, "TMA copies tensors of at most 5 modes, this one has " +
                            llvm::Twine(order.size()));
    return true;
  }

  /// The swizzle in TMA's terms: 0, 32, 64 or 128 bytes.
  std::optional<int> tmaSwizzleBytes(const Operation &load, const Swizzle &s) {
    if (s.isIdentity())
      return 0;
    if (s.base == 4 && s.shift == 3 && s.bits >= 1 && s.bits <= 3)
      return 16 << s.bits;
    fail(load, "TMA swizzles with S<1,4,3> (32B), S<2,4,3> (64B) or S<3,4,3> (128B) on byte "
               "addresses, not " + s.str());
    return std::nullopt;
  }

  /// Whether `smem` holds element r of the tile at offset r of the packed
  /// box (in TMA order), for every r.
  bool checkSharedImage(const Operation &load, const Layout &smem, const Tile &tile,
                        const std::vector<size_t> &order) {
    std::vector<IntTuple> boxStrides(order.size());
    int64_t stride = 1;
    for (size_t i : order) {
      boxStrides[i] = IntTuple(stride);
      stride *= tile.tiler[i];
    }
    std::vector<IntTuple> extents;
    for (int64_t t : tile.tiler)
      extents.push_back(IntTuple(t));
    Layout box(IntTuple::tuple(extents), IntTuple::tuple(boxStrides));
    for (int64_t r = 0; r < stride; ++r) {
      llvm::Expected<IntExpr> want = crd2idx(IntTuple(r), box);
      llvm::Expected<IntExpr> have = crd2idx(IntTuple(r), smem);
      if (!want || !have) {
        llvm::consumeError(want.takeError());
        llvm::consumeError(have.takeError());
        return fail(load, "internal error: cannot index the box");
      }
      if (*want != *have)
        return fail(load, "the shared tensor " + smem.str() + " is not the image of the box: "
                          "TMA writes element " + llvm::Twine(r) + " of the tile at offset " +
                          want->str() + ", the layout puts it at " + have->str() +
                          " (the box in TMA order is " + box.str() + ")");
    }
    return true;
  }

  bool lower(Operation &load) {
    Tile tile;
    if (!analyseTile(load, load.operand(0), tile))
      return false;
    const Type &srcType = tile.param->type();
    const Type &dstType = load.operand(1)->type();
    std::vector<size_t> order;
    if (!dimensionOrder(load, srcType.tensorLayout(), order))
      return false;
    std::optional<int> swizzle = tmaSwizzleBytes(load, dstType.tensorSwizzle());
    if (!swizzle || !checkSharedImage(load, dstType.tensorLayout(), tile, order))
      return false;

    ir::TensorMapSpec spec;
    spec.source = tile.param->nameHint();
    spec.element = srcType.element();
    spec.swizzleBytes = *swizzle;
    std::vector<IntTuple> shape, stride;
    flattenInto(srcType.tensorLayout().shape, shape);
    flattenInto(srcType.tensorLayout().stride, stride);
    for (size_t k = 0; k < order.size(); ++k) {
      spec.globalDim.push_back(shape[order[k]].leaf());
      if (k)
        spec.globalStride.push_back(stride[order[k]].leaf());
      spec.box.push_back(tile.tiler[order[k]]);
    }
    int64_t boxBytes0 = spec.box[0] * ir::bitWidth(spec.element) / 8;
    if (spec.packsNibbles() && spec.box[0] % 2)
      return fail(load, "a box of 4-bit elements needs an even extent in its contiguous mode, not " +
                            llvm::Twine(spec.box[0]));
    if ((spec.box[0] * ir::bitWidth(spec.element)) % 128)
      return fail(load, "the box's contiguous extent is " + llvm::Twine(boxBytes0) +
                            " bytes; TMA needs a multiple of 16");
    // The hardware lays a swizzled box out in rows of the swizzle span; a
    // narrower box would leave gaps that the shared layout does not have.
    if (*swizzle && boxBytes0 != *swizzle)
      return fail(load, "the box's contiguous extent is " + llvm::Twine(boxBytes0) +
                            " bytes; with the " + llvm::Twine(*swizzle) +
                            "-byte swizzle it must be exactly " + llvm::Twine(*swizzle));
    for (int64_t b : spec.box)
      if (b > 256)
        return fail(load, "a TMA box has at most 256 elements per mode, not " + llvm::Twine(b));

    ir::Builder b;
    b.setInsertionPoint(load);
    std::vector<Value *> operands{mapArgument(std::move(spec)), load.operand(1), load.operand(2)};
    const ir::TensorMapSpec &map = operands[0]->type().tensorMapSpec();
    for (size_t k = 0; k < order.size(); ++k) {
      const RestCoord &c = tile.restCoords[order[k]];
      // TMA units: bytes in dimension 0 when it packs nibbles.
      int64_t scale = map.box[k] / (k == 0 && map.packsNibbles() ? 2 : 1);
      Value *scaleValue = b.constantInt(load.loc(), DataType::I32, scale);
      operands.push_back(c.operand ? b.createValue(OpKind::Mul, load.loc(),
                                                   Type::scalar(DataType::I32),
                                                   {c.operand, scaleValue})
                                   : b.constantInt(load.loc(), DataType::I32, c.value * scale));
    }
    Operation &copy = b.create(OpKind::TmaLoadTile, load.loc(), operands);
    if (const int64_t *group = load.attrAs<int64_t>("cta_group"))
      copy.setAttr("cta_group", *group); // completes on the pair leader's mbarrier
    ir::erase(load);
    return true;
  }

  /// The kernel's tensor-map argument for `spec`, added on first use and
  /// named after its tensor (`mA_tmap`, then `mA_tmap1`, ...).
  Value *mapArgument(ir::TensorMapSpec spec) {
    Type type = Type::tensorMap(spec);
    ir::Block &entry = kernel.regions()[0]->front();
    unsigned sameSource = 0;
    for (const auto &arg : entry.arguments()) {
      if (!arg->type().isTensorMap())
        continue;
      if (arg->type() == type)
        return arg.get();
      sameSource += arg->type().tensorMapSpec().source == spec.source;
    }
    std::string name = spec.source + "_tmap" + (sameSource ? std::to_string(sameSource) : "");
    return entry.addArgument(type, name);
  }

  Operation &kernel;
  PassContext &context;
};

class LowerTma : public Pass {
public:
  llvm::StringRef name() const override { return "lower-tma"; }
  void run(Operation &kernel, PassContext &context) override { TmaLowering(kernel, context).run(); }
};

} // namespace

std::unique_ptr<Pass> createLowerTmaPass() { return std::make_unique<LowerTma>(); }

} // namespace cutec
