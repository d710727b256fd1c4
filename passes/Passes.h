//===- Passes.h - Every pass of the pipeline, one factory each ------------===//
//
// Each pass lives in its own file named after it (the name --print-after
// takes), with a lit/unit test of the same name. Pipeline.cpp lists them in
// order.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_PASSES_H
#define CUTEC_PASSES_PASSES_H

#include "passes/Pass.h"

#include <memory>

namespace cutec {

/// "verify-uniformity": reports warp collectives that are not reached by
/// whole warps, and setmaxnreg not reached by whole warpgroups
/// (VerifyUniformity.cpp).
std::unique_ptr<Pass> createVerifyUniformityPass();
/// "tile-to-shape": layout.call → layout.constant (TileToShape.cpp).
std::unique_ptr<Pass> createTileToShapePass();
/// pipeline-tx: the bytes each TMA pipeline stage expects (PipelineTx.cpp).
std::unique_ptr<Pass> createPipelineTxPass();
/// "check-pipelines": mbarrier arrival counts and transaction bytes, named
/// barrier thread counts, wait parities and tensor-memory columns, checked
/// at compile time; changes nothing (CheckPipelines.cpp).
std::unique_ptr<Pass> createCheckPipelinesPass();
/// "lower-tma": tma_load of a tile → tensor-map argument + box coordinates
/// (LowerTma.cpp).
std::unique_ptr<Pass> createLowerTmaPass();
/// "partition": local_tile/slice chains → views of parameters (Partition.cpp).
std::unique_ptr<Pass> createPartitionPass();
/// "lower-s2t": tmem_copy of scale factors → one tcgen05.cp per 512-byte
/// atom (LowerS2t.cpp).
std::unique_ptr<Pass> createLowerS2tPass();
/// "lower-mma": gemm → one nvgpu.umma per K block, with its descriptors
/// (LowerMma.cpp).
std::unique_ptr<Pass> createLowerMmaPass();
/// "advance-descriptors": a tcgen05.mma or tcgen05.cp operand at a
/// constant offset from its stage's tile takes the tile's view, the offset
/// going into its descriptor's start-address field (AdvanceDescriptors.cpp).
std::unique_ptr<Pass> createAdvanceDescriptorsPass();
/// "lower-indexing": view loads/stores → address arithmetic (LowerIndexing.cpp).
std::unique_ptr<Pass> createLowerIndexingPass();
/// "canonicalize": constant folding, CSE, dead code (Canonicalize.cpp).
std::unique_ptr<Pass> createCanonicalizePass();
/// "address-constants": a global address whose offset has constant terms
/// becomes a shared start plus those terms in bytes, which ptxas folds into
/// the accesses' immediate offsets (AddressConstants.cpp).
std::unique_ptr<Pass> createAddressConstantsPass();
/// "wide-stores": two 16-byte global stores of adjacent, 32-byte aligned
/// bytes become one st.global.v8.b32 where `arch` has it (WideStores.cpp).
std::unique_ptr<Pass> createWideStoresPass(llvm::StringRef arch = "sm_100a");
/// "exact-arith": reassociates f32 products of narrow-format values that are
/// exact, so that shared factors multiply once, and fuses additions of
/// exact products into fma; no result changes by a bit (ExactArith.cpp).
std::unique_ptr<Pass> createExactArithPass();
/// "narrow-pairs": products of two e2m1 elements of the same words become
/// one product of f16 pairs, paired as `arch` decodes best (NarrowPairs.cpp).
std::unique_ptr<Pass> createNarrowPairsPass(llvm::StringRef arch = "sm_100a");
/// "fmad": f32 additions of products become fma (nvcc's default
/// contraction; cutec --fmad=false leaves it out) (Fmad.cpp).
std::unique_ptr<Pass> createFmadPass();
/// "expand-math": rsqrt, exp, exp2, log, log2 and tanh as sequences of
/// exactly rounded operations (ExpandMath.cpp).
std::unique_ptr<Pass> createExpandMathPass();
/// "licm": pure operations of a run-time loop that do not depend on it
/// move in front of it (Licm.cpp).
std::unique_ptr<Pass> createLicmPass();

} // namespace cutec

#endif
