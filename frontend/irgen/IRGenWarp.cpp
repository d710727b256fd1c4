//===- IRGenWarp.cpp - Warp collectives and warp specialisation -----------===//
//
// `shuffle_sync_up/down/bfly/idx(value, offset, mask=0xFFFFFFFF,
// mask_and_clamp=...)` (CuTe DSL's cute.arch.shuffle_sync_*, shuffle_sync
// being idx): shfl.sync.<mode>.b32 of a 32-bit scalar, lane l reading lane
// l - offset, l + offset, l ^ offset or lane `offset` (within the segments
// and clamp of mask_and_clamp, PTX's c operand; docs/language.md). All 32
// lanes must take part, from the same statement; the result has value's
// type.
// `warp_reduction_sum/max/min(value, threads_in_group=32)` (CuTe DSL's
// cute.arch.warp_reduction_sum/max) combine the values of each group of
// lanes by butterfly shuffles with offsets group/2, ..., 2, 1: after the
// step of offset o every lane holds its own and lane (lane ^ o)'s
// combination, the same in both (f32 addition commutes), so every lane of
// a group ends with the same, bit-identical result.
// On a register fragment, the shuffles and reductions apply to each element
// (the same lanes and offsets for all): warp_reduction_max(row_max,
// threads_in_group=4) combines each element over the 4 lanes of a group.
// `block_reduction_sum/max/min(value, scratch)` combines the warps' results
// through one shared element per warp (blockReduction below).
//
// Warp specialisation (docs/language.md "Warp specialisation"): warp_idx(),
// lane_idx(), elect_one() and setmaxnreg are table intrinsics; here is
// NamedBarrier, CuTe DSL's cutlass.pipeline.NamedBarrier, a built-in object
// whose methods become bar.arrive / bar.sync with its id and thread count.
// Pass verify-uniformity checks that all of them are reached by whole warps
// (whole warpgroups for setmaxnreg).
//
// `stmatrix(tile, fragment, trans=False)` and `ldmatrix(tile, trans=False)`
// (CuTe's SM90_U32xN_STSM_N/T and SM75_U32xN_LDSM_N/T copy atoms): the warp
// stores or loads one to four 8x8 matrices of 16-bit elements of a shared
// tile (ir/core/WarpMatrix.h says which lane names which row). The tile's
// layout must keep each row of 8 elements (each column with `trans`)
// contiguous and 16-byte aligned, which is checked here element by element.
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"
#include "ir/core/WarpMatrix.h"

