//===- PtxPrinter.h - Machine IR to PTX text ------------------------------===//
#ifndef CUTEC_CODEGEN_PTX_PTXPRINTER_H
#define CUTEC_CODEGEN_PTX_PTXPRINTER_H

#include "ir/core/IR.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace cutec::ptx {

struct PtxTarget {
  std::string arch = "sm_100a";
  std::string version = "8.8";
};

/// Prints the machine IR of `module` (kernels whose bodies hold only
/// `ptx.inst` and structured control flow) as one PTX module. Fails on an op
/// the printer does not know, naming it.
llvm::Error printPtx(const ir::Module &module, const PtxTarget &target, llvm::raw_ostream &os);

} // namespace cutec::ptx

#endif
