//===- PipelineChecks.h - The checks of pass check-pipelines --------------===//
//
// Each check lives in its own file and reports through the PassContext;
// none changes the kernel. They rest on ThreadReach: where a condition
// around a barrier operation cannot be evaluated, they say nothing.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_CHECKS_PIPELINECHECKS_H
#define CUTEC_PASSES_CHECKS_PIPELINECHECKS_H

#include "passes/Pass.h"
#include "passes/analysis/ThreadReach.h"

namespace cutec {

/// mbarrier arrival counts against mbarrier_init, expect_tx bytes against
/// the TMA loads that complete on the barrier, multicast masks and remote
/// arrivals naming CTAs outside the cluster (CheckMbarriers.cpp).
void checkMbarriers(ir::Operation &kernel, const ThreadReach &reach, PassContext &context);

/// NamedBarrier thread counts against the warps that reach the barrier
/// (CheckNamedBarriers.cpp).
void checkNamedBarriers(ir::Operation &kernel, const ThreadReach &reach, PassContext &context);

/// Phase parities of mbarrier waits in loops: successive waits on one
/// barrier must alternate (CheckWaitParity.cpp).
void checkWaitParity(ir::Operation &kernel, const ThreadReach &reach, PassContext &context);

/// Tensor-memory columns: accumulators against scale factors, and both
/// against the allocation (CheckTmemColumns.cpp).
void checkTmemColumns(ir::Operation &kernel, PassContext &context);

/// How messages name the barrier an allocation holds: " 'ab.full'" for a
/// pipeline's, "" for others.
std::string barrierName(const ir::Operation &allocation);

} // namespace cutec

#endif
