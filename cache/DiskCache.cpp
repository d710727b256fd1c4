//===- DiskCache.cpp - Compiled artefacts kept on disk between runs -------===//
#include "cache/DiskCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

namespace cutec {

CacheKey &CacheKey::add(llvm::StringRef part) {
  parts += std::to_string(part.size());
  parts += ':';
  parts += part;
  return *this;
}

CacheKey &CacheKey::add(llvm::ArrayRef<uint8_t> part) {
  return add(llvm::StringRef(reinterpret_cast<const char *>(part.data()), part.size()));
}

std::string CacheKey::hex() const {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(parts)), /*LowerCase=*/true);
}

DiskCache DiskCache::fromEnvironment() {
  if (std::optional<std::string> dir = llvm::sys::Process::GetEnv("CUTEC_CACHE_DIR"))
    return DiskCache(*dir);
  llvm::SmallString<128> path;
  if (std::optional<std::string> xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty())
    path = *xdg;
  else if (llvm::sys::path::home_directory(path))
    llvm::sys::path::append(path, ".cache");
  else
    return DiskCache("");
  llvm::sys::path::append(path, "cutec");
  return DiskCache(std::string(path));
}

std::string DiskCache::entryPath(llvm::StringRef kind, llvm::StringRef key) const {
  llvm::SmallString<256> path(folder);
  llvm::sys::path::append(path, kind, key);
  return std::string(path);
}

std::unique_ptr<llvm::MemoryBuffer> DiskCache::get(llvm::StringRef kind,
                                                   llvm::StringRef key) const {
  if (!enabled())
    return nullptr;
  auto buffer = llvm::MemoryBuffer::getFile(entryPath(kind, key), /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return buffer ? std::move(*buffer) : nullptr;
}

bool DiskCache::put(llvm::StringRef kind, llvm::StringRef key, llvm::StringRef bytes) const {
  if (!enabled())
    return false;
  std::string path = entryPath(kind, key);
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (llvm::sys::fs::create_directories(dir))
    return false;
  // A unique temporary file beside the entry, renamed over it: readers in
  // other processes see the old entry, none, or the whole new one.
  int fd;
  llvm::SmallString<256> temporary;
  llvm::SmallString<256> model(dir);
  llvm::sys::path::append(model, key + ".tmp-%%%%%%%%");
  if (llvm::sys::fs::createUniqueFile(model, fd, temporary))
    return false;
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << bytes;
    out.close();
    if (out.has_error()) {
      out.clear_error();
      llvm::sys::fs::remove(temporary);
      return false;
    }
  }
  if (llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return false;
  }
  return true;
}

} // namespace cutec
