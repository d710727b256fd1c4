//===- IselMath.h - isel of the math library's exact instructions ---------===//
//
// The `math.call`s that expand-math leaves: max, min (f32, i32, u32), abs
// (f32, i32), copysign and sqrt (f32), one PTX instruction each (abs.f32
// and copysign as the bit operations they are).
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_ISEL_ISELMATH_H
#define CUTEC_TARGET_PTX_ISEL_ISELMATH_H

#include "ir/core/Builder.h"
#include "passes/Pass.h"

namespace cutec {

/// Emits the machine IR of the `math.call` `op` on the machine values
/// `operands`; null (after reporting) for a function or type it cannot
/// select.
ir::Value *selectMath(ir::Builder &b, const ir::Operation &op,
                      llvm::ArrayRef<ir::Value *> operands, PassContext &context);

} // namespace cutec

#endif
