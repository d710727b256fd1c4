//===- RunCompile.cpp - Compile a kernel's emulation for `cutec run` ------===//
#include "run/RunCompile.h"

namespace cutec {

llvm::Expected<CompiledKernel> compileEmulation(llvm::StringRef emulationCpp,
                                                llvm::StringRef kernelName,
                                                const std::string &includeRoot,
                                                std::optional<DiskCache> cache) {
  CxxCompileOptions options;
  options.runtimeIncludeDir = includeRoot;
  options.optLevel = 2;
  llvm::Expected<std::unique_ptr<EmulationJit>> jit = EmulationJit::create(std::move(options), std::move(cache));
  if (!jit)
    return jit.takeError();
  // The buffer's name is part of the object cache's key: one name for every
  // kernel lets the kernels of one file share the file's compiled emulation.
  if (llvm::Error e = (*jit)->addSource(emulationCpp, "kernels.emu.cpp"))
    return llvm::createStringError("compiling the emulation of '" + kernelName +
                                   "': " + llvm::toString(std::move(e)));
  llvm::Expected<void *> descriptor = (*jit)->lookup(("cutec_kernel_" + kernelName).str());
  if (!descriptor)
    return llvm::createStringError("the emulation defines no kernel '" + kernelName +
                                   "': " + llvm::toString(descriptor.takeError()));
  return CompiledKernel{std::move(*jit), static_cast<const rt::KernelDescriptor *>(*descriptor)};
}

} // namespace cutec
