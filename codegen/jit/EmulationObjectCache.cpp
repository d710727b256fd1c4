//===- EmulationObjectCache.cpp - The JIT's object code kept on disk ------===//
#include "codegen/jit/EmulationObjectCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <vector>

namespace cutec {

namespace {

constexpr llvm::StringLiteral kModulePrefix = "cutec-cache:";

/// Every header under `includeDir`/runtime, by path, with its contents: what
/// the emitted C++ can include of cutec's.
void addRuntimeHeaders(CacheKey &key, llvm::StringRef includeDir) {
  llvm::SmallString<256> root(includeDir);
  llvm::sys::path::append(root, "runtime");
  std::vector<std::string> headers;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(root, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".h")
      headers.push_back(it->path());
  std::sort(headers.begin(), headers.end());
  for (const std::string &header : headers) {
    key.add(llvm::StringRef(header).drop_front(root.size()));
    if (auto contents = llvm::MemoryBuffer::getFile(header))
      key.add((*contents)->getBuffer());
  }
}

} // namespace

std::optional<std::string> emulationObjectKey(llvm::StringRef cppText, llvm::StringRef bufferName,
                                              const CxxCompileOptions &options,
                                              llvm::StringRef hostTarget) {
  if (!options.includeDirs.empty())
    return std::nullopt;
  CacheKey key;
  key.add("emulation object 1").add(LLVM_VERSION_STRING).add(hostTarget);
  for (const std::string &arg : cxxDriverArgs(bufferName, options))
    key.add(arg);
  addRuntimeHeaders(key, resolveRuntimeIncludeDir(options));
  key.add(cppText);
  return key.hex();
}

std::string EmulationObjectCapture::moduleIdentifier(llvm::StringRef key) {
  return (kModulePrefix + key).str();
}

void EmulationObjectCapture::notifyObjectCompiled(const llvm::Module *module,
                                                  llvm::MemoryBufferRef object) {
  llvm::StringRef id = module->getModuleIdentifier();
  if (!id.consume_front(kModulePrefix))
    return;
  cache.put(kEmulationObjectKind, id, object.getBuffer());
}

} // namespace cutec
