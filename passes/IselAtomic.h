//===- IselAtomic.h - isel of atomic read-modify-write --------------------===//
//
// mem.atomic {op, space} becomes one `atom.<space>.<op>.<type>`: the
// element's old value in the result register. All of them exist on sm_90a
// and sm_100a.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_ISELATOMIC_H
#define CUTEC_PASSES_ISELATOMIC_H

#include "ir/core/Builder.h"

namespace cutec {

/// The atom instruction of `op` on the machine values `in` (address, value,
/// and for cas compare before value); its result register.
ir::Value *selectAtomic(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in);

} // namespace cutec

#endif
