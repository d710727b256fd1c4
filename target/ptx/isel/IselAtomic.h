//===- IselAtomic.h - isel of atomic read-modify-write --------------------===//
//
// mem.atomic {op, space} becomes one `atom.<space>.<op>.<type>`: the
// element's old value in the result register; or, when nothing reads that
// value, `red.<space>.<op>.<type>`, which only updates the element (add,
// min, max and the bitwise operations). All of them exist on sm_90a and
// sm_100a.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_ISEL_ISELATOMIC_H
#define CUTEC_TARGET_PTX_ISEL_ISELATOMIC_H

#include "ir/core/Builder.h"

namespace cutec {

/// The atom (or, the old value unread, red) instruction of `op` on the
/// machine values `in` (address, value, and for cas compare before value);
/// its result register, null for red.
ir::Value *selectAtomic(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in,
                        bool oldValueRead);

} // namespace cutec

#endif
