// Named barriers with warp-granular arrival counting.
#include "runtime/engine/NamedBarriers.h"

#include "runtime/base/DiagnosticText.h"

#include <bit>

namespace cutec::rt {

void NamedBarriers::reset(std::span<const uint32_t> liveLanes) {
  live = liveLanes;
  barriers = {};
}

Result<bool> NamedBarriers::arrive(uint32_t id, uint32_t count, uint32_t warp, uint32_t lane,
                                   const char *what) {
  Barrier &b = barriers[id];
  uint32_t bit = 1u << lane;
  if (!b.active) {
    b.active = true;
    b.count = count;
    b.starter = warp;
  } else if (b.count != count) {
    return Error{"warp " + std::to_string(warp) + " arrived at barrier " + std::to_string(id) +
                 " with thread count " + std::to_string(count) + ", but warp " +
                 std::to_string(b.starter) + " started its current phase with count " +
                 std::to_string(b.count) + " (0 = all threads)"};
  }
  if (b.arrivedWarps >> warp & 1)
    return Error{"warp " + std::to_string(warp) + " arrived at barrier " + std::to_string(id) +
                 " again before the barrier completed (" + progressText(b) +
                 "): a warp arrives once per phase, so a bar.arrive must not be followed by "
                 "another arrival at the same barrier until it completes"};
  if (b.pendingLanes[warp] & bit)
    return Error{"lane " + std::to_string(lane) + " of warp " + std::to_string(warp) +
                 " arrived at barrier " + std::to_string(id) +
                 " twice before the rest of its warp arrived once (bar is .aligned: the warp "
                 "diverged around it)"};
  if (b.pendingLanes[warp] == 0)
    b.instruction[warp] = what;
  else if (!sameInstruction(b.instruction[warp], what))
    return Error{"lanes of warp " + std::to_string(warp) + " arrived at barrier " +
                 std::to_string(id) + " from different instructions: lanes " +
                 laneRanges(b.pendingLanes[warp]) + " at " + quoted(b.instruction[warp]) +
                 ", lane " + std::to_string(lane) + " at " + quoted(what) +
                 " (bar is .aligned: all lanes of a warp must execute the same one)"};
  b.pendingLanes[warp] |= bit;
  settleWarp(b, warp);
  if (!isComplete(b))
    return false;
  b = Barrier{};
  return true;
}

uint32_t NamedBarriers::recheck() {
  uint32_t completed = 0;
  for (uint32_t id = 0; id < kCount; ++id) {
    Barrier &b = barriers[id];
    if (!b.active)
      continue;
    for (uint32_t warp = 0; warp < live.size(); ++warp)
      if (b.pendingLanes[warp])
        settleWarp(b, warp);
    if (isComplete(b)) {
      b = Barrier{};
      completed |= 1u << id;
    }
  }
  return completed;
}

void NamedBarriers::settleWarp(Barrier &b, uint32_t warp) {
  if (live[warp] & ~b.pendingLanes[warp])
    return;
  b.pendingLanes[warp] = 0;
  b.arrivedWarps |= 1u << warp;
  ++b.warpArrivals;
}

std::string NamedBarriers::progressText(const Barrier &b) {
  if (!b.warpArrivals)
    return "no warp has arrived";
  std::string warps;
  for (uint32_t warp = 0; warp < 32; ++warp)
    if (b.arrivedWarps >> warp & 1)
      warps += (warps.empty() ? "" : ",") + std::to_string(warp);
  return std::to_string(b.warpArrivals) + " warp arrivals (warps " + warps + ")";
}

bool NamedBarriers::isComplete(const Barrier &b) const {
  if (b.count)
    return b.warpArrivals * 32 >= b.count;
  uint32_t liveWarps = 0;
  for (uint32_t lanes : live)
    liveWarps += lanes != 0;
  return b.warpArrivals >= liveWarps;
}

std::string NamedBarriers::describe(uint32_t id) const {
  const Barrier &b = barriers[id];
  std::string text = "barrier " + std::to_string(id) + " (expects " +
                     (b.count ? std::to_string(b.count) + " threads" : std::string("all threads")) +
                     "): ";
  text += progressText(b);
  for (uint32_t warp = 0; warp < live.size(); ++warp)
    if (b.pendingLanes[warp])
      text += "; warp " + std::to_string(warp) + " lanes " + laneRanges(b.pendingLanes[warp]) +
              " arrived, lanes " + laneRanges(live[warp] & ~b.pendingLanes[warp]) + " not yet";
  return text;
}

} // namespace cutec::rt
