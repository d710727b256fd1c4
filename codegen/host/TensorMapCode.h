//===- TensorMapCode.h - C++ that encodes a kernel's tensor maps ----------===//
//
// The host launcher (CUDA driver) and the emulation (runtime/memory/TensorMap.h)
// encode the same tensor maps from the same launch arguments, so both print
// this one piece of C++: it evaluates a TensorMapSpec's extents and strides
// over the dynamic sizes, converts them to the driver's units (byte strides;
// 4-bit data as bytes, with a check that the halving is exact) and then runs
// the caller's encode statement.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_HOST_TENSORMAPCODE_H
#define CUTEC_CODEGEN_HOST_TENSORMAPCODE_H

#include "codegen/host/CxxIntExpr.h"
#include "ir/core/IR.h"
#include "ir/core/TensorMapSpec.h"

namespace cutec::host {

/// A block of C++ statements for the map `name` of `spec`. In `encode`,
/// $type, $rank and $swizzle stand for the cuda.h numbers of the data type,
/// rank and swizzle, and the locals `dims`, `strides`, `box` and
/// `elementStrides` hold the driver's arguments. `fail(message)` is the
/// statement that reports a size the map cannot describe.
llvm::Expected<std::string>
tensorMapEncodeCode(const ir::TensorMapSpec &spec, llvm::StringRef name, CxxIntExpr &exprs,
                    const std::function<std::string(const std::string &message)> &fail,
                    llvm::StringRef encode, llvm::StringRef indent);

/// tensorMapEncodeCode for every tensor-map argument of a kernel (its entry
/// block), in order, each after `declare`. In `declare` and `encode`, $map
/// is the argument's name and $source that of the tensor it describes;
/// `fail(map, message)` reports a size the map cannot describe.
llvm::Expected<std::string> tensorMapsEncodeCode(
    const ir::Block &entry, CxxIntExpr &exprs,
    const std::function<std::string(const std::string &map, const std::string &message)> &fail,
    llvm::StringRef declare, llvm::StringRef encode, llvm::StringRef indent);

} // namespace cutec::host

#endif
