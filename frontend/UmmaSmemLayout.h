// The shared-memory layouts of tcgen05.mma operand tiles that TMA fills and
// the MMA reads (make_umma_smem_layout; docs/language.md, "Tensor memory and
// MMA"), built for either major mode.
#ifndef CUTEC_FRONTEND_UMMASMEMLAYOUT_H
#define CUTEC_FRONTEND_UMMASMEMLAYOUT_H

#include "ir/core/DataType.h"
#include "ir/layout/Swizzle.h"

#include "llvm/Support/Error.h"

namespace cutec {

/// `stages` operand tiles of (mn, k) elements of `element`, swizzled by the
/// widest swizzle atom (128, 64 or 32 bytes: S<3,4,3>, S<2,4,3>, S<1,4,3>)
/// whose span divides the contiguous mode's bytes. Atoms of `a` = span /
/// element size contiguous elements by all rows of the other mode follow
/// one another along the contiguous mode, so that each atom is one TMA box:
///  - K-major: S<B,4,3> o 0 o (mn, (a, k/a), stages):(a, (1, a*mn), mn*k);
///  - MN-major: S<B,4,3> o 0 o ((a, mn/a), k, stages):((1, a*k), a, mn*k);
/// with the contiguous mode flat when one atom covers it (K-major k = a:
/// (mn, k, stages):(k, 1, mn*k)). The other mode is a multiple of 8 (core
/// matrices of 8 rows); 4- and 6-bit elements cannot be MN-major. Errors
/// say which requirement the tile misses.
llvm::Expected<ComposedLayout> makeUmmaSmemLayout(ir::DataType element, bool mnMajor, int64_t mn,
                                                  int64_t k, int64_t stages);

} // namespace cutec

#endif
