// launchSchedules: one launch per schedule, from a snapshot of global
// memory, and the comparison of each schedule's result with the first's.
#include "runtime/engine/ScheduleExploration.h"

#include "runtime/base/DiagnosticText.h"

#include <cstring>
#include <string>
#include <vector>

namespace cutec::rt {
namespace {

std::vector<std::vector<std::byte>> snapshot(const MemoryMap &globals) {
  std::vector<std::vector<std::byte>> bytes;
  for (const MemoryMap::Buffer &b : globals.buffers()) {
    const auto *base = reinterpret_cast<const std::byte *>(b.base);
    bytes.emplace_back(base, base + b.size);
  }
  return bytes;
}

void restore(const MemoryMap &globals, const std::vector<std::vector<std::byte>> &bytes) {
  size_t i = 0;
  for (const MemoryMap::Buffer &b : globals.buffers())
    std::memcpy(reinterpret_cast<void *>(b.base), bytes[i++].data(), b.size);
}

/// "" if global memory holds `expected`, else where it first differs.
std::string difference(const MemoryMap &globals,
                       const std::vector<std::vector<std::byte>> &expected) {
  size_t i = 0;
  for (const MemoryMap::Buffer &b : globals.buffers()) {
    const auto *now = reinterpret_cast<const std::byte *>(b.base);
    const std::vector<std::byte> &then = expected[i++];
    if (std::memcmp(now, then.data(), b.size) == 0)
      continue;
    size_t at = 0;
    while (now[at] == then[at])
      ++at;
    return "buffer '" + b.name + "' byte " + std::to_string(at) + " is " +
           hex(uint64_t(now[at])) + " after this schedule, " + hex(uint64_t(then[at])) +
           " after the fixed one";
  }
  return "";
}

std::string scheduleText(uint32_t k, uint32_t count, uint64_t seed) {
  return "schedule " + std::to_string(k) + " of " + std::to_string(count) + " (seed " +
         std::to_string(seed) + ")";
}

std::string reproduceText(uint64_t seed) {
  return "\n  reproduce it alone with --schedules=1 --seed=" + std::to_string(seed) +
         " (LaunchConfig::scheduleSeed = " + std::to_string(seed) + ")";
}

} // namespace

Result<uint32_t> launchSchedules(const KernelDescriptor &kernel, LaunchConfig config,
                                 const void *params, const MemoryMap &globals, uint32_t count,
                                 uint64_t first) {
  // A kernel without barriers runs its threads one after another under
  // every seed: one run is all of them.
  if ((count == 1 && first == 0) || !kernel.usesBarriers) {
    config.scheduleSeed = 0;
    if (Status status = launch(kernel, config, params, globals); !status)
      return Error{status.error()};
    return 1u;
  }
  // The fixed schedule's result is the reference, so that a schedule run
  // alone (count 1, its seed) reproduces a difference too.
  std::vector<std::vector<std::byte>> initial = snapshot(globals), reference;
  if (first != 0) {
    config.scheduleSeed = 0;
    if (Status status = launch(kernel, config, params, globals); !status)
      return Error{"the fixed schedule (seed 0), the reference of the exploration: " +
                   status.error()};
    reference = snapshot(globals);
  }
  for (uint32_t k = 1; k <= count; ++k) {
    uint64_t seed = first + k - 1;
    if (k > 1 || first != 0)
      restore(globals, initial);
    config.scheduleSeed = seed;
    if (Status status = launch(kernel, config, params, globals); !status)
      return Error{scheduleText(k, count, seed) + ": " + status.error() + reproduceText(seed)};
    if (seed == 0) {
      reference = snapshot(globals);
      continue;
    }
    if (std::string diff = difference(globals, reference); !diff.empty())
      return Error{scheduleText(k, count, seed) +
                   " wrote different results than the fixed schedule (seed 0): " + diff +
                   ": the result depends on the interleaving, a race the checks did not catch" +
                   reproduceText(seed)};
  }
  return count;
}

} // namespace cutec::rt
