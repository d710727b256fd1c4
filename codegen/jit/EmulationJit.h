// EmulationJit: compiles C++ source in-process and runs it, the engine of
// `cutec run`. Each source is compiled by CxxToModule and loaded into an ORC
// LLJIT, like a shared library opened with RTLD_NOW: its undefined symbols
// are resolved and its static initialisers run before addSource returns.
//
// Symbols the JIT'd code does not define are looked up in the host process
// (DynamicLibrarySearchGenerator::GetForCurrentProcess): libc, libstdc++ and
// whatever the host executable exports. An executable that links functions
// for JIT'd code to call (cutec_runtime in `cutec`) must be linked with
// ENABLE_EXPORTS (-rdynamic) so that its own symbols are visible, and must
// reference them (or link their library whole), since the linker drops
// unreferenced archive members.
//
// With a DiskCache, the object code of each source is kept there and loaded
// from there the next time the same source is added under the same options
// (EmulationObjectCache.h), skipping Clang and code generation.
//
// Instances are independent; any number may live in one process. One
// instance may be used from several threads; addSource calls are serialised.
// A source that failed to load may leave its symbols unusable in the
// instance: start a new instance after an error.
#ifndef CUTEC_CODEGEN_JIT_EMULATIONJIT_H
#define CUTEC_CODEGEN_JIT_EMULATIONJIT_H

#include "cache/DiskCache.h"
#include "codegen/jit/CxxToModule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace llvm::orc {
class LLJIT;
class SymbolLookupSet;
} // namespace llvm::orc

namespace cutec {

class EmulationObjectCapture;

class EmulationJit {
public:
  static llvm::Expected<std::unique_ptr<EmulationJit>>
  create(CxxCompileOptions options = {}, std::optional<DiskCache> cache = std::nullopt);
  /// Runs the static destructors of the loaded code.
  ~EmulationJit();
  EmulationJit(const EmulationJit &) = delete;
  EmulationJit &operator=(const EmulationJit &) = delete;

  /// Compiles `cppText` as the C++20 file `bufferName` (the name diagnostics
  /// show) and loads it. The error's message holds the compiler's
  /// diagnostics, or the link errors (e.g. undefined symbols).
  llvm::Error addSource(llvm::StringRef cppText, llvm::StringRef bufferName);

  /// Whether the last source added came from the cache.
  bool lastSourceFromCache() const { return fromCache; }

  /// The address of `symbolName`, an unmangled (`extern "C"`) name defined by
  /// a loaded source.
  llvm::Expected<void *> lookup(llvm::StringRef symbolName);

  /// lookup() as a pointer to a function of type `Signature`.
  template <typename Signature>
  llvm::Expected<Signature *> lookupFunction(llvm::StringRef symbolName) {
    llvm::Expected<void *> address = lookup(symbolName);
    if (!address)
      return address.takeError();
    return reinterpret_cast<Signature *>(*address);
  }

private:
  EmulationJit(CxxCompileOptions options, std::optional<DiskCache> cache,
               std::unique_ptr<EmulationObjectCapture> capture, std::string hostTarget,
               std::unique_ptr<llvm::orc::LLJIT> jit);

  /// Loads the cached object of `key` if there is a valid one.
  std::optional<llvm::Error> addCachedObject(llvm::StringRef key, llvm::StringRef bufferName);
  /// Links what `symbols` names in the main library now and runs its
  /// initialisers, so that addSource reports what is wrong.
  llvm::Error linkAndInitialize(llvm::orc::SymbolLookupSet symbols, llvm::StringRef bufferName);

  /// Records an error ORC or the LLVM backend reports outside any call's
  /// return value, for addSource to return.
  void recordAsyncError(llvm::StringRef message);
  std::string takeAsyncErrors();

  CxxCompileOptions options;
  std::optional<DiskCache> cache;
  // Used by the JIT's compiler: declared before `jit`.
  std::unique_ptr<EmulationObjectCapture> capture;
  /// The host's triple, CPU and features, part of every cache key.
  std::string hostTarget;
  bool fromCache = false;
  std::mutex addMutex;
  // Declared before `jit`, which may still report errors while it is
  // destroyed.
  std::mutex asyncErrorsMutex;
  std::string asyncErrors;
  std::unique_ptr<llvm::orc::LLJIT> jit;
};

} // namespace cutec

#endif // CUTEC_CODEGEN_JIT_EMULATIONJIT_H
