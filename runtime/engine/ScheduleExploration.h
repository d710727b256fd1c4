// Running a kernel under several schedules (runtime/engine/Schedule.h): seeds
// first, first + 1, ..., first + count - 1, each from the same initial
// global memory. A schedule that fails ends the exploration with its error;
// one that leaves global memory different from the fixed schedule's (seed
// 0, run first as the reference when `first` is not 0) is a race too (the
// result depends on the interleaving) and is reported with the first
// differing byte. Every report names the schedule and its seed,
// which reproduces it alone (LaunchConfig::scheduleSeed, `cutec run
// --schedules=1 --seed=S`).
#pragma once

#include "runtime/engine/Launch.h"

#include <cstdint>

namespace cutec::rt {

/// Launches `kernel` under `count` schedules from seed `first`, restoring
/// the buffers of `globals` before each; on success they hold the result
/// (the same for every schedule). One schedule with seed 0 is exactly
/// launch(). `config.scheduleSeed` is ignored. Gives the number of
/// schedules that ran: `count`, or 1 for a kernel without barriers, whose
/// threads run one after another under every seed.
Result<uint32_t> launchSchedules(const KernelDescriptor &kernel, LaunchConfig config,
                                 const void *params, const MemoryMap &globals, uint32_t count,
                                 uint64_t first);

} // namespace cutec::rt
