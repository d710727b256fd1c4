//===- Pipeline.h - The order of the passes, in one place -----------------===//
#ifndef CUTEC_DRIVER_PIPELINE_H
#define CUTEC_DRIVER_PIPELINE_H

#include "passes/PassManager.h"

namespace cutec {

/// Kernel IR to machine IR for `arch`: verify-uniformity, tile-to-shape,
/// pipeline-tx, check-pipelines, lower-tma, partition, lower-s2t, lower-mma,
/// canonicalize, lower-indexing, canonicalize, exact-arith, narrow-pairs, fmad, licm, isel.
void addLoweringPipeline(PassManager &pm, llvm::StringRef arch = "sm_100a");

/// The passes that only make the code faster, which may be left out
/// (PassManagerOptions::skip, cutec --disable-pass) without changing any
/// result.
llvm::ArrayRef<llvm::StringRef> optionalPasses();

} // namespace cutec

#endif
