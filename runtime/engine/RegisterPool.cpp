// setmaxnreg's register pool and warpgroup rounds.
#include "runtime/engine/RegisterPool.h"

#include "runtime/base/DiagnosticText.h"
#include "hardware/ThreadHierarchy.h"

#include <algorithm>

namespace cutec::rt {

void RegisterPool::reset(uint32_t warpCount, uint32_t registersPerThread) {
  warps.assign(warpCount, Warp{registersPerThread, 0, nullptr});
  rounds.assign((warpCount + hw::kWarpsPerWarpgroup - 1) / hw::kWarpsPerWarpgroup, Round{});
  pool = 0;
}

uint32_t RegisterPool::warpgroupMembers(uint32_t g) const {
  uint32_t present = std::min<uint32_t>(hw::kWarpsPerWarpgroup, uint32_t(warps.size()) - g * 4);
  return (1u << present) - 1;
}

std::string RegisterPool::warpsText(uint32_t g, uint32_t bits) {
  std::string list;
  for (uint32_t i = 0; i < hw::kWarpsPerWarpgroup; ++i)
    if (bits >> i & 1)
      list += (list.empty() ? "" : ",") + std::to_string(g * hw::kWarpsPerWarpgroup + i);
  return (bits & (bits - 1) ? "warps " : "warp ") + list;
}

std::string RegisterPool::instructionText(const char *what, bool inc, uint32_t count) {
  return "'" + std::string(what ? what : "setmaxnreg") + "' (" + (inc ? ".inc" : ".dec") +
         " to " + std::to_string(count) + ")";
}

std::string RegisterPool::execute(uint32_t warp, bool inc, uint32_t count, const char *what) {
  uint32_t g = warp / hw::kWarpsPerWarpgroup, bit = 1u << warp % hw::kWarpsPerWarpgroup;
  Round &round = rounds[g];
  std::string mine = instructionText(what, inc, count);
  if (round.executed & bit)
    return "warp " + std::to_string(warp) + " executed " + mine + " before " +
           warpsText(g, warpgroupMembers(g) & ~round.executed) + " of its warpgroup executed " +
           instructionText(round.what, round.inc, round.count) +
           ": the warps of a warpgroup synchronise between setmaxnreg instructions";
  if (round.executed &&
      (!sameInstruction(round.what, what) || round.inc != inc || round.count != count))
    return "warp " + std::to_string(warp) + " executed " + mine + ", but " +
           warpsText(g, round.executed) + " of its warpgroup executed " +
           instructionText(round.what, round.inc, round.count) +
           ": all warps of a warpgroup execute the same setmaxnreg";
  Warp &w = warps[warp];
  if (w.count == 0)
    return "the kernel descriptor gives no registersPerThread (the PTX .maxnreg) for "
           "setmaxnreg to start from";
  if (inc ? count < w.count : count > w.count)
    return "warp " + std::to_string(warp) + " executed " + mine + " with " +
           std::to_string(w.count) + " registers per thread: ." + (inc ? "inc" : "dec") +
           " must not " + (inc ? "lower" : "raise") + " the count";
  if (!round.executed)
    round = Round{what, inc, count, 0};
  round.executed |= bit;
  if (round.executed == warpgroupMembers(g))
    round = Round{};
  if (inc) {
    w.requested = count;
    w.requestWhat = what;
  } else {
    pool += uint64_t(w.count - count) * 32;
    w.count = count;
  }
  return {};
}

bool RegisterPool::grant(uint32_t warp) {
  Warp &w = warps[warp];
  if (!w.requested)
    return true;
  uint64_t need = uint64_t(w.requested - w.count) * 32;
  if (pool < need)
    return false;
  pool -= need;
  w.count = w.requested;
  w.requested = 0;
  return true;
}

std::string RegisterPool::unfinishedRounds() const {
  std::string text;
  for (uint32_t g = 0; g < rounds.size(); ++g)
    if (const Round &r = rounds[g]; r.executed)
      text += (text.empty() ? "" : "; ") + warpsText(g, r.executed) + " of warpgroup " +
              std::to_string(g) + " executed " + instructionText(r.what, r.inc, r.count) + ", " +
              warpsText(g, warpgroupMembers(g) & ~r.executed) + " never did";
  return text.empty() ? text : text + ": setmaxnreg must be executed by all warps of a warpgroup";
}

bool RegisterPool::busy() const {
  return std::any_of(warps.begin(), warps.end(), [](const Warp &w) { return w.requested; }) ||
         std::any_of(rounds.begin(), rounds.end(), [](const Round &r) { return r.executed; });
}

std::string RegisterPool::describe() const {
  std::string text = "register pool: " + std::to_string(pool) + " registers free";
  // Warps waiting for the same: one entry.
  std::vector<bool> told(warps.size());
  for (uint32_t i = 0; i < warps.size(); ++i) {
    const Warp &w = warps[i];
    if (!w.requested || told[i])
      continue;
    uint32_t same = 0;
    for (uint32_t j = i; j < warps.size(); ++j)
      if (warps[j].requested == w.requested && warps[j].count == w.count &&
          sameInstruction(warps[j].requestWhat, w.requestWhat)) {
        same |= 1u << j;
        told[j] = true;
      }
    text += "; " + std::string(same & (same - 1) ? "warps " : "warp ") + laneRanges(same) +
            " wait at " + instructionText(w.requestWhat, true, w.requested) + " for " +
            std::to_string(uint64_t(w.requested - w.count) * 32) + " registers each (" +
            std::to_string(w.count) + " per thread now)";
  }
  for (uint32_t g = 0; g < rounds.size(); ++g)
    if (const Round &r = rounds[g]; r.executed)
      text += "; warpgroup " + std::to_string(g) + ": " + warpsText(g, r.executed) +
              " executed " + instructionText(r.what, r.inc, r.count) + ", " +
              warpsText(g, warpgroupMembers(g) & ~r.executed) + " not yet";
  return text;
}

} // namespace cutec::rt
