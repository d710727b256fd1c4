//===- RunTensors.h - The tensor parameters' memory in a `cutec run` ------===//
//
// Each tensor parameter of the kernel gets one buffer holding its memory
// image: cosize(layout) elements at their storage width, the layout's
// dynamic sizes bound. A tensor given with --arg is read from its .npy file,
// which must hold exactly that many bytes in a dtype that fits the element
// type (RunNpyDtypes.h); a tensor that is only an --out starts as 0xFF bytes,
// so what the kernel leaves unwritten reads back as NaN or -1. Every tensor
// named with --out is written back after the run.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_RUNTENSORS_H
#define CUTEC_TOOLS_RUNTENSORS_H

#include "ir/core/IR.h"
#include "run/RunAssignments.h"
#include "run/RunSizes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace cutec {

struct TensorBuffer {
  struct FreeAligned {
    void operator()(uint8_t *bytes) const;
  };

  /// The parameter's name, as --arg and --out spell it (or a --buffer's).
  std::string name;
  ir::DataType element;
  /// The .npy dtype it is written back in.
  std::string npyDtype;
  /// The --arg file; empty when the buffer was allocated.
  std::string inputPath;
  /// The --out file; empty when the tensor is not written back.
  std::string outputPath;
  std::unique_ptr<uint8_t[], FreeAligned> data;
  size_t size = 0;

  llvm::MutableArrayRef<uint8_t> bytes() const { return {data.get(), size}; }
};

/// The name of a kernel parameter, as the emulation's `<kernel>_Params`
/// struct spells it.
std::string parameterName(const ir::Value &arg);

/// A buffer for each tensor parameter of `kernel`, in parameter order: read
/// from the `args` files or allocated, each output path checked to be in an
/// existing directory. Names in `args` and `outs` must be tensor parameters.
/// A parameter named in `addressed` (--addresses) is allocated for
/// fillAddresses to write.
llvm::Expected<std::vector<TensorBuffer>>
prepareTensors(const ir::Operation &kernel, const SizeBindings &sizes, const Assignments &args,
               const Assignments &outs, const Assignments &addressed);

/// An aligned buffer of `bytes` for `name`, of `element`s.
llvm::Expected<TensorBuffer> allocateBuffer(std::string name, ir::DataType element, size_t bytes);

/// An error unless the directory of `buffer`'s output path exists.
llvm::Error checkOutputPath(const TensorBuffer &buffer);

/// Writes each buffer that has an output path as a 1-d .npy array of its
/// first dtype, and says so on `out`.
llvm::Error writeOutputs(llvm::ArrayRef<TensorBuffer> tensors, llvm::raw_ostream &out);

} // namespace cutec

#endif
