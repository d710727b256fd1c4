// The data-race detector's part in a CTA (docs/emulator.md, "Data races"):
// the checks of plain shared and global accesses against their locations'
// race cells (RaceCell.h), and the synchronisation edges the CTA's barriers,
// warp collectives and mbarriers add to the cluster's vector clocks
// (RaceClocks.h; barrier.cluster's are in Cluster.cpp).
#include "runtime/engine/CtaRunner.h"

#include "runtime/engine/Cluster.h"
#include "runtime/base/DiagnosticText.h"

#include <cstring>

namespace cutec::rt {
namespace {

/// How the messages speak of an access of each kind.
struct AccessWords {
  const char *verb; // "... reads shared byte 0x400"
  const char *noun; // "this 4-byte shared load"
  const char *now;  // "... orders this read after that write"
};

const AccessWords &wordsOf(RaceAccess access) {
  static const AccessWords kRead{"reads", "load", "this read"};
  static const AccessWords kWrite{"writes", "store", "this write"};
  static const AccessWords kAtomic{"updates atomically", "atomic", "this atomic"};
  return access == RaceAccess::Read ? kRead : access == RaceAccess::Write ? kWrite : kAtomic;
}

const char *verb(RaceAccess access) { return wordsOf(access).verb; }

std::string accessName(uint32_t width, const char *space, RaceAccess access) {
  return "this " + std::to_string(width) + "-byte " + space + " " + wordsOf(access).noun;
}

} // namespace

std::string CtaRunner::raceThreadText(const Thread &t, uint32_t thread,
                                      uint64_t clusterIndex) const {
  const RaceClocks &clocks = cluster.raceClocks();
  uint32_t id = clocks.clusterThreadId(thread);
  if (clusterIndex == cta)
    return issuerText(id, /*alwaysNameCta=*/id >> 10 != t.cluster_ctarank);
  const Dim3 &block = launch.config.block;
  Dim3 origin = cluster.firstCtaOf(clusterIndex);
  Dim3 local = unflatten(id >> 10, cluster.dims());
  Dim3 ctaOf{origin.x + local.x, origin.y + local.y, origin.z + local.z};
  uint32_t index = id & 1023;
  return "thread " + dim3Text(unflatten(index, block)) + ", warp " + std::to_string(index / 32) +
         " lane " + std::to_string(index % 32) + " of CTA " + dim3Text(ctaOf);
}

template <typename Describe>
void CtaRunner::failRace(Thread &t, const char *what, RaceAccess kind, const RacePrior &prior,
                         bool crossCluster, uint64_t priorCluster, Describe &&access) {
  fail(t, what, [&] {
    std::string earlier = prior.write ? (prior.atomic ? "updated atomically" : "wrote") : "read";
    std::string before = prior.write ? (prior.atomic ? "that atomic" : "that write") : "that read";
    std::string now = wordsOf(kind).now;
    uint64_t priorCta = crossCluster ? priorCluster : cta;
    std::string who;
    if (crossCluster && (prior.readSet || priorCluster == UINT64_MAX))
      who = priorCluster == UINT64_MAX
                ? "threads of several CTAs"
                : "threads of CTA " + dim3Text(cluster.firstCtaOf(priorCluster));
    else if (prior.readSet)
      who = "several threads, among them " + raceThreadText(t, prior.thread, priorCta) + ",";
    else
      who = raceThreadText(t, prior.thread, priorCta);
    std::string text = "data race: " + access() + ", which " + who + " " + earlier + " with '" +
                       std::string(prior.what ? prior.what : "?") + "'";
    if (crossCluster && (prior.readSet || priorCluster == UINT64_MAX))
      text += " (the latest)";
    if (crossCluster)
      return text + ": CTAs that are not in one cluster are never ordered within a launch, so " +
             now + " and " + before +
             " race (only atomics may share a location between CTAs; or split the work into "
             "two launches)";
    return text + ", and no bar.sync, mbarrier wait, warp collective or barrier.cluster orders " +
           now + " after " + before + " (on the GPU they may happen in either order)";
  });
}

void Thread::raceShared(uint32_t address, uint32_t width, RaceAccess access, const void *value,
                        const char *what) {
  cta->checkSharedRace(*this, address, width, access, value, what);
}

void Thread::raceSharedCluster(uint32_t address, uint32_t width, RaceAccess access,
                               const void *value, const char *what) {
  uint32_t local = 0;
  CtaRunner &owner = cta->resolveCluster(*this, address, local, what);
  owner.checkSharedRace(*this, local, width, access, value, what);
}

void Thread::raceGlobal(uint64_t address, uint32_t width, RaceAccess access, const void *value,
                        const char *what) {
  cta->checkGlobalRace(*this, address, width, access, value, what);
}

void CtaRunner::checkSharedRace(Thread &t, uint32_t local, uint32_t width, RaceAccess access,
                                const void *value, const char *what) {
  RaceClocks &clocks = cluster.raceClocks();
  uint32_t offset = local - kSharedWindowBase;
  for (uint32_t b = 0; b < width; ++b) {
    bool same = value && static_cast<const std::byte *>(value)[b] == shared[offset + b];
    std::optional<RacePrior> prior =
        checkRace(genericWrites.cell(offset + b), clocks, t.raceThread, access, what, same);
    if (!prior)
      continue;
    failRace(t, what, access, *prior, false, 0, [&] {
      return accessName(width, "shared", access) + " at " + sharedNames.label(local) + rankText() +
             " " + verb(access) + " shared byte " + hex(local + b);
    });
  }
}

void CtaRunner::checkGlobalRace(Thread &t, uint64_t address, uint32_t width, RaceAccess access,
                                const void *value, const char *what) {
  const MemoryMap::Buffer *buffer = nullptr;
  RaceCell *cells = launch.globalAccesses->cells(address, width, buffer);
  uint64_t offset = address - buffer->base;
  RaceClocks &clocks = cluster.raceClocks();
  for (uint32_t b = 0; b < width; ++b) {
    RaceCell &cell = cells[offset + b];
    bool check = false;
    uint64_t other = 0;
    std::optional<RacePrior> prior;
    bool crossCluster = false;
    {
      std::lock_guard lock(launch.globalAccesses->lockOf(cell));
      prior = claimGlobalCell(cell, cta, access, check, other);
      crossCluster = prior.has_value();
      if (check) {
        bool same = value && static_cast<const std::byte *>(value)[b] ==
                                 reinterpret_cast<const std::byte *>(address)[b];
        prior = checkRace(cell, clocks, t.raceThread, access, what, same);
      }
    }
    if (!prior)
      continue;
    failRace(t, what, access, *prior, crossCluster, other, [&] {
      return accessName(width, "global", access) + " at " + hex(address) + " " + verb(access) +
             " byte " + std::to_string(offset + b) + " of buffer '" + buffer->name + "'";
    });
  }
}

void CtaRunner::raceMbarrierArrive(const Thread &t, const CtaRunner &owner, uint32_t bar) {
  if (t.raceClocks)
    t.raceClocks->release(t.raceThread, t.raceClocks->mbarrier(owner.rank, bar));
}

void CtaRunner::raceMbarrierWaited(const Thread &t, uint32_t bar) {
  if (t.raceClocks)
    t.raceClocks->acquire(t.raceThread, t.raceClocks->mbarrier(rank, bar));
}

void CtaRunner::raceBarrierArrive(const Thread &t, uint32_t id) {
  t.raceClocks->release(t.raceThread, t.raceClocks->namedBarrier(rank, id));
}

void CtaRunner::raceBarriersCompleted(uint32_t ids) {
  RaceClocks &clocks = cluster.raceClocks();
  for (uint32_t id = 0; id < NamedBarriers::kCount; ++id) {
    if (!(ids >> id & 1))
      continue;
    VectorClock &phase = clocks.namedBarrier(rank, id);
    for (const Thread &waiter : threads)
      if (slots[waiter.index].state == State::AtBarrier && slots[waiter.index].barrierId == id)
        clocks.acquire(waiter.raceThread, phase);
    phase.clear();
  }
}

void CtaRunner::raceWarpMeet(uint32_t warp, uint32_t mask) {
  uint32_t members[32];
  uint32_t count = 0;
  for (uint32_t lane = 0; lane < 32; ++lane)
    if (mask >> lane & 1)
      members[count++] = threads[warp * 32 + lane].raceThread;
  cluster.raceClocks().meet({members, count});
}

void CtaRunner::raceWarpTick(uint32_t warp, uint32_t mask) {
  for (uint32_t lane = 0; lane < 32; ++lane)
    if (mask >> lane & 1)
      cluster.raceClocks().tick(threads[warp * 32 + lane].raceThread);
}

} // namespace cutec::rt
