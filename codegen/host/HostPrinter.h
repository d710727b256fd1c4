//===- HostPrinter.h - Kernels to a CUDA driver API launcher header -------===//
//
// Prints a self-contained C++ header over the CUDA driver API (<cuda.h>)
// that loads and launches the kernels of a module. For each kernel K:
//
//   struct K_LaunchArgs { CUdeviceptr ...; uint32_t ...; };  // .param order
//   CUresult cutec_load_K(const char *ptx, CUmodule *, CUfunction *);
//   CUresult cutec_launch_K(CUfunction, const K_LaunchArgs &, CUstream);
//
// The PTX is not embedded: the caller passes the text `--emit=ptx` wrote.
// The launcher computes the grid from the kernel's `grid` attribute and the
// block from `block`, rejects an empty or oversized grid, and returns every
// driver error unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_HOST_HOSTPRINTER_H
#define CUTEC_CODEGEN_HOST_HOSTPRINTER_H

#include "ir/core/IR.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace cutec::host {

/// The launcher header for every kernel of `module`, in module order.
llvm::Error printHostLauncher(const ir::Module &module, llvm::raw_ostream &os);

} // namespace cutec::host

#endif
