// Helpers for the JIT tests: a JIT with one source loaded, failing the test
// with the compiler's message when that source does not load.
#ifndef CUTEC_TESTS_JIT_JITTESTUTIL_H
#define CUTEC_TESTS_JIT_JITTESTUTIL_H

#include "codegen/jit/EmulationJit.h"

#include <gtest/gtest.h>

namespace cutec::test {

/// A JIT holding `source`, or null after reporting a test failure.
inline std::unique_ptr<EmulationJit> jitWith(llvm::StringRef source,
                                             CxxCompileOptions options = {},
                                             std::optional<DiskCache> cache = std::nullopt) {
  llvm::Expected<std::unique_ptr<EmulationJit>> jit =
      EmulationJit::create(std::move(options), std::move(cache));
  if (!jit) {
    ADD_FAILURE() << "creating the JIT: " << llvm::toString(jit.takeError());
    return nullptr;
  }
  if (llvm::Error error = (*jit)->addSource(source, "test.cpp")) {
    ADD_FAILURE() << "loading test.cpp: " << llvm::toString(std::move(error));
    return nullptr;
  }
  return std::move(*jit);
}

/// The function `name` of `jit`, or null after reporting a test failure.
template <typename Signature> Signature *functionOf(EmulationJit &jit, llvm::StringRef name) {
  llvm::Expected<Signature *> function = jit.lookupFunction<Signature>(name);
  if (!function) {
    ADD_FAILURE() << "looking up " << name.str() << ": " << llvm::toString(function.takeError());
    return nullptr;
  }
  return *function;
}

/// The message of `error`, which must be a failure.
inline std::string failureMessage(llvm::Error error) {
  EXPECT_TRUE(bool(error)) << "expected an error";
  return llvm::toString(std::move(error));
}

} // namespace cutec::test

#endif // CUTEC_TESTS_JIT_JITTESTUTIL_H
