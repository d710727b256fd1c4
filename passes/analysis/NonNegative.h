//===- NonNegative.h - Integer IR values that are never negative ----------===//
//
// An analysis for isel: which signed integer values are known to be at
// least zero, so that a division or remainder by a power of two is one
// shift or mask rather than the four instructions a negative dividend
// needs. Known: non-negative constants, thread and block indices, grid
// and dynamic sizes, loop induction variables that start non-negative and
// step up by a constant, and sums, products, quotients, remainders, shifts
// and selections of known values. Like CuTe's int32 index arithmetic, this
// takes sums and products not to wrap: where they would, the kernel's
// addresses are wrong already. Scalar parameters (`n: i32`) are unknown.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_ANALYSIS_NONNEGATIVE_H
#define CUTEC_PASSES_ANALYSIS_NONNEGATIVE_H

#include "ir/core/DynamicSizes.h"
#include "ir/core/IR.h"

#include "llvm/ADT/DenseMap.h"

namespace cutec {

class NonNegative {
public:
  explicit NonNegative(const ir::Operation &kernel);

  /// Whether every run-time value of the integer `v` is at least zero.
  bool known(const ir::Value *v);

private:
  bool compute(const ir::Value *v);

  const ir::Operation &kernel;
  ir::DynamicSizeArguments sizes;
  llvm::DenseMap<const ir::Value *, bool> memo;
};

} // namespace cutec

#endif
