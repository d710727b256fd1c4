//===- ThreadReach.h - Which threads of a cluster reach each operation ----===//
//
// Block and cluster shapes are static, so a condition that depends only on
// thread_idx(), warp_idx(), lane_idx(), elect_one(), cluster_ctarank() and
// constants (a warp role, "thread 0", "the pair's leader") can be evaluated
// for every thread of every CTA of a cluster. ThreadReach does that for each
// block of the kernel IR and gives the set of *points* (CTA rank, thread)
// that reach it. A condition that depends on run-time values the same for
// every thread (a loop counter, a kernel size) may go either way: both of
// its branches keep the points that reach the `if`. A block under a
// condition that differs between threads in a way the analysis cannot
// evaluate (a loaded value, a thread-dependent loop bound) has no set: the
// checks built on it say nothing there.
//
// elect_one() is taken as the lowest lane of each warp among the points
// that reach it, as the emulator elects.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_ANALYSIS_THREADREACH_H
#define CUTEC_PASSES_ANALYSIS_THREADREACH_H

#include "ir/core/IR.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace cutec {

class ThreadReach {
public:
  explicit ThreadReach(const ir::Operation &kernel);

  int64_t threadsPerCta() const { return threads; }
  int64_t ctas() const { return clusterCtas; }
  unsigned points() const { return unsigned(threads * clusterCtas); }
  int64_t rankOf(unsigned point) const { return point / threads; }
  int64_t threadOf(unsigned point) const { return point % threads; }

  /// The points that reach `op`, or nullptr when a condition around it
  /// cannot be evaluated.
  const llvm::BitVector *reach(const ir::Operation &op) const;

  /// Values of block arguments (loop counters, carried values) for
  /// evaluating the body of a loop one iteration at a time.
  using Bindings = llvm::DenseMap<const ir::Value *, int64_t>;

  /// `v` at `point` (an integer or a bool as 0/1), when it is computed from
  /// constants, the thread's and CTA's indices and `bindings` alone;
  /// elect_one() elects among `among`.
  std::optional<int64_t> evaluate(const ir::Value *v, unsigned point, const llvm::BitVector &among,
                                  const Bindings *bindings = nullptr) const;

  /// Whether `v` may differ between the threads of a cluster.
  bool varies(const ir::Value *v) const { return varying.contains(v); }

private:
  std::optional<int64_t> evaluateWithin(const ir::Value *v, unsigned point,
                                        const llvm::BitVector &among, const Bindings *bindings,
                                        int64_t &budget) const;
  void computeVarying(const ir::Operation &kernel);
  void visitBlock(const ir::Block &block, const std::optional<llvm::BitVector> &points);
  std::optional<llvm::BitVector> condition(const ir::Value *cond, const llvm::BitVector &points,
                                           bool taken) const;

  int64_t block[3] = {1, 1, 1};
  int64_t threads = 1, clusterCtas = 1;
  llvm::DenseMap<const ir::Block *, std::optional<llvm::BitVector>> blockPoints;
  llvm::DenseSet<const ir::Value *> varying;
};

} // namespace cutec

#endif
