//===- KernelArguments.h - What each kernel parameter is ------------------===//
//
// A kernel's entry block has one argument per parameter, in .param order:
// the tensors the source declares, its scalar parameters (`n: i32`,
// `alpha: f32`), the tensor maps lower-tma derives, and the dynamic sizes
// of the tensor types (M, K, ...), which are i32 like a scalar `n: i32` and
// told apart by the kernel's `dynamic_sizes` attribute (DynamicSizes.h).
// The printers of PTX, the emulation and the host launcher, and `cutec
// run`, all ask here.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_KERNELARGUMENTS_H
#define CUTEC_IR_CORE_KERNELARGUMENTS_H

#include "ir/core/DynamicSizes.h"
#include "ir/core/IR.h"

#include <string>
#include <vector>

namespace cutec::ir {

enum class ArgumentKind { Tensor, TensorMap, DynamicSize, Scalar };

ArgumentKind argumentKind(const Operation &kernel, const Value &arg);

/// The names of the scalar parameters, in parameter order.
std::vector<std::string> scalarParameterNames(const Operation &kernel);

/// The element types a scalar kernel parameter may have.
bool isScalarParameterType(DataType type);

/// The C++ type of a scalar or dynamic size in a parameter struct:
/// uint32_t for sizes and u32, int32_t for i32, float for f32.
const char *cxxParameterType(const Operation &kernel, const Value &arg);

/// The PTX .param type of a scalar or dynamic size: u32, s32 or f32.
const char *ptxParameterType(const Operation &kernel, const Value &arg);

} // namespace cutec::ir

#endif
