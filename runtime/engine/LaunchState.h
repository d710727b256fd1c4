// What the workers of one launch share: the launch's inputs, the clusters
// that have not started, and its first error, with the flag that makes later
// CTAs stop once an error is known.
#pragma once

#include "runtime/engine/ClusterLaunchControl.h"
#include "runtime/race/GlobalAccesses.h"
#include "runtime/engine/Launch.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace cutec::rt {

class LaunchState {
public:
  LaunchState(const KernelDescriptor &kernel, const LaunchConfig &config, const void *params,
              const MemoryMap &globals, uint64_t clusters, uint64_t slots)
      : kernel(kernel), config(config), params(params), globals(globals),
        pending(clusters, slots) {
    if (config.raceCheck)
      globalAccesses = std::make_unique<GlobalAccesses>(globals);
  }

  const KernelDescriptor &kernel;
  const LaunchConfig &config;
  const void *params;
  const MemoryMap &globals;
  /// The clusters no slot has started (runtime/engine/ClusterLaunchControl.h).
  PendingClusters pending;
  /// The race detector's record of global memory (LaunchConfig::raceCheck),
  /// else null.
  std::unique_ptr<GlobalAccesses> globalAccesses;

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
