// The text of a deadlock report: for every warp, which lanes wait where
// (grouped), then the state of each barrier someone waits at, so that a
// reader sees both who is stuck and what the barrier still lacks.
#include "runtime/engine/CtaRunner.h"

#include "runtime/base/DiagnosticText.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace cutec::rt {

std::string CtaRunner::deadlockReport(const std::string &why) const {
  std::string text = ctaName() + ": deadlock: " + why;
  uint32_t waitedBarriers = 0;
  std::vector<uint32_t> polledMbarriers;
  for (uint32_t w = 0; w < warps.size(); ++w) {
    // Lanes in the same state at the same place form one line.
    struct Group {
      State state;
      uint8_t barrierId;
      bool pollsMbarrier;
      uint8_t parity;
      uint32_t mbarrier;
      const char *what;
      uint32_t lanes;
    };
    std::vector<Group> groups;
    for (uint32_t lane = 0; lane < 32; ++lane) {
      if (!(warps[w].lanes >> lane & 1))
        continue;
      const Slot &s = slots[w * 32 + lane];
      auto same = [&](const Group &g) {
        bool sameMbarrier = g.pollsMbarrier == s.pollsMbarrier &&
                            (!s.pollsMbarrier ||
                             (g.mbarrier == s.mbarrier && g.parity == s.mbarrierParity));
        return g.state == s.state && g.barrierId == s.barrierId && sameMbarrier &&
               (g.what == s.what || (g.what && s.what && std::strcmp(g.what, s.what) == 0));
      };
      auto it = std::find_if(groups.begin(), groups.end(), same);
      if (it == groups.end())
        groups.push_back({s.state, s.barrierId, s.pollsMbarrier, s.mbarrierParity, s.mbarrier,
                          s.what, 1u << lane});
      else
        it->lanes |= 1u << lane;
    }
    for (const Group &g : groups) {
      text += "\n  warp " + std::to_string(w) + " lanes " + laneRanges(g.lanes) + ": ";
      std::string what = g.what ? " '" + std::string(g.what) + "'" : "";
      switch (g.state) {
      case State::AtBarrier:
        text += "wait at barrier " + std::to_string(g.barrierId) + what;
        waitedBarriers |= 1u << g.barrierId;
        break;
      case State::AtBarrierArrival:
        text += "wait for the rest of the warp at barrier " + std::to_string(g.barrierId) + what;
        waitedBarriers |= 1u << g.barrierId;
        break;
      case State::AtWarpSync: {
        const Warp &warp = warps[w];
        text += "wait at warp-collective" + what + " (membermask " + hex(warp.memberMask) + ")";
        if (uint32_t gone = warp.memberMask & ~liveLanes[w])
          text += "; lanes " + laneRanges(gone) + " of its membermask exited";
        break;
      }
      case State::AtRegisters:
        text += "wait for registers at" + what;
        break;
      case State::AtWarpgroup:
        text += "wait for the rest of the warpgroup at" + what + " (" + warpgroupText(w / 4) + ")";
        break;
      case State::Polling:
        if (g.pollsMbarrier) {
          text += "wait on mbarrier " + sharedNames.label(g.mbarrier) + " for the phase with parity " +
                  std::to_string(g.parity) + what;
          if (std::find(polledMbarriers.begin(), polledMbarriers.end(), g.mbarrier) ==
              polledMbarriers.end())
            polledMbarriers.push_back(g.mbarrier);
        } else {
          text += "poll" + what;
        }
        break;
      case State::Exited:
        text += "exited";
        break;
      case State::Runnable:
        text += "runnable";
        break;
      }
    }
  }
  for (uint32_t id = 0; id < NamedBarriers::kCount; ++id)
    if (waitedBarriers >> id & 1)
      text += "\n  " + barriers.describe(id);
  if (registers.busy())
    text += "\n  " + registers.describe();
  for (uint32_t address : polledMbarriers)
    text += "\n  " + mbarriers.describe(address);
  for (const AsyncCopy &c : asyncCopies)
    text += "\n  " + std::string(writerName(c.writer)) + " in flight: " + copyText(c);
  for (const TensorMemory::PendingWrite &p : tmem.pendingWrites())
    text += "\n  tcgen05 operation not yet seen complete: " + tcgen05WriteText(p);
  return text;
}

} // namespace cutec::rt
