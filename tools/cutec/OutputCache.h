//===- OutputCache.h - Compiled outputs kept between runs of cutec --------===//
//
// `cutec K.cute -o K.ptx` (and --emit=cubin, --emit=json) keeps its output
// and its diagnostics in the disk cache (cache/DiskCache.h), so that the
// same compile again, by the command or by the Python package, reads one
// file. The key is everything that determines the output: this build of
// cutec (its path, size and modification time), what is emitted, the
// target, the options, the file name diagnostics show and the source text.
// The Python package computes the same key for PTX and JSON
// (python/cutec/_cache.py); a test keeps the two in step. A cubin's key also
// holds the assembler (CubinAssembler::cacheKey()), which only cutec finds.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_CUTEC_OUTPUTCACHE_H
#define CUTEC_TOOLS_CUTEC_OUTPUTCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cutec::cli {

/// The entry kind under which outputs are kept.
inline constexpr const char *kOutputCacheKind = "compile-output";

struct OutputKeyParts {
  std::string identity; // executableIdentity()
  std::string emit;     // "ptx", "cubin" or "json"
  std::string arch;
  bool fmad = true;
  bool lineInfo = false;
  std::vector<std::string> disabledPasses;
  std::vector<std::string> nvJitLinkOptions;
  /// For a cubin, CubinAssembler::cacheKey(): which assembler (ptxas's path,
  /// size and modification time) and its options; empty otherwise, and
  /// then not part of the key, which the Python package computes for PTX
  /// and JSON only.
  std::string assembler;
  std::string fileName;
  /// With line information, the absolute path `.file` names (relative names
  /// from different folders give different PTX); empty otherwise.
  std::string lineInfoPath;
  std::string source;
};

std::string outputCacheKey(const OutputKeyParts &parts);

/// "cutec VERSION|PATH|SIZE|MTIME_NS" of the running executable.
std::string executableIdentity(const char *argv0);

/// An entry: the diagnostics' length in decimal, a newline, the
/// diagnostics, then the output's bytes.
std::string encodeOutputEntry(llvm::StringRef diagnostics, llvm::StringRef output);
/// The diagnostics and output of an entry; nullopt when it is malformed.
std::optional<std::pair<llvm::StringRef, llvm::StringRef>>
decodeOutputEntry(llvm::StringRef entry);

} // namespace cutec::cli

#endif
