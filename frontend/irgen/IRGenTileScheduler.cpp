// IRGenTileScheduler, for persistent tile schedulers (docs/language.md
// "Persistent kernels"), CuTe DSL's cutlass.utils vocabulary:
//
//   params = PersistentTileSchedulerParams((tiles_m, tiles_n, l), (2, 1, 1))
//   sched = StaticPersistentTileScheduler.create(params, block_idx(), grid_dim())
//   work = sched.initial_work_tile_info()
//   while work.is_valid_tile:
//       m, n, l = work.tile_idx
//       ...
//       sched.advance_to_next_work()
//       work = sched.get_current_work()
//
// The scheduler is a built-in object whose run-time state is the current
// work unit's digits (frontend/PersistentTileRaster.h) and the count of
// tiles done; everything else (the digits' radices and the step, the CTA's
// place in its cluster) is computed once by create and kept in private
// fields. A CTA's tile is its cluster's tile coordinate times the cluster
// shape plus its own place in the cluster, so the CTAs of a (2, 1, 1)
// cluster get the two M tiles of their cluster's pair.
#include "frontend/PersistentTileRaster.h"
#include "frontend/irgen/IRGen.h"

namespace cutec {

/// PersistentTileRaster.h's arithmetic on compile-time integers (folded,
/// symbolic ones included) and run-time i32 values.
struct IRGenTileScheduler::SchedulerArith {
  using Int = SemaValue;
  IRGenTileScheduler &g;
  CallSite &site;

