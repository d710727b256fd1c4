//===- KernelSignature.h - What a launcher needs to know about a kernel ---===//
//
// A launcher outside the compiler (the Python package) binds arguments to a
// kernel without its IR: which parameters are tensors, sizes, scalars or
// tensor maps, each tensor's element type and layout, the grid, block,
// cluster and shared memory, and the facts every launch must keep
// (LaunchChecks.h). This writes that as JSON, so that it can be cached next
// to the PTX. Expressions over the dynamic sizes are JSON too: an integer, a
// size's name, or [op, ...] with op one of add and mul ([op, constant,
// operands...]), div, ceil_div, mod, min ([op, a, b]); div rounds towards
// zero, the operands being positive.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_DRIVER_KERNELSIGNATURE_H
#define CUTEC_DRIVER_KERNELSIGNATURE_H

#include "ir/core/IR.h"

#include "llvm/Support/JSON.h"

namespace cutec {

/// {"kernels": [...]}: one object per kernel of `module`, in module order
/// (docs/python.md describes the fields).
llvm::json::Value describeKernels(const ir::Module &module);

} // namespace cutec

#endif
