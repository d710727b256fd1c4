// Launching an emulated kernel: runs every thread of the grid on the CPU.
//
// The emulated GPU runs LaunchConfig::multiprocessors / (CTAs per cluster)
// clusters at once, each in a slot that starts its clusters one after another
// (runtime/engine/ClusterLaunchControl.h: cluster i in slot i % slots). The slots run
// in parallel on a pool of worker threads, each taking the next slot from a
// shared counter; the CTAs of one cluster run together on one worker
// (runtime/engine/Cluster.h). Clusters share nothing but global memory, and a kernel
// whose result depends on the order in which its CTAs run is racy on the GPU
// too, so outputs do not depend on the number of workers. (Global atomics,
// whose order would matter, are not emulated yet.) Within a CTA, threads run
// in the order of the launch's schedule (runtime/engine/Schedule.h; by default the
// fixed one of runtime/engine/CtaRunner.h), so a launch is deterministic.
//
// Errors stop the launch and come back as its Status. When several clusters
// fail, the one with the lowest linear index is reported (without clusters,
// the CTA with the lowest index); clusters after it stop at their next
// scheduling point, clusters before it finish, so the report is the same one
// a single worker would give. Inside a cluster the first error stops it.
#pragma once

#include "runtime/base/Kernel.h"
#include "runtime/memory/MemoryMap.h"
#include "runtime/base/Result.h"
#include "runtime/numerics/Tcgen05Numerics.h"

#include <cstddef>
#include <cstdint>

namespace cutec::rt {

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  /// CTAs per thread block cluster (cudaLaunchAttributeClusterDimension);
  /// {1, 1, 1} takes the kernel's own (KernelDescriptor::cluster). The CTAs
  /// of one cluster run together (runtime/engine/Cluster.h).
  Dim3 cluster;
  uint32_t dynamicSharedBytes = 0;
  /// Worker threads running CTAs; 0 uses the hardware's concurrency.
  unsigned workerThreads = 0;
  /// Stack of each fiber (kernels with barriers). The body's virtual
  /// registers live there, so very large kernels may need more.
  size_t fiberStackBytes = 64 * 1024;
  /// Rounds of the CTA scheduler in which only polling threads run and
  /// nothing changes before the polling is reported as a deadlock.
  uint32_t pollRoundLimit = 1000;
  /// The SMs of the emulated GPU (a B200 has 148): with one CTA per SM, how
  /// many clusters run at once, which is what cluster launch control sees.
  uint32_t multiprocessors = 148;
  /// The schedule the CTAs' threads run in (runtime/engine/Schedule.h): 0 is the
  /// fixed round-robin one, any other seed a randomised interleaving.
  uint64_t scheduleSeed = 0;
  /// The arithmetic of tcgen05.mma's floating-point kinds
  /// (runtime/numerics/Tcgen05Numerics.h); the default is the emulator's f32 steps.
  Tcgen05Numerics tcgen05Numerics = Tcgen05Numerics::F32Steps;
  /// The data-race detector (docs/emulator.md, "Data races"): reports two
  /// plain accesses (or a plain access and an atomic) of the same shared or
  /// global byte by different threads, at least one a write, that no
  /// synchronisation orders, whatever the schedule made of them.
  bool raceCheck = false;
};

/// Runs `kernel` over `config.grid` x `config.block` threads. `params` points
/// to the kernel's parameter struct; `globals` holds the buffers its global
/// loads and stores may touch.
Status launch(const KernelDescriptor &kernel, const LaunchConfig &config, const void *params,
              const MemoryMap &globals);

} // namespace cutec::rt
