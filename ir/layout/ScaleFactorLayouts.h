//===- ScaleFactorLayouts.h - Block-scaled MMA scale factors in SMEM/TMEM --===//
//
// A block-scaled tcgen05.mma reads one scale factor per `vec` K elements of
// each row of A and of B. They travel in 512-byte tiles of 128 rows x 4
// factors (the atom ((32,4),(vec,4)):((16,4),(0,1)) of docs/layout.md):
// TMA brings the tiles of a CTA's (mn, k) block to shared memory, K tiles
// first, and tcgen05.cp copies each to 4 columns of tensor memory, repeated
// in all four lane quarters. These are the layouts of both, in the form CuTe
// DSL's make_smem_layout_sfa/sfb and make_tmem_layout_sfa/sfb give them
// (seed 001 prints them):
//
//   SMEM  (((sf_tile, rest_atom_MN), (sf_vec_K, rest_atom_K)), MMA_MN, MMA_K, STAGE)
//   TMEM  (((atom_MN, multicast), (sf_vec_K, rest_atom_K)), MMA_MN, MMA_K)
//
// TMEM strides count bytes, as CUTLASS keeps a byte index below the cell
// address: 4 per column, 65536 * 4 per lane. `mn` is rounded up to a multiple
// of 128 (an SF tile's rows), which is how N = 64 and 192 share tiles.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_LAYOUT_SCALEFACTORLAYOUTS_H
#define CUTEC_IR_LAYOUT_SCALEFACTORLAYOUTS_H

#include "ir/layout/Layout.h"

namespace cutec {

/// The scale factors of an (mn, k) block for an MMA that takes `mmaK`
/// elements of K and one factor per `vec`, in `stages` shared buffers.
llvm::Expected<Layout> scaleFactorSmemLayout(int64_t mn, int64_t k, int64_t vec, int64_t mmaK,
                                             int64_t stages);

/// The same factors in tensor memory after tcgen05.cp 32x128b.warpx4.
llvm::Expected<Layout> scaleFactorTmemLayout(int64_t mn, int64_t k, int64_t vec, int64_t mmaK);

} // namespace cutec

#endif
