//===- DiskCache.h - Compiled artefacts kept on disk between runs ---------===//
//
// cutec keeps what is slow to make and fully determined by its inputs (the
// emulation's object code, PTX, cubins) in a folder, one file per entry,
// named by a SHA-256 of everything that determines it. The folder is
// $CUTEC_CACHE_DIR, else $XDG_CACHE_HOME/cutec, else ~/.cache/cutec.
//
// Any number of processes may share the folder: an entry is written to a
// temporary file in the same folder and renamed into place, so a reader sees
// a whole entry or none. A cache that cannot be read or written costs a
// recompile, never an error.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CACHE_DISKCACHE_H
#define CUTEC_CACHE_DISKCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace cutec {

/// A key: the hex SHA-256 of the parts it is fed, each length-prefixed so
/// that ("ab", "c") and ("a", "bc") differ.
class CacheKey {
public:
  CacheKey &add(llvm::StringRef part);
  CacheKey &add(llvm::ArrayRef<uint8_t> part);
  /// 64 lower-case hex digits.
  std::string hex() const;

private:
  std::string parts;
};

class DiskCache {
public:
  /// The cache in $CUTEC_CACHE_DIR, $XDG_CACHE_HOME/cutec or ~/.cache/cutec;
  /// disabled when none of them can be named.
  static DiskCache fromEnvironment();
  /// The cache in `folder`; an empty folder is a disabled cache.
  explicit DiskCache(std::string folder) : folder(std::move(folder)) {}

  bool enabled() const { return !folder.empty(); }
  const std::string &directory() const { return folder; }

  /// The entry `kind`/`key` (e.g. "emu-object"), or null if there is none.
  std::unique_ptr<llvm::MemoryBuffer> get(llvm::StringRef kind, llvm::StringRef key) const;
  /// Stores `bytes` as `kind`/`key`; false (and nothing stored) if the
  /// folder cannot be written.
  bool put(llvm::StringRef kind, llvm::StringRef key, llvm::StringRef bytes) const;

private:
  std::string entryPath(llvm::StringRef kind, llvm::StringRef key) const;

  std::string folder;
};

} // namespace cutec

#endif
