//===- IselTcgen05.h - isel of Blackwell's tensor memory and tcgen05 ------===//
//
// The tcgen05 family exists on datacenter Blackwell (sm_100a, sm_103a,
// sm_100f), with differences between them (target/ptx/Targets.h): for a target that
// lacks an operation, isel reports an error naming the instruction and the
// target.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_ISEL_ISELTCGEN05_H
#define CUTEC_TARGET_PTX_ISEL_ISELTCGEN05_H

#include "ir/core/Builder.h"
#include "target/ptx/Targets.h"

#include <string>

namespace cutec {

/// Whether `kind` is a tcgen05 operation, selected by selectTcgen05.
bool isTcgen05Op(ir::OpKind kind);

/// Why `target` cannot run the tcgen05 operation `op` (which messages call
/// `opName`, PassContext::opName), or "" if it can.
std::string tcgen05Unsupported(const ir::Operation &op, llvm::StringRef opName,
                               const TargetFeatures &target);

/// A shared-memory matrix descriptor (tcgen05.mma's, tcgen05.cp's and
/// wgmma's): the compile-time fields `constantBits` with the start address
/// (in 16-byte units, 14 bits) of the operand at shared `address`. A start
/// address in `constantBits` (advance-descriptors) is added to the
/// address's: the descriptor of the bytes that far on.
ir::Value *matrixDescriptor(ir::Builder &b, llvm::SMLoc loc, ir::Value *address,
                            int64_t constantBits);

/// Emits the machine IR of `op` for `target`, whose operands are the machine
/// values `in`. Returns the machine value of its result (null if it has
/// none).
ir::Value *selectTcgen05(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in,
                         const TargetFeatures &target);

} // namespace cutec

#endif
