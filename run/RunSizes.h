//===- RunSizes.h - The dynamic sizes of a `cutec run` --------------------===//
//
// Binds the kernel's dynamic sizes (M, K, L, ...) to the values given with
// -D, and evaluates expressions over them (grid, layout cosizes) exactly:
// sizes up to 2^31-1 multiply past 64 bits, which must be an error rather
// than a wrapped byte count.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_RUNSIZES_H
#define CUTEC_TOOLS_RUNSIZES_H

#include "ir/core/IR.h"
#include "ir/core/KernelArguments.h"
#include "runtime/base/Kernel.h"
#include "run/RunAssignments.h"

#include "llvm/ADT/StringMap.h"

namespace cutec {

/// The value of each dynamic size of a kernel.
using SizeBindings = llvm::StringMap<int64_t>;

/// Binds every dynamic size of `kernel` to its `-D` value: each must be
/// given, each value a decimal integer in [1, 2^31-1], and no other name.
llvm::Expected<SizeBindings> bindDynamicSizes(const ir::Operation &kernel,
                                              const Assignments &defines);

/// The value of `e` under `sizes`; an error (naming `e`) when a size is
/// unbound, a division is by zero or a step overflows 64 bits.
llvm::Expected<int64_t> evaluateExactly(const IntExpr &e, const SizeBindings &sizes);

/// The kernel's `block` or `grid` attribute (`attrName`) evaluated: at most
/// three extents, each in [1, 2^32-1]. The hardware's tighter limits are
/// runtime's launch() to check.
llvm::Expected<rt::Dim3> evaluateDim3(const ir::Operation &kernel, llvm::StringRef attrName,
                                      const SizeBindings &sizes);

/// "M=128, K=256": the values of `names`, for messages.
std::string describeSizes(llvm::ArrayRef<std::string> names, const SizeBindings &sizes);

} // namespace cutec

#endif
