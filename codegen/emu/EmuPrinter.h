//===- EmuPrinter.h - Machine IR to the C++ emulation ---------------------===//
//
// Prints the same machine IR the PTX printer prints, as C++ over runtime/:
// one statement per PTX instruction (from PtxInstructions.def), registers as
// locals holding raw bits, loops and conditionals as C++ control flow. Each
// kernel K becomes a parameter struct K_Params, a per-thread body and an
// `extern "C" const cutec::rt::KernelDescriptor cutec_kernel_K` that
// runtime/engine/Launch.h launches; a header declares them for users' tests.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_EMU_EMUPRINTER_H
#define CUTEC_CODEGEN_EMU_EMUPRINTER_H

#include "ir/core/IR.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace cutec::emu {

struct EmuOptions {
  /// What the .cpp includes for the declarations (the header written
  /// alongside); empty: the declarations are printed inline.
  std::string headerInclude;
  /// Describes an op's source location for runtime diagnostics, e.g.
  /// "gemv.cute:42:7"; empty strings when not set.
  std::function<std::string(llvm::SMLoc)> describeLocation;
};

/// The header: includes, parameter structs, descriptors and grid helpers.
llvm::Error printEmulationHeader(const ir::Module &module, llvm::raw_ostream &os);
/// The implementation: the kernel bodies and descriptors.
llvm::Error printEmulation(const ir::Module &module, const EmuOptions &options,
                           llvm::raw_ostream &os);

} // namespace cutec::emu

#endif
