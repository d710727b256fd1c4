//===- RunCompile.h - Compile a kernel's emulation for `cutec run` --------===//
#ifndef CUTEC_TOOLS_RUNCOMPILE_H
#define CUTEC_TOOLS_RUNCOMPILE_H

#include "codegen/jit/EmulationJit.h"
#include "runtime/base/Kernel.h"

#include <memory>

namespace cutec {

/// A kernel's emulation loaded in a JIT, which must outlive the descriptor's
/// use.
struct CompiledKernel {
  std::unique_ptr<EmulationJit> jit;
  const rt::KernelDescriptor *descriptor = nullptr;
};

/// Compiles `emulationCpp` at -O2, with the runtime headers under
/// `includeRoot` (empty: the JIT's default), or loads its object code from
/// `cache`, and finds the descriptor `cutec_kernel_<kernelName>`.
llvm::Expected<CompiledKernel> compileEmulation(llvm::StringRef emulationCpp,
                                                llvm::StringRef kernelName,
                                                const std::string &includeRoot,
                                                std::optional<DiskCache> cache = std::nullopt);

} // namespace cutec

#endif
