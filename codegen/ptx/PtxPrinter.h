//===- PtxPrinter.h - Machine IR to PTX text ------------------------------===//
#ifndef CUTEC_CODEGEN_PTX_PTXPRINTER_H
#define CUTEC_CODEGEN_PTX_PTXPRINTER_H

#include "ir/core/IR.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace cutec::ptx {

struct PtxTarget {
  std::string arch = "sm_100a";
  std::string version = "8.8";
  /// The kernel's sources, for `.file` and `.loc` directives (`--lineinfo`):
  /// each instruction is attributed to the line and column of the construct
  /// that wrote it, so that Nsight Compute and cuda-gdb show `.cute` lines.
  /// Null: no line information.
  const llvm::SourceMgr *lineInfo = nullptr;
};

/// Prints the machine IR of `module` (kernels whose bodies hold only
/// `ptx.inst` and structured control flow) as one PTX module. Fails on an op
/// the printer does not know, naming it.
llvm::Error printPtx(const ir::Module &module, const PtxTarget &target, llvm::raw_ostream &os);

} // namespace cutec::ptx

#endif
