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
// at offset r of the packed box, with the swizzle TMA applies. A swizzled
// tile wider than the swizzle span along dimension 0 is copied as several
// span-wide boxes (one per swizzle atom of an MMA operand), each into a
// `cute.local_tile` of the shared tensor that must be that box's image; all
// complete on the same mbarrier.
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

  /// Whether `smem` (a tensor of the tile's `tileExtents`, indexed
  /// colexicographically) holds element r of the box `extents` at offset
  /// `base` + r', r' being r's offset in the packed box in TMA order; the
  /// box starts at element `origin` of the tile's mode `order[0]`.
  bool checkSharedImage(const Operation &load, const Layout &smem,
                        const std::vector<int64_t> &tileExtents,
                        const std::vector<int64_t> &extents, const std::vector<size_t> &order,
                        int64_t origin, const IntExpr &base, const std::string &what) {
    std::vector<IntTuple> boxStrides(order.size());
    int64_t stride = 1;
    for (size_t i : order) {
      boxStrides[i] = IntTuple(stride);
      stride *= extents[i];
    }
    std::vector<IntTuple> shape;
    for (int64_t t : extents)
      shape.push_back(IntTuple(t));
    Layout box(IntTuple::tuple(shape), IntTuple::tuple(boxStrides));
    for (int64_t r = 0; r < stride; ++r) {
      // r's coordinate in the box, moved to where the box lies in the tile,
      // as the tile's colexicographic index.
      int64_t index = 0;
      for (size_t i = 0, rest = r, scale = 1; i < extents.size();
           rest /= extents[i], scale *= tileExtents[i], ++i)
        index += (int64_t(rest % extents[i]) + (i == order[0] ? origin : 0)) * scale;
      llvm::Expected<IntExpr> want = crd2idx(IntTuple(r), box);
      llvm::Expected<IntExpr> have = crd2idx(IntTuple(index), smem);
      if (!want || !have) {
        llvm::consumeError(want.takeError());
        llvm::consumeError(have.takeError());
        return fail(load, "internal error: cannot index the box");
      }
      if (base + *want != *have)
        return fail(load, "the shared tensor " + smem.str() + " is not the image of " + what +
                              ": TMA writes element " + llvm::Twine(index) +
                              " of the tile at offset " + (base + *want).str() +
                              ", the layout puts it at " + have->str() +
                              " (the box in TMA order is " + box.str() + ")");
    }
    return true;
  }

  /// `local_tile(smem, tiler, coord)` as an op that partition turns into a
  /// view at the box's offset; `view` is what the layout algebra made of it.
  Value *boxView(ir::Builder &b, const Operation &load, Value *smem, const IntTuple &tiler,
                 const IntTuple &coord, const TileView &view) {
    const Type &type = smem->type();
    Operation &op = b.create(
        OpKind::LocalTile, load.loc(), {smem},
        {Type::tensor(type.element(), type.memorySpace(), view.layout, type.tensorSwizzle())});
    op.setAttr("tiler", tiler);
    op.setAttr("coord", coord);
    return op.result();
  }

  bool lower(Operation &load) {
    Tile tile;
    if (!analyseTile(load, load.operand(0), tile))
      return false;
    const Type &srcType = tile.param->type();
    Value *smem = load.operand(1);
    const Layout &smemLayout = smem->type().tensorLayout();
    std::vector<size_t> order;
    if (!dimensionOrder(load, srcType.tensorLayout(), order))
      return false;
    std::optional<int> swizzle = tmaSwizzleBytes(load, smem->type().tensorSwizzle());
    if (!swizzle)
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
    unsigned bits = ir::bitWidth(spec.element);
    int64_t boxBytes0 = spec.box[0] * bits / 8;
    if (spec.packsNibbles() && spec.box[0] % 2)
      return fail(load, "a box of 4-bit elements needs an even extent in its contiguous mode, not " +
                            llvm::Twine(spec.box[0]));
    if ((spec.box[0] * bits) % 128)
      return fail(load, "the box's contiguous extent is " + llvm::Twine(boxBytes0) +
                            " bytes; TMA needs a multiple of 16");
    // The tile is at most 256 elements per mode, like a box, even when it is
    // copied in several.
    for (int64_t b : spec.box)
      if (b > 256)
        return fail(load, "a TMA box has at most 256 elements per mode, not " + llvm::Twine(b));
    // The hardware lays a swizzled box out in rows of the swizzle span; a
    // narrower box would leave gaps that the shared layout does not have. A
    // wider tile is copied as several boxes one span wide (an MMA operand
    // wider than its swizzle atom), each to where the layout puts its part
    // of the tile.
    int64_t pieces = 1;
    if (*swizzle && boxBytes0 > *swizzle && boxBytes0 % *swizzle == 0) {
      pieces = boxBytes0 / *swizzle;
      spec.box[0] = int64_t(*swizzle) * 8 / bits;
    }
    if (*swizzle && spec.box[0] * bits / 8 != *swizzle)
      return fail(load, "the box's contiguous extent is " + llvm::Twine(boxBytes0) +
                            " bytes; with the " + llvm::Twine(*swizzle) +
                            "-byte swizzle it must be " + llvm::Twine(*swizzle) +
                            " or a multiple of it");
    std::vector<int64_t> extents = tile.tiler;
    extents[order[0]] = spec.box[0];
    if (pieces > 1 && (smemLayout.shape.isLeaf() || smemLayout.rank() != extents.size()))
      return fail(load, "a tile copied as several boxes needs a shared tensor with one mode per "
                        "mode of the tensor, not " +
                            smemLayout.str());

    ir::Builder b;
    b.setInsertionPoint(load);
    Value *map = mapArgument(std::move(spec));
    const ir::TensorMapSpec &mapSpec = map->type().tensorMapSpec();
    // The tile's origin per TMA dimension, in TMA units (bytes in dimension
    // 0 when it packs nibbles).
    int64_t unit0 = mapSpec.packsNibbles() ? 2 : 1;
    std::vector<Value *> origin;
    for (size_t k = 0; k < order.size(); ++k) {
      const RestCoord &c = tile.restCoords[order[k]];
      int64_t scale = tile.tiler[order[k]] / (k == 0 ? unit0 : 1);
      origin.push_back(
          c.operand ? b.createValue(OpKind::Mul, load.loc(), Type::scalar(DataType::I32),
                                    {c.operand, b.constantInt(load.loc(), DataType::I32, scale)})
                    : b.constantInt(load.loc(), DataType::I32, c.value * scale));
    }
    for (int64_t piece = 0; piece < pieces; ++piece) {
      IntExpr base(0);
      Value *dst = smem;
      std::vector<Value *> operands{map, nullptr, load.operand(2)};
      if (pieces > 1) {
        std::vector<IntTuple> tiler, coord;
        for (size_t i = 0; i < extents.size(); ++i) {
          tiler.push_back(IntTuple(extents[i]));
          coord.push_back(IntTuple(i == order[0] ? piece : 0));
        }
        IntTuple boxTiler = IntTuple::tuple(tiler), boxCoord = IntTuple::tuple(coord);
        llvm::Expected<TileView> view = localTile(smemLayout, Tiler::fromShape(boxTiler), boxCoord);
        if (!view)
          return fail(load, "the boxes do not tile the shared tensor " + smemLayout.str() + ": " +
                                llvm::toString(view.takeError()));
        base = view->offset;
        dst = boxView(b, load, smem, boxTiler, boxCoord, *view);
      }
      std::string which = pieces == 1 ? std::string("the box")
                                      : "box " + std::to_string(piece) + " of the " +
                                            std::to_string(pieces) + " boxes one swizzle span wide";
      if (!checkSharedImage(load, smemLayout, tile.tiler, extents, order, piece * extents[order[0]],
                            base, which))
        return false;
      operands[1] = dst;
      operands.insert(operands.end(), origin.begin(), origin.end());
      // Box p starts p box widths further along dimension 0.
      if (piece > 0)
        operands[3] = b.createValue(
            OpKind::Add, load.loc(), Type::scalar(DataType::I32),
            {origin[0], b.constantInt(load.loc(), DataType::I32, piece * mapSpec.box[0] / unit0)});
      // A multicast load's CTA mask follows the coordinates, on every box.
      bool multicast = load.operands().size() == 4;
      if (multicast)
        operands.push_back(load.operand(3));
      Operation &copy = b.create(OpKind::TmaLoadTile, load.loc(), operands);
      if (multicast)
        copy.setAttr("multicast", true);
      if (const int64_t *group = load.attrAs<int64_t>("cta_group"))
        copy.setAttr("cta_group", *group); // completes on the pair leader's mbarrier
    }
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
