//===- RunNpyDtypes.h - Which .npy dtype holds which element type ---------===//
//
// `cutec run` exchanges the memory image of each tensor: the bytes the
// kernel reads and writes, in its layout's index order. An element type maps
// to the NumPy dtypes that hold that image without conversion; narrow floats
// (f4, f6, f8, ue4m3, ue8m0), which NumPy lacks, travel as uint8 bytes.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_RUNNPYDTYPES_H
#define CUTEC_TOOLS_RUNNPYDTYPES_H

#include "ir/core/DataType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace cutec {

/// The bits one element of `type` occupies in memory: its width, packed
/// (two f4 per byte), except bool, which takes a byte.
unsigned storageBits(ir::DataType type);

/// The canonical .npy dtypes ("|u1", "<f2", ...) accepted for a tensor of
/// `type`; outputs are written as the first.
llvm::ArrayRef<llvm::StringRef> npyDtypesFor(ir::DataType type);

} // namespace cutec

#endif
