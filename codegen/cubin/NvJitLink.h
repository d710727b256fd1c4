//===- NvJitLink.h - PTX to cubin in-process, through nvJitLink -----------===//
//
// `--emit=cubin` assembles the PTX cutec prints with the CUDA toolkit's
// nvJitLink library, which holds the same assembler as ptxas. The library is
// loaded at run time (dlopen), so cutec runs on machines without CUDA and
// only --emit=cubin needs it. Which library: $CUTEC_NVJITLINK if set, else the
// one CMake found when cutec was configured (docs/cli.md).
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_NVJITLINK_H
#define CUTEC_TOOLS_NVJITLINK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace cutec {

struct CubinOptions {
  std::string arch = "sm_100a";          // nvJitLink's -arch=
  std::vector<std::string> extraOptions; // passed to nvJitLink as they are
};

struct Cubin {
  std::vector<char> bytes; // an ELF image for options.arch
  std::string infoLog;     // nvJitLink's messages that are not errors
};

struct NvJitLinkApi;

/// The loaded library.
class NvJitLink {
public:
  /// Loads `library`; if it is empty, $CUTEC_NVJITLINK, else the library
  /// CMake found. Fails, naming what it tried, when none loads.
  static llvm::Expected<NvJitLink> load(const std::string &library = "");

  /// Assembles `ptx` into a cubin. Fails, with nvJitLink's error log, when
  /// nvJitLink rejects the options or the PTX.
  llvm::Expected<Cubin> assemble(llvm::StringRef ptx, const CubinOptions &options) const;

private:
  explicit NvJitLink(std::shared_ptr<const NvJitLinkApi> api) : api(std::move(api)) {}
  std::shared_ptr<const NvJitLinkApi> api;
};

} // namespace cutec

#endif
