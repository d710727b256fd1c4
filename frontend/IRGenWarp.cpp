//===- IRGenWarp.cpp - Warp collectives and warp specialisation -----------===//
//
// `shuffle_sync_bfly(value, offset)` (CuTe DSL's cute.arch.shuffle_sync_bfly):
// every lane of the warp gets the value of lane (lane ^ offset). All 32 lanes
// must take part, from the same statement; the result has value's type.
// `warp_reduction_sum/max/min(value, threads_in_group=32)` (CuTe DSL's
// cute.arch.warp_reduction_sum/max) combine the values of each group of
// lanes by butterfly shuffles with offsets group/2, ..., 2, 1: after the
// step of offset o every lane holds its own and lane (lane ^ o)'s
// combination, the same in both (f32 addition commutes), so every lane of
// a group ends with the same, bit-identical result.
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
#include "frontend/IRGen.h"
#include "ir/core/WarpMatrix.h"

namespace cutec {

ir::Value *IRGen::shuffledScalar(CallSite &site, const SemaValue &v, llvm::StringRef verb) {
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

SemaValue IRGen::callShuffleBfly(CallSite &site) {
  if (!checkArity(site, "shuffle_sync_bfly", 2, 2))
    return SemaValue::poison();
  const SemaValue &offset = site.args[1];
  if (!offset.is(SemaValue::Kind::Int) || !offset.intValue().isStatic() ||
      offset.intValue().staticValue() < 1 || offset.intValue().staticValue() > 31)
    return error(site.argExpr(1),
                 "the lane offset of shuffle_sync_bfly must be a compile-time integer from 1 to "
                 "31, not " +
                     offset.describe());
  ir::Value *value = shuffledScalar(site, site.args[0], "moves");
  if (!value)
    return SemaValue::poison();
  ir::Operation &op = builder->create(ir::OpKind::ShuffleBfly, site.loc(), {value}, {value->type()});
  op.setAttr("offset", offset.intValue().staticValue());
  return SemaValue::runTime(op.result());
}

SemaValue IRGen::warpReduction(CallSite &site) {
  llvm::StringRef op = site.callee.drop_front(llvm::StringRef("warp_reduction_").size());
  int64_t group = site.bound[1].intValue().staticValue();
  if (!llvm::isPowerOf2_64(uint64_t(group)))
    return error(site.loc(), site.callee + "'s threads_in_group must be a power of two from 1 "
                                           "to 32, not " + llvm::Twine(group),
                 {site.range()});
  ir::Value *value = shuffledScalar(site, site.bound[0], "reduces");
  if (!value)
    return SemaValue::poison();
  ir::Builder *b = builder;
  for (int64_t offset = group / 2; offset >= 1; offset /= 2) {
    ir::Operation &shuffle =
        b->create(ir::OpKind::ShuffleBfly, site.loc(), {value}, {value->type()});
    shuffle.setAttr("offset", offset);
    if (op == "sum") {
      value = b->createValue(ir::OpKind::Add, site.loc(), value->type(), {value, shuffle.result()});
      continue;
    }
    ir::Operation &combine =
        b->create(ir::OpKind::MathCall, site.loc(), {value, shuffle.result()}, {value->type()});
    combine.setAttr("fn", op.str());
    value = combine.result();
  }
  return SemaValue::runTime(value);
}

std::optional<std::pair<int64_t, int64_t>> IRGen::matrixTile(CallSite &site, bool trans) {
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
SemaValue IRGen::matrixCopy(CallSite &site) {
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
    op.setAttr("num", num);
    op.setAttr("row_blocks", rowBlocks);
    op.setAttr("trans", trans);
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
SemaValue IRGen::namedBarrier(CallSite &site) {
  if (site.bound[0].intValue().staticValue() == 0)
    return error(site.argExpr(0), "barrier 0 is the one sync_threads() uses; a NamedBarrier "
                                  "takes a barrier_id from 1 to 15");
  return SemaValue::object("NamedBarrier", {"barrier_id", "num_threads"},
                           {site.bound[0], site.bound[1]});
}

SemaValue IRGen::namedBarrierMethod(CallSite &site) {
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

bool IRGen::emitNamedBarrier(int64_t id, int64_t threads, bool wait, llvm::SMLoc loc,
                             llvm::SMRange range) {
  if (blockThreads && threads > blockThreads) {
    error(loc,
          "barrier " + llvm::Twine(id) + " waits for " + llvm::Twine(threads) +
              " threads, but the kernel's block has " + llvm::Twine(blockThreads) +
              ": it can never complete",
          {range});
    return false;
  }
  ir::Operation &op =
      builder->create(wait ? ir::OpKind::BarrierSync : ir::OpKind::BarrierArrive, loc, {});
  op.setAttr("barrier", id);
  op.setAttr("threads", threads);
  return true;
}

} // namespace cutec
