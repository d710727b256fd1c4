//===- LowerTma.cpp - TMA copies of tiles to tensor maps and box coordinates =//
//
// `nvgpu.tma_load %tile, %smem, %bar` copies one tile of a global tensor into
// shared memory with cp.async.bulk.tensor, and `nvgpu.tma_store %smem, %tile`
// copies shared memory out to one. This pass works out what the host must
// encode for both in one way (a TensorMapSpec: the tensor's extents and
// strides in TMA's dimension order, the box, the swizzle), adds a tensor-map
// argument to the kernel for each distinct one (a load and a store of the
// same tensor and box share it), and rewrites the copies into
// `nvgpu.tma_load_tile %map, %smem, %bar, %c0, ...` and
// `nvgpu.tma_store_tile %map, %smem, %c0, ...` with the box origin in TMA
// units. `nvgpu.prefetch_tma_descriptor %tile` becomes
// `nvgpu.prefetch_tensormap %map` of the maps the kernel's copies of such
// tiles use. It runs before `partition`, while the tile still says which
// tensor and which coordinates it came from (docs/ir.md, "Asynchronous
// copies").
//
// The tile must be `local_tile(param, tiler, coord)`, optionally sliced at
// its rest modes with every tile mode kept whole. planTmaBox (TmaBox.h)
// turns the tensor's layout and the tiler into the map's dimensions, the
// box, and where each rest coordinate moves the box. The shared tensor must
// be the box's image: element r of the tile (colexicographic) at the offset
// TMA puts it in the packed box, with the swizzle TMA applies; a shared
// tensor without the tile's broadcast modes is the packed box itself. A
// swizzled tile wider than the swizzle span along dimension 0 is copied as
// several span-wide boxes (one per swizzle atom of an MMA operand), each
// into a `cute.local_tile` of the shared tensor that must be that box's
// image; the loads complete on the same mbarrier.
//
//===----------------------------------------------------------------------===//
#include "passes/lowering/MaterializeOffset.h"
#include "passes/Passes.h"
#include "passes/lowering/TmaBox.h"

#include "hardware/TmaSwizzle.h"

namespace cutec {
namespace {

namespace attr = ir::attr;
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
    std::vector<Operation *> copies, prefetches;
    ir::walk(kernel, [&](Operation &op) {
      if (op.kind() == OpKind::TmaLoad || op.kind() == OpKind::TmaStore)
        copies.push_back(&op);
      else if (op.kind() == OpKind::PrefetchTmaDescriptor)
        prefetches.push_back(&op);
    });
    for (Operation *copy : copies)
      if (!lowerCopy(*copy))
        return;
    for (Operation *prefetch : prefetches)
      if (!lowerPrefetch(*prefetch))
        return;
  }

private:
  static llvm::StringRef builtinName(const Operation &op) {
    switch (op.kind()) {
    case OpKind::TmaStore:
      return "tma_store";
    case OpKind::PrefetchTmaDescriptor:
      return "prefetch_tma_descriptor";
    default:
      return "tma_load";
    }
  }

  bool fail(const Operation &op, const llvm::Twine &message) {
    context.error(op.loc(), builtinName(op) + ": " + message);
    return false;
  }

  /// The tile's tensor parameter, tiler and per-mode origin; false after
  /// an error.
  struct Tile {
    Value *param = nullptr;
    std::vector<int64_t> tiler;          // per parameter mode (1 past the tiler)
    std::vector<RestCoord> restCoords;   // per parameter mode
  };

