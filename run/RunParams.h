//===- RunParams.h - The kernel's parameter struct, built at run time -----===//
//
// The emulation printer declares `<kernel>_Params` with one member per
// entry-block argument, in order: uint64_t for a tensor (its address),
// uint32_t for a dynamic size, int32_t/uint32_t/float for a scalar. `cutec run` fills that struct without seeing
// its C++ definition, so it lays the members out by the C++ rules: each at
// the next multiple of its alignment (its size), the whole padded to the
// largest alignment. A test checks this against the compiled struct.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_RUNPARAMS_H
#define CUTEC_TOOLS_RUNPARAMS_H

#include "ir/core/IR.h"
#include "run/RunSizes.h"
#include "run/RunTensors.h"

#include <vector>

namespace cutec {

struct ParamsLayout {
  /// The offset of each entry-block argument's member.
  std::vector<size_t> offsets;
  /// sizeof the struct.
  size_t size = 0;
};

ParamsLayout layoutParams(const ir::Block &entry);

/// The 32 bits of each scalar parameter (`n: i32`, `u: u32`, `alpha: f32`).
using ScalarBindings = llvm::StringMap<uint32_t>;

/// Binds every scalar parameter of `kernel` to its `-D` value: an integer in
/// the range of its type, or for f32 a decimal or hexadecimal float (rounded
/// to nearest even); each must be given. Other names are left to
/// bindDynamicSizes.
llvm::Expected<ScalarBindings> bindScalarParameters(const ir::Operation &kernel,
                                                    const Assignments &defines);

/// The parameter struct's bytes, in 8-byte words so that it is aligned as
/// the struct is: each tensor's member holds the address of its buffer in
/// `tensors`, each dynamic size its value in `sizes`, each scalar its bits
/// in `scalars`.
llvm::Expected<std::vector<uint64_t>> packParams(const ir::Operation &kernel,
                                                 llvm::ArrayRef<TensorBuffer> tensors,
                                                 const SizeBindings &sizes,
                                                 const ScalarBindings &scalars);

} // namespace cutec

#endif
