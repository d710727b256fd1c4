//===- IselAsync.h - isel of shared memory, mbarriers and TMA -------------===//
//
// The part of instruction selection for the operations of IRGenAsync.cpp and
// lower-tma: shared allocations, mbarriers, TMA tile loads and stores with
// their bulk async-groups, tensor-map prefetches, fences and CTA barriers.
// InstructionSelection.cpp calls it for those kinds.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_ISEL_ISELASYNC_H
#define CUTEC_TARGET_PTX_ISEL_ISELASYNC_H

#include "ir/core/Builder.h"
#include "passes/Pass.h"

namespace cutec {

/// Whether `kind` is selected by selectAsync.
bool isAsyncOp(ir::OpKind kind);

/// Emits the machine IR of `op`, whose operands are already machine values
/// `in`. Returns the machine value of its result (null if it has none).
ir::Value *selectAsync(ir::Builder &b, const ir::Operation &op,
                       llvm::ArrayRef<ir::Value *> in);

} // namespace cutec

#endif
