//===- IselWgmma.h - isel of Hopper's warpgroup MMA -----------------------===//
//
// wgmma (sm_90a only): nvgpu.wgmma on registers, fence, commit_group and
// wait_group. Blackwell dropped it for tcgen05, so other targets get an
// error naming the instruction and the target.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_ISEL_ISELWGMMA_H
#define CUTEC_TARGET_PTX_ISEL_ISELWGMMA_H

#include "ir/core/Builder.h"
#include "target/ptx/Targets.h"

namespace cutec {

/// Whether `kind` is a warpgroup MMA operation, selected by selectWgmma.
bool isWgmmaOp(ir::OpKind kind);

/// Emits the machine IR of `op`, whose operands are the machine values
/// `in`. Returns the first of nvgpu.wgmma's new accumulator registers (the
/// others are the instruction's further results); null for the others.
ir::Value *selectWgmma(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in);

} // namespace cutec

#endif
