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
/// widest swizzle atom whose span fits the contiguous mode:
///  - K-major: rows of k elements, which must be one span (32, 64 or 128
///    bytes): S<B,4,3> o 0 o (mn, k, stages):(k, 1, mn*k);
///  - MN-major: atoms of `a` = span/element-size elements along MN by all k
///    rows, the atoms along MN one after the other, so that each atom is one
///    TMA box: S<B,4,3> o 0 o ((a, mn/a), k, stages):((1, a*k), a, mn*k)
///    (mode 0 flat when one atom covers mn). The span is the widest of 128,
///    64 and 32 bytes that divides mn's bytes; k is a multiple of 8 (core
///    matrices of 8 K-rows); 4- and 6-bit elements cannot be MN-major.
/// Errors say which requirement the tile misses.
llvm::Expected<ComposedLayout> makeUmmaSmemLayout(ir::DataType element, bool mnMajor, int64_t mn,
                                                  int64_t k, int64_t stages);

} // namespace cutec

#endif
