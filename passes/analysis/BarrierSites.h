//===- BarrierSites.h - The mbarriers that operations use -----------------===//
//
// An mbarrier operand is one u64 element of a shared allocation, sliced at a
// compile-time index (`bars[0]`) or a run-time one (`full[s]`, a pipeline's
// `state.index`). The passes that reason about barriers (pipeline-tx,
// check-pipelines) name a barrier by its allocation and that index.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_ANALYSIS_BARRIERSITES_H
#define CUTEC_PASSES_ANALYSIS_BARRIERSITES_H

#include "ir/core/IR.h"

#include <optional>
#include <string>

namespace cutec {

/// The shared allocation a view of shared memory comes from.
const ir::Operation *allocationOf(const ir::Value *v);

/// The bytes of a tensor of static size in memory: broadcast (stride-0)
/// modes take none.
int64_t tensorBytes(const ir::Type &t);

/// The mbarrier operand of an operation that initialises, arrives on,
/// waits on or completes transaction bytes on one, or null for others.
const ir::Value *mbarrierOperand(const ir::Operation &op);

/// The element of its allocation that an mbarrier view names: the
/// compile-time coordinate as printed ("3"), or "*" for a run-time one.
std::string barrierElement(const ir::Value *bar);

/// The run-time index of an mbarrier view sliced at one (`full[s]`).
const ir::Value *barrierIndex(const ir::Value *bar);

/// The cta_group of an operation (1 unless it says 2).
int64_t ctaGroupOf(const ir::Operation &op);

} // namespace cutec

#endif
