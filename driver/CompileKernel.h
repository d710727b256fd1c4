//===- CompileKernel.h - Source to kernel IR or machine IR ----------------===//
#ifndef CUTEC_TOOLS_COMPILEKERNEL_H
#define CUTEC_TOOLS_COMPILEKERNEL_H

#include "frontend/AST.h"
#include "ir/core/IR.h"
#include "passes/PassManager.h"

#include "llvm/Support/SourceMgr.h"

#include <memory>

namespace cutec {

enum class CompileStage { Syntax, KernelIR, MachineIR };

struct CompiledSource {
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<ast::Module> syntax;
  std::unique_ptr<ir::Module> module;
};

/// Reads `path` and takes it to `stage`: parse, then semantic analysis, then
/// the lowering pipeline for `arch` (with `passOptions`). Diagnostics go to
/// stderr with carets; returns null after any error.
std::unique_ptr<CompiledSource> compileKernelFile(llvm::StringRef path, CompileStage stage,
                                                  PassManagerOptions passOptions,
                                                  llvm::StringRef arch = "sm_100a");

/// compileKernelFile on source text already in memory: `bufferName` is the
/// file name diagnostics show, and they are written to `diagnostics`.
std::unique_ptr<CompiledSource> compileKernelSource(llvm::StringRef bufferName,
                                                    llvm::StringRef text, CompileStage stage,
                                                    PassManagerOptions passOptions,
                                                    llvm::StringRef arch,
                                                    llvm::raw_ostream &diagnostics);

/// "file:line:col" of `loc`, for messages of the emulation at run time.
std::string describeLocation(const llvm::SourceMgr &sourceMgr, llvm::SMLoc loc);

} // namespace cutec

#endif