  SemaValue binary(ast::BinaryOp op, const SemaValue &a, const SemaValue &b) {
    return g.gen.exprs().binary(op, a, b, {site.loc(), site.call, site.call});
  }
  static bool is(const SemaValue &v, int64_t c) {
    return v.is(SemaValue::Kind::Int) && v.intValue().isStatic() && v.intValue().staticValue() == c;
  }
  Int constant(int64_t v) { return SemaValue::integer(v); }
  // x + 0, x * 1, x // 1 and x % 1 cost nothing.
  Int add(const Int &a, const Int &b) {
    return is(b, 0) ? a : is(a, 0) ? b : binary(ast::BinaryOp::Add, a, b);
  }
  Int sub(const Int &a, const Int &b) { return binary(ast::BinaryOp::Sub, a, b); }
  Int mul(const Int &a, const Int &b) {
    return is(b, 1) ? a : is(a, 1) ? b : binary(ast::BinaryOp::Mul, a, b);
  }
  Int div(const Int &a, const Int &b) { return is(b, 1) ? a : binary(ast::BinaryOp::FloorDiv, a, b); }
  Int rem(const Int &a, const Int &b) {
    return is(b, 1) ? constant(0) : binary(ast::BinaryOp::Mod, a, b);
  }
  /// A symbolic integer as an i32 computed here, once: what the persistent
  /// loop reads is never recomputed there. Static integers stay static.
  Int pin(const Int &v) {
    if (!v.is(SemaValue::Kind::Int) || v.intValue().isStatic())
      return v;
    ir::Value *x = g.toRunTime(v, site.loc(), site.range(), ir::DataType::I32);
    return x ? SemaValue::runTime(x) : SemaValue::poison();
  }
  std::vector<Int> pin(std::vector<Int> values) {
    for (Int &v : values)
      v = pin(v);
    return values;
  }
  SemaValue ge(const Int &a, const Int &b) { return binary(ast::BinaryOp::Ge, a, b); }
  Int select(const SemaValue &c, const Int &a, const Int &b) {
    if (c.isPoison() || a.isPoison() || b.isPoison())
      return SemaValue::poison();
    if (c.is(SemaValue::Kind::Bool))
      return c.boolValue() ? a : b;
    ir::Value *x = g.toRunTime(a, site.loc(), site.range(), ir::DataType::I32);
    ir::Value *y = g.toRunTime(b, site.loc(), site.range(), ir::DataType::I32);
    if (!x || !y)
      return SemaValue::poison();
    return SemaValue::runTime(g.ctx.builder->createValue(
        ir::OpKind::Select, site.loc(), ir::Type::scalar(ir::DataType::I32), {c.irValue(), x, y}));
  }
};

namespace {

constexpr llvm::StringLiteral kParams = "PersistentTileSchedulerParams";
constexpr llvm::StringLiteral kClcParams = "ClcDynamicPersistentTileSchedulerParams";

bool isIndex(const SemaValue &v) {
  return v.is(SemaValue::Kind::Int) ||
         (v.is(SemaValue::Kind::RunTime) && v.type() == ir::Type::scalar(ir::DataType::I32));
}

/// `v` as a tuple of `n` integers (compile-time or run-time i32), or null.
const std::vector<SemaValue> *integerTuple(const SemaValue &v, size_t n) {
  if (!v.is(SemaValue::Kind::Tuple) || v.elements().size() != n)
    return nullptr;
  for (const SemaValue &e : v.elements())
    if (!isIndex(e))
      return nullptr;
  return &v.elements();
}

bool isPositiveStatic(const SemaValue &v) {
  return v.is(SemaValue::Kind::Int) && v.intValue().isStatic() && v.intValue().staticValue() >= 1;
}

/// What `v` is, for a message saying it is not a tuple of `n` elements that
/// satisfy `good`: "a tuple of 2 elements", "a tuple whose element 0 is the
/// dynamic size M".
std::string tupleProblem(const SemaValue &v, size_t n, bool (*good)(const SemaValue &)) {
  if (!v.is(SemaValue::Kind::Tuple))
    return v.describe();
  if (v.elements().size() != n)
    return "a tuple of " + std::to_string(v.elements().size()) + " elements";
  for (size_t i = 0; i < n; ++i)
    if (!good(v.elements()[i]))
      return "a tuple whose element " + std::to_string(i) + " is " + v.elements()[i].describe();
  return v.describe();
}

SemaValue tupleOf(std::vector<SemaValue> elements) { return SemaValue::tuple(std::move(elements)); }

std::vector<SemaValue> elementsOf(const SemaValue &object, llvm::StringRef field) {
  return object.field(field)->elements();
}

} // namespace

// PersistentTileSchedulerParams(problem_shape_ntile_mnl, cluster_shape_mnk,
// swizzle_size=1, raster_along_m=True): compile-time facts about the
// problem, whose tile counts may be dynamic.
SemaValue IRGenTileScheduler::tileSchedulerParams(CallSite &site) {
  if (!integerTuple(site.bound[0], 3))
    return error(site.argExpr(0), "the problem's tile counts (M, N, L) must be a tuple of 3 "
                                  "integers, not " +
                                      tupleProblem(site.bound[0], 3, isIndex));
  const SemaValue &cluster = site.bound[1];
  const std::vector<SemaValue> *shape = integerTuple(cluster, 3);
  if (!shape || !llvm::all_of(*shape, isPositiveStatic))
    return error(site.argExpr(1), "the cluster shape must be a tuple of 3 positive compile-time "
                                  "integers, not " +
                                      tupleProblem(cluster, 3, isPositiveStatic));
  if ((*shape)[2].intValue().staticValue() != 1)
    return error(site.argExpr(1), "the cluster shape's K extent must be 1, not " +
                                      (*shape)[2].describe());
  return SemaValue::object(site.callee,
                           {"problem_shape_ntile_mnl", "cluster_shape_mn", "swizzle_size",
                            "raster_along_m"},
                           {site.bound[0], tupleOf({(*shape)[0], (*shape)[1]}), site.bound[2],
                            site.bound[3]});
}

const SemaValue *IRGenTileScheduler::schedulerParams(CallSite &site, llvm::StringRef className) {
  if (!inKernel(site))
    return nullptr;
  const SemaValue &params = site.bound[0];
  if (!params.is(SemaValue::Kind::Object) || params.className() != className) {
    error(site.argExpr(0),
          "the scheduler's params must be a " + className + "(...), not " + params.describe());
    return nullptr;
  }
  if (!integerTuple(site.bound[1], 3)) {
    error(site.argExpr(1), "block_idx must be a tuple of 3 integers, such as block_idx(), not " +
                               tupleProblem(site.bound[1], 3, isIndex));
    return nullptr;
  }
  if (!integerTuple(site.bound[2], 3)) {
    error(site.argExpr(2), "grid_dim must be a tuple of 3 integers, such as grid_dim(), not " +
                               tupleProblem(site.bound[2], 3, isIndex));
    return nullptr;
  }
  std::vector<SemaValue> cluster = elementsOf(params, "cluster_shape_mn");
  int64_t cm = cluster[0].intValue().staticValue(), cn = cluster[1].intValue().staticValue();
  if (cm != ctx.clusterShape[0] || cn != ctx.clusterShape[1] || ctx.clusterShape[2] != 1) {
    error(site.argExpr(0),
          "the params' cluster shape (" + llvm::Twine(cm) + ", " + llvm::Twine(cn) +
              ", 1) is not the kernel's cluster=(" + llvm::Twine(ctx.clusterShape[0]) + ", " +
              llvm::Twine(ctx.clusterShape[1]) + ", " + llvm::Twine(ctx.clusterShape[2]) + ")");
    return nullptr;
  }
  return &params;
}

// StaticPersistentTileScheduler.create(params, block_idx, grid_dim): the
// CTA's cluster and its first work unit, the cluster's linear index in the
// grid (CuTe DSL's grid (cluster_m, cluster_n, P) gives block_idx().z; any
// grid of whole clusters works), and the grid's P clusters as the step.
SemaValue IRGenTileScheduler::createStaticScheduler(CallSite &site) {
  const SemaValue *found = schedulerParams(site, kParams);
  if (!found)
    return SemaValue::poison();
  const SemaValue &params = *found;
  const std::vector<SemaValue> &block = site.bound[1].elements();
  const std::vector<SemaValue> &grid = site.bound[2].elements();
  std::vector<SemaValue> cluster = elementsOf(params, "cluster_shape_mn");
  int64_t cm = cluster[0].intValue().staticValue(), cn = cluster[1].intValue().staticValue();
  SchedulerArith a{*this, site};
  using Raster = TileRaster<SchedulerArith>;
  SemaValue clusterM = SemaValue::integer(cm), clusterN = SemaValue::integer(cn);
  std::vector<SemaValue> tiles = elementsOf(params, "problem_shape_ntile_mnl");
  auto ceilDiv = [&](const SemaValue &x, int64_t d) {
    return d == 1 ? x : a.div(a.add(x, a.constant(d - 1)), a.constant(d));
  };
  RasterOrder order{params.field("raster_along_m")->boolValue(),
                    params.field("swizzle_size")->intValue().staticValue()};
  std::vector<SemaValue> radices =
      a.pin(Raster::radices(a, order, ceilDiv(tiles[0], cm), ceilDiv(tiles[1], cn)));
  // The cluster's linear index, x fastest, and the grid's cluster count.
  SemaValue gridX = a.div(grid[0], clusterM), gridY = a.div(grid[1], clusterN);
  SemaValue linear =
      a.add(a.div(block[0], clusterM),
            a.mul(gridX, a.add(a.div(block[1], clusterN), a.mul(gridY, block[2]))));
  SemaValue clusters = a.mul(a.mul(gridX, gridY), grid[2]);
  std::vector<SemaValue> first = a.pin(Raster::digits(a, linear, radices));
  std::vector<SemaValue> step = a.pin(Raster::digits(a, clusters, radices));
  SemaValue cta = tupleOf({a.rem(block[0], clusterM), a.rem(block[1], clusterN)});
  return SemaValue::object("StaticPersistentTileScheduler",
                           {"_params", "_radices", "_step", "_cta", "_batches",
                            "_num_persistent_clusters", "work_digits", "num_tiles_executed"},
                           {params, tupleOf(radices), tupleOf(step), cta, a.pin(tiles[2]),
                            a.pin(clusters), tupleOf(first), SemaValue::integer(0)});
}

// initial_work_tile_info() and get_current_work(): the tile of the current
// work unit, valid while its batch digit is below L.
SemaValue IRGenTileScheduler::schedulerCurrentWork(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const SemaValue &self = *site.self;
  const SemaValue &params = *self.field("_params");
  SchedulerArith a{*this, site};
  using Raster = TileRaster<SchedulerArith>;
  RasterOrder order{params.field("raster_along_m")->boolValue(),
                    params.field("swizzle_size")->intValue().staticValue()};
  std::array<SemaValue, 3> coord =
      Raster::clusterCoord(a, order, elementsOf(self, "work_digits"));
  std::vector<SemaValue> cluster = elementsOf(params, "cluster_shape_mn");
  std::vector<SemaValue> cta = elementsOf(self, "_cta");
  SemaValue tile = tupleOf({a.add(a.mul(coord[0], cluster[0]), cta[0]),
                            a.add(a.mul(coord[1], cluster[1]), cta[1]), coord[2]});
  SemaValue valid = a.binary(ast::BinaryOp::Lt, coord[2], *self.field("_batches"));
  return SemaValue::object("WorkTileInfo", {"tile_idx", "is_valid_tile"}, {tile, valid});
}

// advance_to_next_work(): P work units on, by adding P's digits.
SemaValue IRGenTileScheduler::schedulerAdvance(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const SemaValue &self = *site.self;
  SchedulerArith a{*this, site};
  using Raster = TileRaster<SchedulerArith>;
  std::vector<SemaValue> next =
      Raster::advance(a, elementsOf(self, "work_digits"), elementsOf(self, "_step"),
                      elementsOf(self, "_radices"));
  site.updatedSelf =
      self.withField("work_digits", tupleOf(next))
          .withField("num_tiles_executed",
                     a.add(*self.field("num_tiles_executed"), a.constant(1)));
  return SemaValue::none();
}

// ClcDynamicPersistentTileScheduler.create(params, block_idx, grid_dim,
// clc_response): the grid has a CTA per tile (rounded up to whole
// clusters), raster along M without swizzle, so a canceled cluster's first
// CTA id is its first tile.
SemaValue IRGenTileScheduler::createClcScheduler(CallSite &site) {
  const SemaValue *params = schedulerParams(site, kClcParams);
  if (!params)
    return SemaValue::poison();
  if (!params->field("raster_along_m")->boolValue())
    return error(site.argExpr(0), "ClcDynamicPersistentTileScheduler walks the grid's own raster "
                                  "order: its params need raster_along_m=True");
  SchedulerArith a{*this, site};
  std::vector<SemaValue> cluster = elementsOf(*params, "cluster_shape_mn");
  const std::vector<SemaValue> &block = site.bound[1].elements();
  SemaValue cta = tupleOf({a.rem(block[0], cluster[0]), a.rem(block[1], cluster[1])});
  return SemaValue::object("ClcDynamicPersistentTileScheduler",
                           {"_params", "_cta", "_block", "_response", "num_tiles_executed"},
                           {*params, cta, site.bound[1], site.bound[3], SemaValue::integer(0)});
}

// initial_work_tile_info(): the CTA's own tile.
SemaValue IRGenTileScheduler::clcSchedulerInitialWork(CallSite &site) {
  return SemaValue::object("WorkTileInfo", {"tile_idx", "is_valid_tile"},
                           {*site.self->field("_block"), SemaValue::boolean(true)});
}

// get_current_work(): the tile of the cluster the last try_cancel canceled
// (the caller waited for its response), this CTA's place in it added.
SemaValue IRGenTileScheduler::clcSchedulerCurrentWork(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  SemaValue response =
      gen.builtins().invokeBuiltin("clc_response", site, {*site.self->field("_response")});
  if (response.isPoison())
    return response;
  SchedulerArith a{*this, site};
  const std::vector<SemaValue> &first = response.elements();
  std::vector<SemaValue> cta = elementsOf(*site.self, "_cta");
  SemaValue tile = tupleOf({a.add(first[0], cta[0]), a.add(first[1], cta[1]), first[2]});
  return SemaValue::object("WorkTileInfo", {"tile_idx", "is_valid_tile"}, {tile, first[3]});
}

// advance_to_next_work(mbarrier): try_cancel, multicast to the cluster; one
// thread issues it, and each CTA's mbarrier expects the 16 response bytes.
SemaValue IRGenTileScheduler::clcSchedulerAdvance(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const SemaValue &self = *site.self;
  if (gen.builtins()
          .invokeBuiltin("issue_clc_query", site, {site.bound[0], *self.field("_response")})
          .isPoison())
    return SemaValue::poison();
  SchedulerArith a{*this, site};
  site.updatedSelf = self.withField("num_tiles_executed",
                                    a.add(*self.field("num_tiles_executed"), a.constant(1)));
  return SemaValue::none();
}

} // namespace cutec