  /// Finds the tile `src` is. With `needOrigin` false (a prefetch, which
  /// names a tensor map, not a box) the rest coordinates may stay open.
  bool analyseTile(const Operation &op, Value *src, Tile &tile, bool needOrigin = true) {
    Operation *slice = nullptr, *localTile = src->definingOp();
    if (localTile && localTile->kind() == OpKind::Slice) {
      slice = localTile;
      localTile = slice->operand(0)->definingOp();
    }
    if (!localTile || localTile->kind() != OpKind::LocalTile) {
      llvm::StringRef role = op.kind() == OpKind::TmaLoad    ? "source"
                             : op.kind() == OpKind::TmaStore ? "destination"
                                                             : "tile";
      return fail(op, "the " + role + " must be local_tile(tensor, tiler, coord), optionally "
                      "indexed at its rest modes");
    }
    tile.param = localTile->operand(0);
    if (tile.param->definingOp() || !tile.param->type().isTensor())
      return fail(op, "the tiled tensor must be a kernel parameter");
    const Layout &layout = tile.param->type().tensorLayout();
    const IntTuple *tiler = localTile->get<IntTuple>(attr::tiler);
    const IntTuple *coord = localTile->get(attr::coord);
    size_t rank = layout.shape.isLeaf() ? 1 : layout.rank();
    if (!tiler || !coord || depth(makeLayout(*tiler)) > 1 || !tiler->isStatic())
      return fail(op, "the tiler must be a flat static shape");
    size_t tileRank = tiler->isLeaf() ? 1 : tiler->rank();
    if (tileRank > rank)
      return fail(op, "the tiler has more modes than the tensor");
    for (size_t j = 0; j < rank; ++j)
      tile.tiler.push_back(j < tileRank ? (tiler->isLeaf() ? *tiler : (*tiler)[j]).leaf().staticValue()
                                        : 1);
    if (!needOrigin)
      return true;
    // The rest coordinates: fixed by local_tile, or by the slice (which
    // must keep the tile modes whole and fix every remaining rest mode).
    std::vector<IntTuple> pattern;
    if (slice) {
      const IntTuple *p = slice->get(attr::coord);
      if (!p)
        return fail(op, "internal error: a slice without a coordinate");
      flattenInto(*p, pattern);
    }
    std::vector<IntTuple> coords;
    flattenInto(*coord, coords);
    if (coords.size() != rank)
      return fail(op, "the coordinate of local_tile must have one entry per tensor mode");
    size_t next = tileRank;
    for (size_t k = 0; k < (slice ? tileRank : 0); ++k)
      if (k >= pattern.size() || !pattern[k].isUnderscore())
        return fail(op, "the tile must be copied whole: index only its rest modes");
    for (size_t j = 0; j < rank; ++j) {
      if (!coords[j].isUnderscore()) {
        tile.restCoords.push_back({coords[j].leaf().staticValue(), nullptr});
        continue;
      }
      if (!slice || next >= pattern.size() || pattern[next].isUnderscore())
        return fail(op, "mode " + llvm::Twine(j) + " of the tensor is not fixed to one tile; "
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
        return fail(op, "internal error: bad slice pattern " + p.str());
      tile.restCoords.push_back({0, slice->operand(index + 1)});
    }
    return true;
  }

  /// The swizzle in TMA's terms: 0, 32, 64 or 128 bytes.
  std::optional<int> tmaSwizzleBytes(const Operation &op, const Swizzle &s) {
    if (s.isIdentity())
      return 0;
    if (std::optional<hw::TmaSwizzle> mode = hw::tmaSwizzleOf(s.bits, s.base, s.shift))
      return int(hw::tmaSwizzleSpan(*mode));
    fail(op, "TMA swizzles with S<1,4,3> (32B), S<2,4,3> (64B) or S<3,4,3> (128B) on byte "
             "addresses, not " + s.str());
    return std::nullopt;
  }

  /// Whether `smem` (indexed like the tile) holds each element of box
  /// `piece` (of boxes `width` elements wide in dimension 0) at offset
  /// `base` + its offset in the packed box.
  bool checkTileImage(const Operation &op, const TmaBoxPlan &plan, const Layout &smem,
                      int64_t piece, int64_t width, const IntExpr &base, const std::string &what) {
    std::vector<int64_t> packed(plan.dims.size(), width);
    for (size_t d = 2; d < plan.dims.size(); ++d)
      packed[d] = packed[d - 1] * plan.dims[d - 1].box;
    // A static layout at a static offset compares in integers.
    std::optional<StaticIndexer> indexer = StaticIndexer::of(smem);
    std::vector<int64_t> c(plan.dims.size());
    for (int64_t r = 0; r < plan.tileElements(); ++r) {
      plan.dimCoordsInto(r, c);
      if (c[0] / width != piece)
        continue;
      int64_t at = c[0] - piece * width;
      for (size_t d = 1; d < c.size(); ++d)
        at += c[d] * packed[d];
      if (indexer && base.isStatic() && base.staticValue() + at == (*indexer)(r))
        continue;
      llvm::Expected<IntExpr> have = crd2idx(IntTuple(r), smem);
      if (!have) {
        llvm::consumeError(have.takeError());
        return fail(op, "internal error: cannot index the shared tensor");
      }
      if (base + at != *have)
        return fail(op, "the shared tensor " + smem.str() + " is not the image of " + what +
                            ": TMA " + (op.kind() == OpKind::TmaStore ? "reads" : "writes") +
                            " element " + llvm::Twine(r) + " of the tile " +
                            (op.kind() == OpKind::TmaStore ? "from" : "at") + " offset " +
                            (base + at).str() + ", the layout puts it at " + have->str() +
                            " (the box in TMA order is " + plan.boxLayout().str() + ")");
    }
    return true;
  }

  /// Whether `smem` (of the box's size: the tile without its broadcast
  /// modes) is the packed box itself, element q at offset q.
  bool checkPackedImage(const Operation &op, const TmaBoxPlan &plan, const Layout &smem) {
    std::optional<StaticIndexer> indexer = StaticIndexer::of(smem);
    for (int64_t q = 0; q < plan.boxElements(); ++q) {
      if (indexer && (*indexer)(q) == q)
        continue;
      llvm::Expected<IntExpr> have = crd2idx(IntTuple(q), smem);
      if (!have) {
        llvm::consumeError(have.takeError());
        return fail(op, "internal error: cannot index the shared tensor");
      }
      if (!have->isConstant(q))
        return fail(op, "the shared tensor " + smem.str() + " has the " +
                            llvm::Twine(plan.boxElements()) +
                            " elements of the tile without its broadcast modes, so it must be "
                            "the packed box in TMA order, element q at offset q; it puts "
                            "element " + llvm::Twine(q) + " at " + have->str() +
                            " (the tile in the box is " + plan.boxLayout().str() + ")");
    }
    return true;
  }

  /// `local_tile(smem, tiler, coord)` as an op that partition turns into a
  /// view at the box's offset; `view` is what the layout algebra made of it.
  Value *boxView(ir::Builder &b, const Operation &op, Value *smem, const IntTuple &tiler,
                 const IntTuple &coord, const TileView &view) {
    const Type &type = smem->type();
    Operation &tile = b.create(
        OpKind::LocalTile, op.loc(), {smem},
        {Type::tensor(type.element(), type.memorySpace(), view.layout, type.tensorSwizzle())});
    tile.set(attr::tiler, tiler);
    tile.set(attr::coord, coord);
    return tile.result();
  }

  /// The box origin in TMA dimension `dim` (TMA units: `unit` elements):
  /// the sum of the rest coordinates that step it.
  Value *origin(ir::Builder &b, const Operation &op, const Tile &tile, const TmaBoxPlan &plan,
                int dim, int64_t unit) {
    Value *sum = nullptr;
    int64_t constant = 0;
    for (auto [mode, scale] : plan.originTerms(dim)) {
      const RestCoord &c = tile.restCoords[mode];
      if (!c.operand) {
        constant += c.value * scale / unit;
        continue;
      }
      Value *term = b.createValue(OpKind::Mul, op.loc(), Type::scalar(DataType::I32),
                                  {c.operand, b.constantInt(op.loc(), DataType::I32, scale / unit)});
      sum = sum ? b.createValue(OpKind::Add, op.loc(), Type::scalar(DataType::I32), {sum, term})
                : term;
    }
    if (!sum)
      return b.constantInt(op.loc(), DataType::I32, constant);
    if (constant)
      sum = b.createValue(OpKind::Add, op.loc(), Type::scalar(DataType::I32),
                          {sum, b.constantInt(op.loc(), DataType::I32, constant)});
    return sum;
  }

  bool lowerCopy(Operation &op) {
    bool store = op.kind() == OpKind::TmaStore;
    Tile tile;
    if (!analyseTile(op, op.operand(store ? 1 : 0), tile))
      return false;
    const Type &gmemType = tile.param->type();
    Value *smem = op.operand(store ? 0 : 1);
    const Layout &smemLayout = smem->type().tensorLayout();
    std::optional<int> swizzle = tmaSwizzleBytes(op, smem->type().tensorSwizzle());
    if (!swizzle)
      return false;
    unsigned bits = ir::bitWidth(gmemType.element());
    llvm::Expected<TmaBoxPlan> planned =
        planTmaBox(gmemType.tensorLayout(), tile.tiler, bits, *swizzle ? *swizzle : 16);
    if (!planned)
      return fail(op, llvm::toString(planned.takeError()));
    TmaBoxPlan &plan = *planned;

    ir::TensorMapSpec spec;
    spec.source = tile.param->nameHint();
    spec.element = gmemType.element();
    spec.swizzleBytes = *swizzle;
    for (size_t d = 0; d < plan.dims.size(); ++d) {
      spec.globalDim.push_back(plan.dims[d].extent);
      if (d)
        spec.globalStride.push_back(plan.dims[d].stride);
      spec.box.push_back(plan.dims[d].box);
    }
    int64_t boxBytes0 = spec.box[0] * bits / 8;
    if (spec.packsNibbles() && spec.box[0] % 2)
      return fail(op, "a box of 4-bit elements needs an even extent in its contiguous mode, not " +
                          llvm::Twine(spec.box[0]));
    if ((spec.box[0] * bits) % 128)
      return fail(op, "the box's contiguous extent is " + llvm::Twine(boxBytes0) +
                          " bytes; TMA needs a multiple of 16");
    // The tile is at most 256 elements per mode, like a box, even when it is
    // copied in several.
    for (int64_t b : spec.box)
      if (b > 256)
        return fail(op, "a TMA box has at most 256 elements per mode, not " + llvm::Twine(b));
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
      return fail(op, "the box's contiguous extent is " + llvm::Twine(boxBytes0) +
                          " bytes; with the " + llvm::Twine(*swizzle) +
                          "-byte swizzle it must be " + llvm::Twine(*swizzle) +
                          " or a multiple of it");
    plan.dims[0].box = spec.box[0];
    // The boxes of a split copy lie along dimension 0, which must then be a
    // whole mode of the tensor, as the shared tensor's mode of the same
    // index is cut the same way.
    size_t rank = plan.tiler.size();
    size_t contiguousMode = 0;
    unsigned contiguousLeaves = 0;
    for (const TmaTileLeaf &leaf : plan.leaves)
      if (leaf.dim == 0) {
        contiguousMode = leaf.mode;
        ++contiguousLeaves;
      }
    if (pieces > 1 && (smemLayout.shape.isLeaf() || smemLayout.rank() != rank))
      return fail(op, "a tile copied as several boxes needs a shared tensor with one mode per "
                      "mode of the tensor, not " +
                          smemLayout.str());
    if (pieces > 1 &&
        (contiguousLeaves != 1 ||
         llvm::count_if(plan.leaves, [&](const TmaTileLeaf &l) { return l.mode == contiguousMode; }) != 1))
      return fail(op, "a tile copied as several boxes needs its contiguous mode to be one leaf of "
                      "the tensor " + gmemType.tensorLayout().str());
    std::optional<int64_t> smemSize = size(smemLayout).getStatic();
    bool packedImage = smemSize && *smemSize != plan.tileElements();
    if (packedImage && (*smemSize != plan.boxElements() || pieces > 1))
      return fail(op, "the shared tensor " + smemLayout.str() + " has " +
                          llvm::Twine(*smemSize) + " elements; the tile has " +
                          llvm::Twine(plan.tileElements()) + ", " +
                          llvm::Twine(plan.boxElements()) + " without its broadcast modes");

    ir::Builder b;
    b.setInsertionPoint(op);
    Value *map = mapArgument(std::move(spec));
    const ir::TensorMapSpec &mapSpec = map->type().tensorMapSpec();
    copiedTiles.push_back({tile.param, tile.tiler, map});
    // The tile's origin per TMA dimension, in TMA units (bytes in dimension
    // 0 when it packs nibbles).
    int64_t unit0 = mapSpec.packsNibbles() ? 2 : 1;
    std::vector<Value *> originValues;
    for (size_t d = 0; d < plan.dims.size(); ++d)
      originValues.push_back(origin(b, op, tile, plan, int(d), d == 0 ? unit0 : 1));
    for (int64_t piece = 0; piece < pieces; ++piece) {
      IntExpr base(0);
      Value *buffer = smem;
      if (pieces > 1) {
        std::vector<IntTuple> tiler, coord;
        for (size_t i = 0; i < rank; ++i) {
          tiler.push_back(IntTuple(i == contiguousMode ? mapSpec.box[0] : plan.tiler[i]));
          coord.push_back(IntTuple(i == contiguousMode ? piece : 0));
        }
        IntTuple boxTiler = IntTuple::tuple(tiler), boxCoord = IntTuple::tuple(coord);
        llvm::Expected<TileView> view = localTile(smemLayout, Tiler::fromShape(boxTiler), boxCoord);
        if (!view)
          return fail(op, "the boxes do not tile the shared tensor " + smemLayout.str() + ": " +
                              llvm::toString(view.takeError()));
        base = view->offset;
        buffer = boxView(b, op, smem, boxTiler, boxCoord, *view);
      }
      std::string which = pieces == 1 ? std::string("the box")
                                      : "box " + std::to_string(piece) + " of the " +
                                            std::to_string(pieces) + " boxes one swizzle span wide";
      if (packedImage ? !checkPackedImage(op, plan, smemLayout)
                      : !checkTileImage(op, plan, smemLayout, piece, mapSpec.box[0], base, which))
        return false;
      std::vector<Value *> coords = originValues;
      // Box p starts p box widths further along dimension 0.
      if (piece > 0)
        coords[0] = b.createValue(
            OpKind::Add, op.loc(), Type::scalar(DataType::I32),
            {originValues[0], b.constantInt(op.loc(), DataType::I32, piece * mapSpec.box[0] / unit0)});
      if (store) {
        std::vector<Value *> operands{map, buffer};
        operands.insert(operands.end(), coords.begin(), coords.end());
        b.create(OpKind::TmaStoreTile, op.loc(), operands);
        continue;
      }
      std::vector<Value *> operands{map, buffer, op.operand(2)};
      operands.insert(operands.end(), coords.begin(), coords.end());
      // A multicast load's CTA mask follows the coordinates, on every box.
      bool multicast = op.operands().size() == 4;
      if (multicast)
        operands.push_back(op.operand(3));
      Operation &copy = b.create(OpKind::TmaLoadTile, op.loc(), operands);
      if (multicast)
        copy.set(attr::multicast, true);
      if (const int64_t *group = op.get(attr::ctaGroup))
        copy.set(attr::ctaGroup, *group); // completes on the pair leader's mbarrier
    }
    ir::erase(op);
    return true;
  }

  /// prefetch_tma_descriptor(tile): `prefetch.tensormap` of every map the
  /// kernel's copies of tiles of that tensor by that tiler use.
  bool lowerPrefetch(Operation &op) {
    Tile tile;
    if (!analyseTile(op, op.operand(0), tile, /*needOrigin=*/false))
      return false;
    std::vector<Value *> maps;
    for (const CopiedTile &c : copiedTiles)
      if (c.param == tile.param && c.tiler == tile.tiler && !llvm::is_contained(maps, c.map))
        maps.push_back(c.map);
    if (maps.empty())
      return fail(op, "no tma_load or tma_store of this kernel copies tiles of '" +
                          tile.param->nameHint() + "' by this tiler, so there is no tensor "
                          "map to prefetch");
    ir::Builder b;
    b.setInsertionPoint(op);
    for (Value *map : maps)
      b.create(OpKind::PrefetchTensormap, op.loc(), {map});
    ir::erase(op);
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

  /// A lowered copy's tensor, tiler and map, for the prefetches.
  struct CopiedTile {
    Value *param;
    std::vector<int64_t> tiler;
    Value *map;
  };

  Operation &kernel;
  PassContext &context;
  std::vector<CopiedTile> copiedTiles;
};

class LowerTma : public Pass {
public:
  llvm::StringRef name() const override { return "lower-tma"; }
  void run(Operation &kernel, PassContext &context) override { TmaLowering(kernel, context).run(); }
};

} // namespace

std::unique_ptr<Pass> createLowerTmaPass() { return std::make_unique<LowerTma>(); }

} // namespace cutec
