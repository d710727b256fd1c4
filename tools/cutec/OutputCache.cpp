//===- OutputCache.cpp - Compiled outputs kept between runs of cutec ------===//
#include "tools/cutec/OutputCache.h"

#include "cache/DiskCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"

namespace cutec::cli {

std::string outputCacheKey(const OutputKeyParts &p) {
  CacheKey key;
  key.add(kOutputCacheKind).add(p.identity).add(p.emit).add(p.arch);
  key.add(p.fmad ? "fmad=1" : "fmad=0").add(p.lineInfo ? "lineinfo=1" : "lineinfo=0");
  key.add("disable-pass=" + llvm::join(p.disabledPasses, ","));
  key.add("nvjitlink=" + llvm::join(p.nvJitLinkOptions, "\x1f"));
  if (!p.assembler.empty())
    key.add("assembler=" + p.assembler);
  key.add(p.fileName).add(p.lineInfoPath).add(p.source);
  return key.hex();
}

std::string executableIdentity(const char *argv0) {
  static int anchor;
  std::string path = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  std::string identity = std::string("cutec ") + CUTEC_VERSION + "|" + path;
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return identity;
  auto mtime = std::chrono::duration_cast<std::chrono::nanoseconds>(
      status.getLastModificationTime().time_since_epoch());
  return identity + "|" + std::to_string(status.getSize()) + "|" +
         std::to_string(mtime.count());
}

std::string encodeOutputEntry(llvm::StringRef diagnostics, llvm::StringRef output) {
  return std::to_string(diagnostics.size()) + "\n" + diagnostics.str() + output.str();
}

std::optional<std::pair<llvm::StringRef, llvm::StringRef>>
decodeOutputEntry(llvm::StringRef entry) {
  auto [length, rest] = entry.split('\n');
  size_t size;
  if (length.getAsInteger(10, size) || size > rest.size())
    return std::nullopt;
  return std::pair{rest.take_front(size), rest.drop_front(size)};
}

} // namespace cutec::cli
