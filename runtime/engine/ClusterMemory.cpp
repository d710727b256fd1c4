// Distributed shared memory and cluster synchronisation: .shared::cluster
// addresses (mapa, ld/st.shared::cluster, remote mbarrier arrivals), the
// cluster barrier, and TMA loads that complete on the pair peer's mbarrier.
#include "runtime/engine/Cluster.h"

#include "runtime/base/DiagnosticText.h"

namespace cutec::rt {

CtaRunner &CtaRunner::resolveCluster(Thread &t, uint32_t address, uint32_t &local,
                                     const char *what) {
  if (address < kClusterWindowStride) { // t's own CTA's window
    local = address;
    return *t.cta;
  }
  uint32_t target = address / kClusterWindowStride - 1;
  local = address % kClusterWindowStride;
  if (target >= cluster.size())
    fail(t, what, [&] {
      return ".shared::cluster address " + hex(address) + " names CTA rank " +
             std::to_string(target) + ", but the cluster has " + std::to_string(cluster.size()) +
             " CTA(s) (ranks 0-" + std::to_string(cluster.size() - 1) + ")";
    });
  CtaRunner &owner = cluster.member(target);
  if (&owner != t.cta && owner.liveThreads == 0 && launch.kernel.usesBarriers)
    fail(t, what, [&] {
      return ".shared::cluster address " + hex(address) + " is in the shared memory of CTA " +
             dim3Text(owner.ctaid) + " (rank " + std::to_string(target) +
             "), whose threads have all exited: its shared memory is gone";
    });
  return owner;
}

std::byte *CtaRunner::clusterSharedPointer(Thread &t, uint32_t address, uint32_t width, bool store,
                                           const char *what) {
  uint32_t local = 0;
  CtaRunner &owner = resolveCluster(t, address, local, what);
  if (&owner == t.cta)
    return t.sharedPointer(local, width, store, what);
  uint32_t offset = local - kSharedWindowBase;
  if ((local & (width - 1)) != 0 || local < kSharedWindowBase || width > owner.shared.size() ||
      offset > owner.shared.size() - width)
    fail(t, what, [&] {
      return std::string(local % width ? "misaligned " : "out-of-bounds ") + std::to_string(width) +
             "-byte .shared::cluster " + (store ? "store" : "load") + " at " + hex(address) +
             ": offset " + hex(local) + " in CTA rank " + std::to_string(owner.rank) +
             ", whose shared memory is [" + hex(kSharedWindowBase) + ", " +
             hex(kSharedWindowBase + owner.shared.size()) + ")";
    });
  if (owner.pendingAsync != 0)
    owner.checkPendingAsync(t, local, width, store, what);
  if (store)
    owner.genericWrites.note(offset, width, {what, clusterThreadId(t), t.asyncProxyFences});
  return owner.shared.data() + offset;
}

uint64_t CtaRunner::mbarrierArriveCluster(Thread &t, uint32_t bar, const char *what,
                                          bool releaseCluster) {
  uint32_t local = 0;
  CtaRunner &owner = resolveCluster(t, bar, local, what);
  clusterSharedPointer(t, bar, 8, /*store=*/true, what);
  uint64_t token = 0;
  if (&owner != this) {
    // Another CTA's mbarrier: the arrival reaches it when the schedule says;
    // the race detector takes the issuer's clock now, if the arrival
    // releases at cluster scope.
    if (releaseCluster)
      raceMbarrierArrive(t, owner, local);
    cluster.sendArrival(t, {&owner, local, &t, what, {}});
    ++t.effects;
    return token;
  }
  failIf(t, what, owner.mbarriers.arrive(local, 0, token));
  wgmmaOrderArrive(t, local);
  raceMbarrierArrive(t, owner, local);
  ++t.effects;
  return token;
}

void CtaRunner::tmaLoadTilePair(Thread &t, uint32_t dst, uint64_t tensorMap, const int32_t *coords,
                                uint32_t rank, uint32_t bar, const char *what) {
  uint32_t local = 0;
  CtaRunner &barCta = resolveCluster(t, bar, local, what);
  if (&barCta != this && &barCta != &pairPeer(t, "a .cta_group::2 TMA load", what))
    fail(t, what, [&] {
      return "the mbarrier " + hex(bar) + " of a .cta_group::2 TMA load is in CTA rank " +
             std::to_string(barCta.rank) + ", which is neither this CTA (rank " +
             std::to_string(this->rank) + ") nor its peer (rank " + std::to_string(this->rank ^ 1) +
             ")";
    });
  clusterSharedPointer(t, bar, 8, /*store=*/false, what);
  tmaLoadTileTo(t, dst, tensorMap, coords, rank, barCta, local, what);
}

void CtaRunner::tmaLoadTileMulticast(Thread &t, uint32_t dst, uint64_t tensorMap,
                                     const int32_t *coords, uint32_t rank, uint32_t bar,
                                     uint16_t ctaMask, bool pair, const char *what) {
  if (ctaMask == 0 || ctaMask >> cluster.size())
    fail(t, what, [&] {
      return "TMA multicast mask " + hex(ctaMask) + " must name CTAs of the cluster (ranks 0-" +
             std::to_string(cluster.size() - 1) + ")";
    });
  if (pair)
    pairPeer(t, "a .cta_group::2 TMA load", what);
  // Only the CTA-relative offsets of dst and bar matter: the box lands at dst
  // in every CTA of the mask, and each copy completes on the mbarrier at bar
  // in its own CTA or, with .cta_group::2, in the even CTA of its pair.
  uint32_t dstLocal = 0, barLocal = 0;
  resolveCluster(t, dst, dstLocal, what);
  resolveCluster(t, bar, barLocal, what);
  for (uint32_t r = 0; r < cluster.size(); ++r) {
    if (!(ctaMask >> r & 1))
      continue;
    CtaRunner &target = cluster.member(r);
    if (pair)
      target.pairPeer(t, "a .cta_group::2 TMA load", what);
    CtaRunner &barCta = cluster.member(pair ? r & ~1u : r);
    clusterSharedPointer(t, cluster.clusterAddress(barCta, barLocal), 8, /*store=*/false, what);
    target.tmaLoadTileTo(t, dstLocal, tensorMap, coords, rank, barCta, barLocal, what);
  }
}

CtaRunner &CtaRunner::pairPeer(Thread &t, const char *instruction, const char *what) {
  if ((rank ^ 1) >= cluster.size())
    fail(t, what, [&] {
      return std::string(instruction) +
             " needs a pair of CTAs (ranks 2i and 2i+1 of a cluster), "
             "but CTA rank " +
             std::to_string(rank) + "'s cluster " + dim3Text(cluster.dims()) + " has no rank " +
             std::to_string(rank ^ 1);
    });
  return cluster.member(rank ^ 1);
}

// Thread's entry points.

uint32_t Thread::mapaShared(uint32_t address, uint32_t rank, const char *what) {
  uint32_t local = 0;
  cta->resolveCluster(*this, address, local, what);
  if (rank >= cluster_nctarank)
    failWith(what, [&] {
      return "mapa to CTA rank " + std::to_string(rank) + ", but the cluster has " +
             std::to_string(cluster_nctarank) + " CTA(s)";
    });
  return (rank + 1) * kClusterWindowStride + local;
}

std::byte *Thread::clusterSharedPointer(uint32_t address, uint32_t width, bool store,
                                        const char *what) {
  return cta->clusterSharedPointer(*this, address, width, store, what);
}

void Thread::mbarrierArriveCluster(uint32_t bar, const char *what, bool releaseCluster) {
  cta->mbarrierArriveCluster(*this, bar, what, releaseCluster);
  cta->schedulingPoint(*this);
}

void Thread::clusterArrive(const char *what, bool release) {
  cta->clusterRunner().clusterArrive(*this, what, release);
  cta->schedulingPoint(*this);
}

void Thread::clusterWait(const char *what) {
  while (!cta->clusterRunner().clusterWaitDone(*this, what))
    yieldThread(what);
}

void Thread::tmaLoadTilePair(uint32_t dst, uint64_t tensorMap, const int32_t *coords, uint32_t rank,
                             uint32_t bar, const char *what) {
  cta->tmaLoadTilePair(*this, dst, tensorMap, coords, rank, bar, what);
  cta->schedulingPoint(*this);
}

void Thread::tmaLoadTileMulticast(uint32_t dst, uint64_t tensorMap, const int32_t *coords,
                                  uint32_t rank, uint32_t bar, uint16_t ctaMask, bool pair,
                                  const char *what) {
  cta->tmaLoadTileMulticast(*this, dst, tensorMap, coords, rank, bar, ctaMask, pair, what);
  cta->schedulingPoint(*this);
}

} // namespace cutec::rt