namespace cutec {

ir::Value *IRGenWarp::shuffledScalar(CallSite &site, const SemaValue &v, llvm::StringRef verb) {
  if (!requireBuilder(site.loc(), site.callee + "()"))
    return nullptr;
  ir::Value *value = toRunTime(v, site.argExpr(0));
  if (!value)
    return nullptr;
  ir::DataType type = value->type().element();
  if (value->type().isScalar() &&
      (type == ir::DataType::F32 || type == ir::DataType::I32 || type == ir::DataType::U32))
    return value;
  error(site.argExpr(0), site.callee + " " + verb + " 32-bit scalars (f32, i32, u32), not " +
                             value->type().str());
  return nullptr;
}

ir::Operation &IRGenWarp::emitShuffle(llvm::SMLoc loc, llvm::StringRef mode, ir::Value *value,
                                      int64_t clamp, std::optional<int64_t> offset,
                                      ir::Value *laneOffset) {
  llvm::SmallVector<ir::Value *, 2> operands{value};
  if (!offset)
    operands.push_back(laneOffset);
  ir::Operation &op = ctx.builder->create(ir::OpKind::Shuffle, loc, operands, {value->type()});
  op.set(ir::attr::mode, mode.str());
  op.set(ir::attr::clamp, clamp);
  if (offset)
    op.set(ir::attr::offset, *offset);
  return op;
}

SemaValue IRGenWarp::eachElement(CallSite &site, SemaValue (IRGenWarp::*collective)(CallSite &)) {
  return gen.tensors().elementwise({site.bound[0]}, {&site.boundExpr(0, "value")}, site.loc(),
                                   [&](llvm::ArrayRef<SemaValue> element) {
                                     CallSite each = site;
                                     each.bound[0] = element.front();
                                     return (this->*collective)(each);
                                   });
}

SemaValue IRGenWarp::callShuffle(CallSite &site) {
  if (IRGenTensor::isFragment(site.bound[0]))
    return eachElement(site, &IRGenWarp::callShuffle);
  llvm::StringRef mode = site.callee == "shuffle_sync"
                             ? "idx"
                             : site.callee.drop_front(llvm::StringRef("shuffle_sync_").size());
  const SemaValue &mask = site.bound[2];
  if (!mask.is(SemaValue::Kind::None) &&
      (!mask.is(SemaValue::Kind::Int) || !mask.intValue().isStatic() ||
       uint32_t(mask.intValue().staticValue()) != 0xFFFFFFFFu))
    return error(site.boundExpr(2, "mask"), site.callee +
                                                " takes all 32 lanes of the warp: its mask is "
                                                "0xFFFFFFFF (the default), not " +
                                                mask.describe());
  ir::Value *value = shuffledScalar(site, site.bound[0], "moves");
  if (!value)
    return SemaValue::poison();
  const SemaValue &offset = site.bound[1];
  std::optional<int64_t> staticOffset;
  ir::Value *laneOffset = nullptr;
  if (offset.is(SemaValue::Kind::Int) && offset.intValue().isStatic()) {
    staticOffset = offset.intValue().staticValue();
    if (*staticOffset < 0 || *staticOffset > 31)
      return error(site.boundExpr(1, "offset"),
                   "the lane " + llvm::Twine(mode == "idx" ? "" : "offset ") + "of " + site.callee +
                       " must be from 0 to 31, not " + llvm::Twine(*staticOffset));
  } else if (!(laneOffset =
                   toIndex(offset, site.boundExpr(1, "offset"),
                           (site.callee + (mode == "idx" ? "'s lane" : "'s lane offset")).str()))) {
    return SemaValue::poison();
  }
  int64_t clamp = site.bound[3].intValue().staticValue();
  return SemaValue::runTime(
      emitShuffle(site.loc(), mode, value, clamp, staticOffset, laneOffset).result());
}

SemaValue IRGenWarp::warpReduction(CallSite &site) {
  if (IRGenTensor::isFragment(site.bound[0]))
    return eachElement(site, &IRGenWarp::warpReduction);
  llvm::StringRef op = site.callee.drop_front(llvm::StringRef("warp_reduction_").size());
  int64_t group = site.bound[1].intValue().staticValue();
  if (!llvm::isPowerOf2_64(uint64_t(group)))
    return error(site.loc(), site.callee + "'s threads_in_group must be a power of two from 1 "
                                           "to 32, not " + llvm::Twine(group),
                 {site.range()});
  ir::Value *value = shuffledScalar(site, site.bound[0], "reduces");
  if (!value)
    return SemaValue::poison();
  return SemaValue::runTime(reduceOverLanes(op, value, group, site.loc()));
}

ir::Value *IRGenWarp::reduceOverLanes(llvm::StringRef op, ir::Value *value, int64_t group,
                                      llvm::SMLoc loc) {
  for (int64_t offset = group / 2; offset >= 1; offset /= 2)
    value = combineReduced(op, value, emitShuffle(loc, "bfly", value, 31, offset).result(), loc);
  return value;
}

ir::Value *IRGenWarp::combineReduced(llvm::StringRef op, ir::Value *a, ir::Value *b,
                                     llvm::SMLoc loc) {
  if (op == "sum")
    return ctx.builder->createValue(ir::OpKind::Add, loc, a->type(), {a, b});
  ir::Operation &combine = ctx.builder->create(ir::OpKind::MathCall, loc, {a, b}, {a->type()});
  combine.set(ir::attr::fn, op.str());
  return combine.result();
}

// block_reduction_sum/max/min(value, scratch): each warp reduces its lanes'
// values (reduceOverLanes), all its lanes store the (same) result into
// scratch[warp_idx()], and after a barrier every thread combines
// scratch[0], scratch[1], ... in that order; a second barrier lets the
// block use scratch again.
SemaValue IRGenWarp::blockReduction(CallSite &site) {
  llvm::StringRef op = site.callee.drop_front(llvm::StringRef("block_reduction_").size());
  ir::Value *value = shuffledScalar(site, site.bound[0], "reduces");
  if (!value)
    return SemaValue::poison();
  if (ctx.blockThreads <= 0 || ctx.blockThreads % 32 != 0)
    return error(site.loc(),
                 site.callee + " needs a block of whole warps, not " +
                     llvm::Twine(ctx.blockThreads) + " threads",
                 {site.range()});
  int64_t warps = ctx.blockThreads / 32;
  const SemaValue &scratch = site.bound[1];
  const ir::Type &type = scratch.type();
  const Layout &layout = type.tensorLayout();
  std::optional<int64_t> elements = size(layout).getStatic();
  if (type.element() != value->type().element() || !(layout.shape.isLeaf() || layout.rank() == 1) ||
      !elements || *elements < warps)
    return error(site.boundExpr(1, "scratch"),
                 site.callee + " needs a one-dimensional shared tensor of at least " +
                     llvm::Twine(warps) + " " + ir::name(value->type().element()) +
                     " elements (one per warp), not " + type.str());
  llvm::SMLoc loc = site.loc();
  ir::Value *partial = reduceOverLanes(op, value, 32, loc);
  ir::Value *warp =
      ctx.builder->createValue(ir::OpKind::WarpIdx, loc, ir::Type::scalar(ir::DataType::I32), {});
  ctx.builder->create(
      ir::OpKind::Store, loc,
      {partial, gen.tensors().elementView(scratch, SemaValue::runTime(warp), loc).irValue()});
  ctx.builder->create(ir::OpKind::BarrierSync, loc, {});
  ir::Value *total = nullptr;
  for (int64_t w = 0; w < warps; ++w) {
    ir::Value *element = gen.tensors().elementView(scratch, SemaValue::integer(w), loc).irValue();
    ir::Value *loaded = ctx.builder->createValue(ir::OpKind::Load, loc, value->type(), {element});
    total = total ? combineReduced(op, total, loaded, loc) : loaded;
  }
  ctx.builder->create(ir::OpKind::BarrierSync, loc, {});
  return SemaValue::runTime(total);
}

std::optional<std::pair<int64_t, int64_t>> IRGenWarp::matrixTile(CallSite &site, bool trans) {
  llvm::StringRef name = site.callee;
  const ir::Type &type = site.bound[0].type();
  const Layout &layout = type.tensorLayout();
  auto mistake = [&](const llvm::Twine &message) {
    error(site.argExpr(0), name + " " + message);
    return std::nullopt;
  };
  if (ir::bitWidth(type.element()) != 16)
    return mistake("moves 16-bit elements (.b16), not " + ir::name(type.element()));
  std::optional<int64_t> rows, columns;
  if (layout.rank() == 2 && layout.isStatic()) {
    rows = size(layout[0]).getStatic();
    columns = size(layout[1]).getStatic();
  }
  int64_t num = rows && columns ? *rows * *columns / 64 : 0;
  if (!rows || *rows % 8 != 0 || *columns % 8 != 0 || (num != 1 && num != 2 && num != 4))
    return mistake("needs a static (rows, columns) tile of one, two or four 8x8 matrices "
                   "((8, 8), (16, 8), (8, 16), (16, 16), (32, 8) or (8, 32)), not " +
                   layout.str());
  const Swizzle &swizzle = type.tensorSwizzle();
  if (!swizzle.isIdentity() && swizzle.base + std::min(0, swizzle.shift) < 4)
    return mistake("needs rows of 16 bytes that the swizzle keeps together, but " +
                   swizzle.str() + " moves bytes within them");
  // Every row (column with trans) of every matrix: 8 contiguous elements
  // whose first is 16 bytes aligned from the tile's start. The first
  // coordinate that breaks this, if any.
  int64_t rowBlocks = *rows / 8;
  auto misplaced = [&](bool transposed) -> std::optional<std::pair<IntTuple, int64_t>> {
    for (int64_t lane = 0; lane < 8 * num; ++lane) {
      IntTuple start = ir::matrixRowStart(lane, rowBlocks, num, transposed);
      int64_t r = start[0].leaf().staticValue(), c = start[1].leaf().staticValue();
      int64_t first = 0;
      for (int64_t j = 0; j < 8; ++j) {
        IntTuple coord = transposed ? tup(r + j, c) : tup(r, c + j);
        llvm::Expected<IntExpr> offset = crd2idx(coord, layout);
        int64_t at = offset ? offset->staticValue() : -1;
        if (!offset)
          llvm::consumeError(offset.takeError());
        if (j == 0)
          first = at;
        if (at != first + j || first % 8 != 0)
          return std::pair(coord, at);
      }
    }
    return std::nullopt;
  };
  if (auto wrong = misplaced(trans))
    return mistake(llvm::Twine("needs each ") + (trans ? "column" : "row") +
                   " of 8 elements of an 8x8 matrix contiguous and 16-byte aligned, but the "
                   "tile's layout " + layout.str() + " puts element " + wrong->first.str() +
                   " at offset " + llvm::Twine(wrong->second) +
                   (misplaced(!trans) ? ""
                    : trans           ? "; a row-major tile needs trans=False"
                                      : "; a column-major tile needs trans=True"));
  return std::pair(num, rowBlocks);
}

// stmatrix(tile, fragment, *, trans=False) and ldmatrix(tile, *, trans=False):
// lane l's register m (elements 2m, 2m+1 of its fragment) is row l/4,
// columns 2(l%4) and 2(l%4)+1 of matrix m (PTX "Matrix fragments for
// stmatrix/ldmatrix"), of the tile's block or, with trans, its transpose.
SemaValue IRGenWarp::matrixCopy(CallSite &site) {
  bool store = site.callee == "stmatrix";
  bool trans = site.bound.back().boolValue();
  ir::Builder *b = requireBuilder(site.loc(), site.callee + "()");
  if (!b)
    return SemaValue::poison();
  std::optional<std::pair<int64_t, int64_t>> tile = matrixTile(site, trans);
  if (!tile)
    return SemaValue::poison();
  auto [num, rowBlocks] = *tile;
  ir::Value *view = site.bound[0].irValue();
  ir::DataType element = view->type().element();
  auto setForm = [&](ir::Operation &op) {
    op.set(ir::attr::num, num);
    op.set(ir::attr::rowBlocks, rowBlocks);
    op.set(ir::attr::trans, trans);
  };
  if (!store) {
    ir::Operation &op = b->create(
        ir::OpKind::Ldmatrix, site.loc(), {view},
        {ir::Type::tensor(element, ir::MemorySpace::Register, makeLayout(IntTuple(2 * num)))});
    setForm(op);
    return SemaValue::runTime(op.result());
  }
  const SemaValue &fragment = site.bound[1];
  const ir::Type &f = fragment.type();
  if (f.memorySpace() != ir::MemorySpace::Register || f.element() != element ||
      size(f.tensorLayout()) != IntExpr(2 * num))
    return error(site.argExpr(1), "stmatrix of " + llvm::Twine(num) +
                                      " matrices stores a register fragment of " +
                                      llvm::Twine(2 * num) + " " + ir::name(element) +
                                      " elements (two per matrix), not " + fragment.describe());
  ir::Operation &op =
      b->create(ir::OpKind::Stmatrix, site.loc(), {view, fragment.irValue()}, {});
  setForm(op);
  return SemaValue::none();
}

// NamedBarrier(barrier_id, num_threads): one of the CTA's sixteen hardware
// barriers, completed by num_threads threads (whole warps, checked by the
// signature). Barrier 0 is sync_threads()'s (bar.sync 0, every thread), so a
// named barrier takes 1 to 15.
SemaValue IRGenWarp::namedBarrier(CallSite &site) {
  if (site.bound[0].intValue().staticValue() == 0)
    return error(site.argExpr(0), "barrier 0 is the one sync_threads() uses; a NamedBarrier "
                                  "takes a barrier_id from 1 to 15");
  return SemaValue::object("NamedBarrier", {"barrier_id", "num_threads"},
                           {site.bound[0], site.bound[1]});
}

SemaValue IRGenWarp::namedBarrierMethod(CallSite &site) {
  // A variable reassigned in a run-time loop or branch carries its fields
  // as run-time values; the barrier instruction needs them as immediates.
  for (const char *field : {"barrier_id", "num_threads"}) {
    const SemaValue *v = site.self->field(field);
    if (!v->is(SemaValue::Kind::Int) || !v->intValue().isStatic())
      return error(site.loc(), llvm::Twine("this NamedBarrier's ") + field +
                                   " is only known at run time (the variable is reassigned in "
                                   "a run-time loop or branch); bar.sync needs it at compile time",
                   {site.range()});
  }
  int64_t id = site.self->field("barrier_id")->intValue().staticValue();
  if (site.callee == "NamedBarrier.get_barrier")
    return SemaValue::integer(id);
  if (!inKernel(site))
    return SemaValue::poison();
  int64_t threads = site.self->field("num_threads")->intValue().staticValue();
  bool wait = site.callee != "NamedBarrier.arrive";
  if (!emitNamedBarrier(id, threads, wait, site.loc(), site.range()))
    return SemaValue::poison();
  return SemaValue::none();
}

// barrier(barrier_id=None, number_of_threads=None): CuTe DSL's
// cute.arch.barrier, a bar.sync: barrier 0 of the whole block, which is
// sync_threads(), unless it names another barrier or fewer threads (whole
// warps, checked by the signature).
SemaValue IRGenWarp::barrier(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  int64_t id = site.bound[0].is(SemaValue::Kind::None)
                   ? 0
                   : site.bound[0].intValue().staticValue();
  int64_t threads = site.bound[1].is(SemaValue::Kind::None)
                        ? ctx.blockThreads
                        : site.bound[1].intValue().staticValue();
  if (id == 0 && threads == ctx.blockThreads) {
    ctx.builder->create(ir::OpKind::BarrierSync, site.loc(), {});
    return SemaValue::none();
  }
  if (!emitNamedBarrier(id, threads, /*wait=*/true, site.loc(), site.range()))
    return SemaValue::poison();
  return SemaValue::none();
}

bool IRGenWarp::emitNamedBarrier(int64_t id, int64_t threads, bool wait, llvm::SMLoc loc,
                                 llvm::SMRange range) {
  if (ctx.blockThreads && threads > ctx.blockThreads) {
    error(loc,
          "barrier " + llvm::Twine(id) + " waits for " + llvm::Twine(threads) +
              " threads, but the kernel's block has " + llvm::Twine(ctx.blockThreads) +
              ": it can never complete",
          {range});
    return false;
  }
  ir::Operation &op =
      ctx.builder->create(wait ? ir::OpKind::BarrierSync : ir::OpKind::BarrierArrive, loc, {});
  op.set(ir::attr::barrier, id);
  op.set(ir::attr::threads, threads);
  return true;
}

} // namespace cutec
