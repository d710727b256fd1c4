//===- IselTcgen05.h - isel of Blackwell's tensor memory and tcgen05 ------===//
//
// The tcgen05 family exists on sm_100a only: for another target each of its
// operations is an error naming the instruction and the target.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_ISELTCGEN05_H
#define CUTEC_PASSES_ISELTCGEN05_H

#include "ir/core/Builder.h"

namespace cutec {

/// Whether `kind` is a tcgen05 operation, selected by selectTcgen05.
bool isTcgen05Op(ir::OpKind kind);

/// Emits the machine IR of `op`, whose operands are the machine values
/// `in`. Returns the machine value of its result (null if it has none).
ir::Value *selectTcgen05(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in);

} // namespace cutec

#endif
