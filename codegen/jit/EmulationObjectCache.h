//===- EmulationObjectCache.h - The JIT's object code kept on disk --------===//
//
// Compiling an emulation with Clang and generating its machine code takes
// seconds; the object code that comes out is determined by the C++ text,
// the compiler's options, the runtime headers it includes, the LLVM version
// and the host CPU. EmulationJit keeps it in a DiskCache under a key of all
// of these and loads it from there the next time, in this process or
// another.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_JIT_EMULATIONOBJECTCACHE_H
#define CUTEC_CODEGEN_JIT_EMULATIONOBJECTCACHE_H

#include "cache/DiskCache.h"
#include "codegen/jit/CxxToModule.h"

#include "llvm/ExecutionEngine/ObjectCache.h"

#include <optional>
#include <string>

namespace cutec {

/// The cache key of `cppText` compiled as `bufferName` under `options` for
/// a host whose CPU and features `hostTarget` names; none when the object
/// cannot be cached (further include directories, whose headers the key
/// does not cover).
std::optional<std::string> emulationObjectKey(llvm::StringRef cppText, llvm::StringRef bufferName,
                                              const CxxCompileOptions &options,
                                              llvm::StringRef hostTarget);

/// The kind of cache entry that holds an emulation's object code.
inline constexpr llvm::StringLiteral kEmulationObjectKind = "emu-object";

/// Receives the object code the JIT generates for a module and stores it
/// under the module's identifier when that is a cache key (set by
/// EmulationJit). The JIT has already turned the module's static
/// initialisers into functions its platform finds by name, so they run when
/// the object is loaded from the cache too.
class EmulationObjectCapture : public llvm::ObjectCache {
public:
  explicit EmulationObjectCapture(DiskCache cache) : cache(std::move(cache)) {}

  /// The identifier EmulationJit gives a module whose object is to be kept.
  static std::string moduleIdentifier(llvm::StringRef key);

  void notifyObjectCompiled(const llvm::Module *module, llvm::MemoryBufferRef object) override;
  /// Never answers: EmulationJit looks the cache up before it compiles.
  std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module *) override { return nullptr; }

private:
  DiskCache cache;
};

} // namespace cutec

#endif
