// launch(): checks the launch configuration, then runs the clusters on workers.
#include "runtime/engine/Launch.h"

#include "runtime/engine/Cluster.h"
#include "runtime/base/DiagnosticText.h"
#include "runtime/engine/LaunchState.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace cutec::rt {
namespace {

// The hardware limits a launch must respect (sm_100, as sm_90).
constexpr uint64_t kMaxThreadsPerCta = 1024;
constexpr uint32_t kMaxBlockZ = 64;
constexpr uint64_t kMaxGridX = (1ull << 31) - 1;
constexpr uint64_t kMaxGridYZ = 65535;
constexpr uint64_t kMaxSharedBytesPerCta = 227 * 1024;

Status checkConfig(const KernelDescriptor &kernel, const LaunchConfig &config, const void *params) {
  std::string name = kernel.name ? kernel.name : "(unnamed)";
  auto error = [&](const std::string &problem) {
    return Error{"cannot launch kernel '" + name + "': " + problem};
  };
  if (!kernel.name || !kernel.body)
    return error("its descriptor has no name or no body");
  if (kernel.paramSize > 0 && !params)
    return error("it takes " + std::to_string(kernel.paramSize) +
                 " bytes of parameters but none were given");
  if (char message[256] = {}; kernel.checkParams && params &&
                              !kernel.checkParams(params, message, sizeof message))
    return error(message);
  const Dim3 &grid = config.grid, &block = config.block;
  if (grid.volume() == 0 || block.volume() == 0)
    return error("empty grid " + dim3Text(grid) + " or block " + dim3Text(block));
  if (grid.x > kMaxGridX || grid.y > kMaxGridYZ || grid.z > kMaxGridYZ)
    return error("grid " + dim3Text(grid) + " exceeds the limits (2^31-1, 65535, 65535)");
  if (block.volume() > kMaxThreadsPerCta || block.z > kMaxBlockZ)
    return error("block " + dim3Text(block) + " exceeds 1024 threads or z = 64");
  if (config.dynamicSharedBytes < kernel.minDynamicSharedBytes)
    return error("it uses " + std::to_string(kernel.minDynamicSharedBytes) +
                 " bytes of dynamic shared memory but the launch gives " +
                 std::to_string(config.dynamicSharedBytes));
  uint64_t sharedBytes = uint64_t(kernel.staticSharedBytes) + config.dynamicSharedBytes;
  if (sharedBytes > kMaxSharedBytesPerCta)
    return error(std::to_string(sharedBytes) + " bytes of shared memory exceed the " +
                 std::to_string(kMaxSharedBytesPerCta) + " a CTA may have");
  if (config.fiberStackBytes < 16 * 1024)
    return error("fiber stacks of " + std::to_string(config.fiberStackBytes) +
                 " bytes are too small (at least 16 KiB)");
  if (config.pollRoundLimit == 0)
    return error("pollRoundLimit must be at least 1");
  if (config.multiprocessors == 0)
    return error("the GPU must have at least one multiprocessor");
  Dim3 cluster;
  if (std::string problem = launchClusterDims(kernel, config, cluster); !problem.empty())
    return error(problem);
  return ok();
}

/// One worker: takes slots in increasing order and runs each slot's clusters
/// in order, until none is left or an earlier cluster failed.
void work(LaunchState &state, std::atomic<uint64_t> &nextSlot) {
  ClusterRunner runner(state);
  if (Status prepared = runner.prepare(); !prepared) {
    state.reportError(0, "cannot launch kernel '" + std::string(state.kernel.name) +
                             "': " + prepared.error());
    return;
  }
  for (;;) {
    uint64_t slot = nextSlot.fetch_add(1, std::memory_order_relaxed);
    if (slot >= state.pending.slots())
      return;
    while (std::optional<uint64_t> cluster = state.pending.take(slot)) {
      if (state.shouldStop(*cluster))
        break;
      runner.run(*cluster, slot);
    }
  }
}

} // namespace

Status launch(const KernelDescriptor &kernel, const LaunchConfig &config, const void *params,
              const MemoryMap &globals) {
  if (Status valid = checkConfig(kernel, config, params); !valid)
    return valid;
  // Derived parameters go into a copy: the caller's struct stays as it was.
  // Tensor maps are 64-byte aligned, and so is the copy.
  struct alignas(64) Chunk {
    std::byte bytes[64];
  };
  std::vector<Chunk> derived;
  if (kernel.deriveParams) {
    derived.resize((kernel.paramSize + sizeof(Chunk) - 1) / sizeof(Chunk));
    std::memcpy(derived.data(), params, kernel.paramSize);
    if (std::string problem = kernel.deriveParams(derived.data()); !problem.empty())
      return Error{"cannot launch kernel '" + std::string(kernel.name) + "': " + problem};
    params = derived.data();
  }
  Dim3 cluster;
  launchClusterDims(kernel, config, cluster);
  uint64_t clusterCount = config.grid.volume() / cluster.volume();
  uint64_t slots = std::min<uint64_t>(
      clusterCount, std::max<uint64_t>(1, config.multiprocessors / cluster.volume()));
  LaunchState state(kernel, config, params, globals, clusterCount, slots);
  unsigned workers = config.workerThreads ? config.workerThreads
                                          : std::max(1u, std::thread::hardware_concurrency());
  workers = unsigned(std::min<uint64_t>(workers, slots));
  // Each fiber's stack has a guard page, which costs the process two memory
  // mappings of the 65530 Linux allows by default (vm.max_map_count): the
  // workers' fibers (a cluster's threads each) share a budget below that.
  constexpr uint64_t kFiberBudget = 24 * 1024;
  if (kernel.usesBarriers)
    workers = unsigned(std::clamp<uint64_t>(
        kFiberBudget / (cluster.volume() * config.block.volume()), 1, workers));
  std::atomic<uint64_t> nextSlot{0};
  // The calling thread is one of the workers. If the system refuses more
  // threads, fewer workers do the same work.
  std::vector<std::thread> helpers;
  for (unsigned i = 1; i < workers; ++i) {
    try {
      helpers.emplace_back(work, std::ref(state), std::ref(nextSlot));
    } catch (const std::system_error &) {
      break;
    }
  }
  work(state, nextSlot);
  for (std::thread &helper : helpers)
    helper.join();
  return state.status();
}

} // namespace cutec::rt
