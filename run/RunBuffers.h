//===- RunBuffers.h - Global memory that is no parameter, and its addresses ===//
//
// A grouped kernel reads its groups' tensors through a table of addresses
// (make_ptr over a Tensor[i64, ...] parameter), so those tensors are global
// buffers that no parameter names. `--buffer NAME=FILE.npy` allocates one
// with the file's bytes (written back with `--out NAME=...`), and
// `--addresses PARAM=NAME,NAME,...` fills the i64 or u64 parameter PARAM
// with the buffers' addresses, one per element in memory order, as a host
// program fills the table with its allocations' device pointers.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_RUNBUFFERS_H
#define CUTEC_TOOLS_RUNBUFFERS_H

#include "run/RunTensors.h"

namespace cutec {

/// The `--buffer` buffers, each read from its file (any dtype of the table in
/// docs/run.md; written back in it), with the `--out` paths of those among
/// `outs`. A name must be new: no tensor parameter of the kernel.
llvm::Expected<std::vector<TensorBuffer>> prepareBuffers(const Assignments &buffers,
                                                         const Assignments &outs,
                                                         llvm::ArrayRef<TensorBuffer> tensors);

/// Writes each `--addresses PARAM=NAME,...` into PARAM's buffer: the address
/// of buffer NAME (a --buffer or a tensor parameter) per element. PARAM
/// must be a tensor parameter of i64 or u64 elements with exactly as many
/// elements as names.
llvm::Error fillAddresses(const Assignments &addresses,
                          llvm::MutableArrayRef<TensorBuffer> tensors);

} // namespace cutec

#endif
