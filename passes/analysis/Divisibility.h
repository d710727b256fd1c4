//===- Divisibility.h - Powers of two that divide integer IR values -------===//
//
// An analysis for lower-indexing and wide-stores: how many low bits of an
// integer value are known to be zero, from constants, the kernel's
// `assume_divby` facts about its dynamic sizes, the base addresses of tensor
// parameters (16 bytes, or the kernel's `assume_aligned` facts), loop
// induction variables (start and step) and the arithmetic between them.
// Vector accesses are emitted only where this proves the address aligned.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_ANALYSIS_DIVISIBILITY_H
#define CUTEC_PASSES_ANALYSIS_DIVISIBILITY_H

#include "ir/core/IR.h"

#include "llvm/ADT/DenseMap.h"

namespace cutec {

class Divisibility {
public:
  /// Reads the `assume_divby` facts of `kernel`.
  explicit Divisibility(const ir::Operation &kernel);

  /// The number of trailing zero bits every run-time value of `v` has, at
  /// least: 0 when nothing is known, 64 for the constant 0.
  unsigned trailingZeros(const ir::Value *v);

  /// The largest power of two known to divide `v`, capped at `cap`.
  int64_t powerOfTwoDivisor(const ir::Value *v, int64_t cap);

private:
  unsigned compute(const ir::Value *v);

  const ir::Operation &kernel;
  /// The trailing zeros `assume_divby` gives, by the index of the size's
  /// kernel argument.
  llvm::DenseMap<unsigned, unsigned> assumed;
  llvm::DenseMap<const ir::Value *, unsigned> known;
};

} // namespace cutec

#endif
