// Which wgmma retirements each thread of the CTA is ordered after, so that a
// shared buffer released before the wait_group that retires its readers is
// reported whatever the emulator's schedule (docs/emulator.md, "Warpgroup
// MMA", "Asynchrony").
//
// A wgmma.mma_async may read its shared operands until the wgmma.wait_group
// that retires it. A write to those bytes by another thread is safe only if
// that wait happens before it: the waiting warpgroup, then an mbarrier
// arrival (or a bar.sync) that the writer observes. The emulator performs
// the wait at a fixed point; when a consumer arrives on the "empty" mbarrier
// before its wait, the wait may still come before the producer's refill in
// the emulator's order, yet on the GPU the refill can overtake it.
//
// So each thread knows, per warpgroup, the latest wgmma.mma_async whose
// retirement is ordered before it: a warpgroup's own threads know its
// retirements; an mbarrier arrival carries the arriving thread's knowledge
// to the mbarrier, and a try_wait that succeeds passes the mbarrier's to the
// waiter; a bar.sync merges its participants'. A write to a unit whose
// latest reader of some warpgroup is retired but not known to the writer is
// reported. The mbarrier keeps what all its arrivals carried, not per phase:
// that can hide a bug, never invent one. Kernels without wgmma keep nothing.
#include "runtime/engine/CtaRunner.h"

#include "runtime/base/DiagnosticText.h"
#include "hardware/ThreadHierarchy.h"

#include <algorithm>

namespace cutec::rt {
uint64_t CtaRunner::wgmmaRetiredKnownBy(const Thread &t, uint32_t g) const {
  if (t.warpid / hw::kWarpsPerWarpgroup == g)
    return warpgroups[g].retired;
  return wgmmaKnown[t.index * warpgroups.size() + g];
}

void CtaRunner::carryWgmmaKnowledge(const Thread &t, std::vector<uint64_t> &into) const {
  into.resize(warpgroups.size());
  for (uint32_t g = 0; g < warpgroups.size(); ++g)
    into[g] = std::max(into[g], wgmmaRetiredKnownBy(t, g));
}

void CtaRunner::learnWgmmaKnowledge(const Thread &t, const std::vector<uint64_t> &from) {
  uint64_t *known = &wgmmaKnown[t.index * warpgroups.size()];
  for (uint32_t g = 0; g < from.size(); ++g)
    known[g] = std::max(known[g], from[g]);
}

void CtaRunner::wgmmaOrderArrive(const Thread &t, uint32_t bar) {
  if (!wgmmaKnown.empty())
    carryWgmmaKnowledge(t, wgmmaReleased[bar]);
}

void CtaRunner::wgmmaOrderWaited(const Thread &t, uint32_t bar) {
  if (wgmmaKnown.empty())
    return;
  if (auto it = wgmmaReleased.find(bar); it != wgmmaReleased.end())
    learnWgmmaKnowledge(t, it->second);
}

void CtaRunner::wgmmaOrderBarrier(const Thread &t, uint32_t id, bool completed) {
  if (wgmmaKnown.empty())
    return;
  std::vector<uint64_t> &phase = wgmmaBarrierKnown[id];
  carryWgmmaKnowledge(t, phase);
  if (!completed)
    return;
  for (const Thread &waiter : threads)
    if (slots[waiter.index].state == State::AtBarrier && slots[waiter.index].barrierId == id)
      learnWgmmaKnowledge(waiter, phase);
  phase.clear();
}

void CtaRunner::noteWgmmaLastReaders(uint32_t g, const WgmmaRead &r) {
  if (wgmmaKnown.empty()) {
    wgmmaKnown.assign(threads.size() * warpgroups.size(), 0);
    wgmmaLastReader.assign(sharedUnits() * warpgroups.size(), {});
  }
  for (uint32_t unit : r.units)
    wgmmaLastReader[unit * warpgroups.size() + g] = {r.serial, r.what};
}

void CtaRunner::resetWgmmaOrder() {
  wgmmaKnown.clear();
  wgmmaLastReader.clear();
  wgmmaReleased.clear();
  for (auto &phase : wgmmaBarrierKnown)
    phase.clear();
}

const CtaRunner::WgmmaLastReader *
CtaRunner::unorderedWgmmaReader(const Thread &t, uint32_t offset, uint32_t width,
                                uint32_t &warpgroup) const {
  if (wgmmaKnown.empty() || t.cta != this) // another CTA's thread: not tracked
    return nullptr;
  for (uint32_t unit = offset / 16; unit <= (offset + width - 1) / 16; ++unit)
    for (warpgroup = 0; warpgroup < warpgroups.size(); ++warpgroup) {
      const WgmmaLastReader &r = wgmmaLastReader[unit * warpgroups.size() + warpgroup];
      if (r.serial > wgmmaRetiredKnownBy(t, warpgroup))
        return &r;
    }
  return nullptr;
}

std::string CtaRunner::unorderedWgmmaText(uint32_t warpgroup, const WgmmaLastReader &r) const {
  return "'" + std::string(r.what ? r.what : "?") + "' (issued by warpgroup " +
         std::to_string(warpgroup) + rankText() +
         ") read as an operand: a wgmma.wait_group of that warpgroup has retired it since, but "
         "no mbarrier arrival or bar.sync after that wait orders it before this write, so on "
         "the GPU the wgmma may still be reading (the buffer was released before the "
         "wgmma.wait_group that retires its readers)";
}

} // namespace cutec::rt
