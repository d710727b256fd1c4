//===- IselWarp.h - isel of warp specialisation ---------------------------===//
//
// warp_idx(), lane_idx(), elect_one(), the named barriers and setmaxnreg.
// All of them exist on sm_90a and sm_100a.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_ISEL_ISELWARP_H
#define CUTEC_TARGET_PTX_ISEL_ISELWARP_H

#include "ir/core/Builder.h"
#include "ir/layout/IntTuple.h"
#include "passes/Pass.h"

namespace cutec {

/// Whether `kind` is selected by selectWarp (every cute.warp_idx is the one
/// value warpIndexAtEntry computes).
bool isWarpOp(ir::OpKind kind);

/// Emits the machine IR of `op`; returns its result or null.
ir::Value *selectWarp(ir::Builder &b, const ir::Operation &op);

/// For a kernel with setmaxnreg: sets its attribute `max_registers`, the
/// registers per thread every warp starts with (PTX .maxnreg, which the
/// emulator starts from too). That is the register file (65536) over the
/// threads of the warpgroups the block spans, rounded down to a multiple of
/// 8 (what ptxas gives a kernel with one CTA per SM: 168 for 384 threads),
/// or the largest setmaxnreg.inc count when that is smaller (as ptxas
/// does: nothing needs more). A .dec above it is reported; false then.
bool planRegisters(ir::Operation &kernel, PassContext &context);

/// The warp's index in a CTA of shape `block`, computed where every thread
/// of the warp is present (the kernel's entry), as CUTLASS's
/// canonical_warp_idx_sync does: the linear thread index over 32, broadcast
/// from lane 0 with shfl.sync.idx, so that ptxas knows it is the same in
/// the whole warp. Without whole warps it is not broadcast.
ir::Value *warpIndexAtEntry(ir::Builder &b, llvm::SMLoc loc, const IntTuple &block);

} // namespace cutec

#endif
