//===- IRGenWarp.cpp - Warp collectives and warp specialisation -----------===//
//
// `shuffle_sync_bfly(value, offset)` (CuTe DSL's cute.arch.shuffle_sync_bfly):
// every lane of the warp gets the value of lane (lane ^ offset). All 32 lanes
// must take part, from the same statement; the result has value's type.
//
// Warp specialisation (docs/language.md "Warp specialisation"): warp_idx(),
// lane_idx(), elect_one() and setmaxnreg are table intrinsics; here is
// NamedBarrier, CuTe DSL's cutlass.pipeline.NamedBarrier, a built-in object
// whose methods become bar.arrive / bar.sync with its id and thread count.
// Pass verify-uniformity checks that all of them are reached by whole warps
// (whole warpgroups for setmaxnreg).
//
//===----------------------------------------------------------------------===//
#include "frontend/IRGen.h"

namespace cutec {

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
  ir::Builder *b = requireBuilder(site.loc(), "shuffle_sync_bfly()");
  if (!b)
    return SemaValue::poison();
  ir::Value *value = toRunTime(site.args[0], site.argExpr(0));
  if (!value)
    return SemaValue::poison();
  ir::DataType type = value->type().element();
  if (!value->type().isScalar() ||
      (type != ir::DataType::F32 && type != ir::DataType::I32 && type != ir::DataType::U32))
    return error(site.argExpr(0), "shuffle_sync_bfly moves 32-bit scalars (f32, i32, u32), not " +
                                      value->type().str());
  ir::Operation &op = b->create(ir::OpKind::ShuffleBfly, site.loc(), {value}, {value->type()});
  op.setAttr("offset", offset.intValue().staticValue());
  return SemaValue::runTime(op.result());
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
