//===- NvJitLink.h - PTX to cubin in-process, through nvJitLink -----------===//
//
// The CUDA toolkit's nvJitLink library holds the same assembler as ptxas;
// `--emit=cubin` falls back on it when there is no ptxas program, or when
// -Xnvjitlink asks for it (CubinAssembler.h). The library is loaded at run
// time (dlopen), so cutec runs on machines without CUDA. Which library:
// $CUTEC_NVJITLINK if set, else the one CMake found when cutec was
// configured (docs/cli.md).
//
// nvJitLink is a linker: it compiles each PTX input as a separate
// compilation unit (its ptxas runs with --compile-only, placed after any
// -Xptxas option, so no option undoes it) and links the result. Its SASS is
// therefore not ptxas's whole-program SASS: `setmaxnreg` is dropped
// (C7504), calls to ptxas's internal routines (div.rn.f32's, ...) serialise
// wgmma (C7509), and instruction selection and scheduling differ.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_CUBIN_NVJITLINK_H
#define CUTEC_CODEGEN_CUBIN_NVJITLINK_H

#include "codegen/cubin/Cubin.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace cutec {

struct NvJitLinkApi;

/// The loaded library.
class NvJitLink {
public:
  /// Loads `library`; if it is empty, $CUTEC_NVJITLINK, else the library
  /// CMake found. Fails, naming what it tried, when none loads.
  static llvm::Expected<NvJitLink> load(const std::string &library = "");

  /// The libraries load() would try, in order (for the compile cache's key).
  static std::string candidates();

  /// Assembles `ptx` into a cubin; options.extraOptions are nvJitLink's
  /// options. Fails, with nvJitLink's error log, when nvJitLink rejects the
  /// options or the PTX.
  llvm::Expected<Cubin> assemble(llvm::StringRef ptx, const CubinOptions &options) const;

private:
  explicit NvJitLink(std::shared_ptr<const NvJitLinkApi> api) : api(std::move(api)) {}
  std::shared_ptr<const NvJitLinkApi> api;
};

} // namespace cutec

#endif
