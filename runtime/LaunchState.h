// What the workers of one launch share: the launch's inputs and its first
// error, with the flag that makes later CTAs stop once an error is known.
#pragma once

#include "runtime/Launch.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

namespace cutec::rt {

class LaunchState {
public:
  LaunchState(const KernelDescriptor &kernel, const LaunchConfig &config, const void *params,
              const MemoryMap &globals)
      : kernel(kernel), config(config), params(params), globals(globals) {}

  const KernelDescriptor &kernel;
  const LaunchConfig &config;
  const void *params;
  const MemoryMap &globals;

  /// Whether CTA `cta` should stop because a CTA before it failed.
  bool shouldStop(uint64_t cta) const {
    return cta > firstFailedCta.load(std::memory_order_relaxed);
  }

  /// Records CTA `cta`'s error; the lowest failing CTA's error is kept.
  void reportError(uint64_t cta, std::string message) {
    std::lock_guard lock(mutex);
    if (cta >= firstFailedCta.load(std::memory_order_relaxed))
      return;
    error = std::move(message);
    firstFailedCta.store(cta, std::memory_order_relaxed);
  }

  Status status() {
    std::lock_guard lock(mutex);
    if (firstFailedCta.load(std::memory_order_relaxed) == UINT64_MAX)
      return ok();
    return Error{error};
  }

private:
  std::atomic<uint64_t> firstFailedCta{UINT64_MAX};
  std::mutex mutex;
  std::string error;
};

} // namespace cutec::rt
