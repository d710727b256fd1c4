//===- Ptxas.h - PTX to cubin, through the ptxas program ------------------===//
//
// `--emit=cubin` runs the CUDA toolkit's ptxas on a temporary copy of the
// PTX, as `ptxas -arch=ARCH [OPTIONS] cutec.ptx -o cutec.cubin`, and reads
// the cubin back: the same whole-program compile, so the same bytes, as
// running ptxas on the PTX of --emit=ptx by hand. Which ptxas: find().
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_CUBIN_PTXAS_H
#define CUTEC_CODEGEN_CUBIN_PTXAS_H

#include "codegen/cubin/Cubin.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace cutec {

struct PtxasSearch;

/// Where Ptxas::find() looks, in order.
struct PtxasPlaces {
  std::optional<std::string> named;    // $CUTEC_PTXAS: if set, only this
  std::vector<std::string> candidates; // files to try
  bool searchPath = true;              // then `ptxas` on the PATH

  /// $CUTEC_PTXAS; the ptxas CMake found when cutec was configured and
  /// /usr/local/cuda/bin/ptxas; the PATH.
  static PtxasPlaces defaults();
};

class Ptxas {
public:
  /// The ptxas to run: $CUTEC_PTXAS if it is set and not empty (and nothing
  /// else), else the one CMake found when cutec was configured, else
  /// /usr/local/cuda/bin/ptxas, else `ptxas` on the PATH (`places` says
  /// where). Nothing found (also when $CUTEC_PTXAS is set but empty) is not
  /// an error; a $CUTEC_PTXAS that names no program is.
  static llvm::Expected<PtxasSearch> find(const PtxasPlaces &places = PtxasPlaces::defaults());

  explicit Ptxas(std::string path) : program(std::move(path)) {}

  const std::string &path() const { return program; }

  /// "ptxas|PATH|SIZE|MTIME_NS" of the program (the compile cache's key: a
  /// different or updated ptxas gives other bytes).
  std::string identity() const;

  /// Assembles `ptx` for options.arch, passing options.extraOptions to ptxas
  /// before the input file. Fails with ptxas's messages when it exits with
  /// an error; they name the input `cutec.ptx`, whose lines are those of
  /// --emit=ptx. Its other messages (warnings, -v) are the cubin's infoLog.
  llvm::Expected<Cubin> assemble(llvm::StringRef ptx, const CubinOptions &options) const;

private:
  std::string program;
};

/// What Ptxas::find() found, or where it looked.
struct PtxasSearch {
  std::optional<Ptxas> found;
  std::string tried;   // when nothing was found, for messages
  bool chosen = false; // nothing, by choice: $CUTEC_PTXAS is set but empty
};

} // namespace cutec

#endif
