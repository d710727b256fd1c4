//===- CubinAssembler.h - Which assembler --emit=cubin uses ---------------===//
//
// `--emit=cubin` runs the ptxas program (Ptxas.h), so that its cubin is the
// one `ptxas -arch=ARCH` gives for the PTX of --emit=ptx, byte for byte.
// Only when there is no ptxas, or when -Xnvjitlink asks for it, does it
// assemble in-process with nvJitLink (NvJitLink.h), whose SASS differs
// (nvJitLink compiles the PTX as a separate compilation unit: no
// setmaxnreg, wgmma serialised around calls, ...). docs/cli.md, "Cubins".
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_CUBIN_CUBINASSEMBLER_H
#define CUTEC_CODEGEN_CUBIN_CUBINASSEMBLER_H

#include "codegen/cubin/Cubin.h"
#include "codegen/cubin/NvJitLink.h"
#include "codegen/cubin/Ptxas.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cutec {

/// What --emit=cubin is asked for.
struct CubinRequest {
  std::string arch = "sm_100a";
  bool lineInfo = false;                     // -lineinfo
  std::vector<std::string> ptxasOptions;     // -Xptxas: ptxas's options
  std::vector<std::string> nvJitLinkOptions; // -Xnvjitlink: nvJitLink's; asks for nvJitLink
};

class CubinAssembler {
public:
  /// ptxas (Ptxas::find()) unless the request has nvJitLink options or there
  /// is no ptxas; then nvJitLink, which load() loads. Fails when
  /// $CUTEC_PTXAS names no program.
  static llvm::Expected<CubinAssembler> choose(CubinRequest request,
                                               const PtxasPlaces &places = PtxasPlaces::defaults());

  bool usesPtxas() const { return ptxas.has_value(); }
  /// "ptxas" or "nvJitLink", for messages and timers.
  llvm::StringRef name() const { return usesPtxas() ? "ptxas" : "nvJitLink"; }

  /// When nvJitLink stands in for a ptxas that was not found (neither
  /// -Xnvjitlink nor an empty $CUTEC_PTXAS asked for it): a warning that
  /// says so; else empty.
  const std::string &fallbackWarning() const { return warning; }

  /// Everything besides the PTX that decides the bytes: the assembler (for
  /// ptxas its path, size and modification time) and the options.
  std::string cacheKey() const;

  /// Loads nvJitLink when it is the assembler; nothing for ptxas. Fails,
  /// saying why nvJitLink was chosen and what was tried, when it cannot.
  llvm::Error load();

  /// The cubin of `ptx`; load() first.
  llvm::Expected<Cubin> assemble(llvm::StringRef ptx) const;

private:
  explicit CubinAssembler(CubinRequest request) : request(std::move(request)) {}

  CubinRequest request;
  std::optional<Ptxas> ptxas;
  std::optional<NvJitLink> nvJitLink;
  std::string whyNvJitLink; // for load()'s message
  std::string warning;
};

} // namespace cutec

#endif
