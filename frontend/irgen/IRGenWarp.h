// IRGenWarp: the IRGen domain (IRGen::warps()) of warp collectives and warp
// specialisation: shuffles, warp and block reductions, stmatrix/ldmatrix and
// named barriers.
#ifndef CUTEC_FRONTEND_IRGEN_IRGENWARP_H
#define CUTEC_FRONTEND_IRGEN_IRGENWARP_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenWarp : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  /// shuffle_sync_up/down/bfly/idx and shuffle_sync (idx).
  SemaValue callShuffle(CallSite &site);
  /// A shuffle or warp reduction of a register fragment: `collective` of
  /// each element, gathered into a fragment of its shape.
  SemaValue eachElement(CallSite &site, SemaValue (IRGenWarp::*collective)(CallSite &));
  /// One warp.shuffle of `value`: by the compile-time `offset`, or else by
  /// the run-time i32 `laneOffset`; `clamp` is shfl.sync's c operand.
  ir::Operation &emitShuffle(llvm::SMLoc loc, llvm::StringRef mode, ir::Value *value, int64_t clamp,
                             std::optional<int64_t> offset, ir::Value *laneOffset = nullptr);
  /// The first argument `v` of a shuffle or warp reduction as a 32-bit
  /// run-time scalar; null after reporting ("shuffle_sync_bfly moves ...").
  ir::Value *shuffledScalar(CallSite &site, const SemaValue &v, llvm::StringRef verb);
  /// warp_reduction_sum/max/min: butterfly shuffles and the combining op.
  SemaValue warpReduction(CallSite &site);
  /// `value` combined (`op`: sum, max, min) over each group of `group`
  /// lanes by butterfly shuffles; every lane of a group gets the same bits.
  ir::Value *reduceOverLanes(llvm::StringRef op, ir::Value *value, int64_t group, llvm::SMLoc loc);
  /// a + b, max(a, b) or min(a, b) of two run-time scalars.
  ir::Value *combineReduced(llvm::StringRef op, ir::Value *a, ir::Value *b, llvm::SMLoc loc);
  /// block_reduction_sum/max/min(value, scratch): warp reductions, one
  /// shared element per warp, a barrier, and the combination of those.
  SemaValue blockReduction(CallSite &site);
  SemaValue matrixCopy(CallSite &site);
  /// The 8x8 matrices of an stmatrix/ldmatrix tile: how many, and how many
  /// blocks its rows hold; reports the mistake and returns nullopt.
  std::optional<std::pair<int64_t, int64_t>> matrixTile(CallSite &site, bool trans);
  /// barrier(barrier_id=, number_of_threads=): a bar.sync.
  SemaValue barrier(CallSite &site);
  /// NamedBarrier(barrier_id, num_threads): the built-in object.
  SemaValue namedBarrier(CallSite &site);
  /// Its arrive(), arrive_and_wait()/sync() and get_barrier().
  SemaValue namedBarrierMethod(CallSite &site);
  /// `bar.arrive id, threads` (wait false) or `bar.sync id, threads` at
  /// `loc`; an error when the kernel's block has fewer than `threads`.
  bool emitNamedBarrier(int64_t id, int64_t threads, bool wait, llvm::SMLoc loc,
                        llvm::SMRange range);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENWARP_H
