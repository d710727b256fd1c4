//===- FmaContraction.h - add(mul(x, y), z) into fma(x, y, z) -------------===//
//
// Shared by exact-arith (which fuses only products that do not round, so no
// result changes) and fmad (which fuses every one, as nvcc does by default).
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_TRANSFORMS_FMACONTRACTION_H
#define CUTEC_PASSES_TRANSFORMS_FMACONTRACTION_H

#include "ir/core/IR.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace cutec {

/// Replaces each f32 add(mul(x, y), z) or add(z, mul(x, y)) whose
/// multiplication is used only there, in the same block, and accepted by
/// `fuse`, with fma(x, y, z), and erases the replaced operations.
void contractMultiplyAdds(ir::Operation &kernel,
                          llvm::function_ref<bool(const ir::Operation &mul)> fuse);

} // namespace cutec

#endif
