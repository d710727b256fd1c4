// Thread block clusters: the CTAs of one cluster run together on one worker,
// their threads interleaved as fibers, so that a thread may wait for another
// CTA of its cluster (barrier.cluster, an mbarrier a peer's TMA load or
// tcgen05.commit completes, a cta_group::2 collective). A launch without
// clusters runs clusters of one CTA.
//
// Scheduling: each round runs every member CTA's round (CtaRunner::runRound)
// in rank order (in the schedule's order, runtime/engine/Schedule.h). The cluster ends when all its threads have exited; a
// deadlock is declared, with every member's report, when no thread of the
// cluster can run, or only polling threads run and nothing changes for
// LaunchConfig::pollRoundLimit rounds. The first error of any member stops
// the whole cluster.
//
// Distributed shared memory: a .shared::cta window address (kSharedWindowBase
// ..) is also the .shared::cluster address of the executing CTA's own byte.
// The byte at .shared::cta address `a` of the CTA with rank r has the
// .shared::cluster address (r + 1) * kClusterWindowStride + a, which is what
// mapa returns; the own rank's form of it names the same byte as `a`.
#pragma once

#include "runtime/engine/CtaRunner.h"
#include "runtime/engine/LaunchState.h"
#include "runtime/engine/Schedule.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cutec::rt {

/// The .shared::cluster window of rank r starts at (r + 1) * this.
inline constexpr uint32_t kClusterWindowStride = 1u << 24;
/// At most 16 CTAs form a cluster (8 is the portable size).
inline constexpr uint32_t kMaxClusterCtas = 16;

/// The coordinates of linear index `index` in `extent`, x fastest (threads
/// in a block, CTAs in a cluster, clusters in a grid).
inline Dim3 unflatten(uint64_t index, const Dim3 &extent) {
  return {uint32_t(index % extent.x), uint32_t(index / extent.x % extent.y),
          uint32_t(index / (uint64_t(extent.x) * extent.y))};
}

class ClusterRunner {
public:
  explicit ClusterRunner(LaunchState &launch);

  /// Allocates the member CTAs' threads, stacks and shared memory.
  Status prepare();
  /// Runs the cluster with linear index `index` in slot `slot`
  /// (runtime/engine/ClusterLaunchControl.h) to its end.
  void run(uint64_t index, uint64_t slot);
  /// The ctaid of the first CTA (rank 0) of the cluster with linear index
  /// `index`.
  Dim3 firstCtaOf(uint64_t index) const;
  /// clusterlaunchcontrol.try_cancel: takes the next cluster of this one's
  /// slot that has not started, so that it never runs; none if none is left.
  std::optional<uint64_t> cancelPending() { return launch.pending.take(slot); }

  const Dim3 &dims() const { return clusterDims; }
  uint32_t size() const { return uint32_t(members.size()); }
  CtaRunner &member(uint32_t rank) { return *members[rank]; }
  const CtaRunner &member(uint32_t rank) const { return *members[rank]; }

  /// The CTA whose thread runs now.
  CtaRunner &running() { return *runningCta; }
  /// The choices of the launch's schedule for this cluster.
  Schedule &schedule() { return choices; }
  void setRunning(CtaRunner *cta) { runningCta = cta; }
  bool anyFailed() const;
  /// Thread `t` exited: a cluster barrier may now be complete.
  void threadExited(const Thread &t);
  /// The .shared::cluster address of `owner`'s byte at `local` in a cluster
  /// of several CTAs, else `local` (how the tcgen05 bookkeeping names
  /// mbarriers, so that one cluster-wide name means one mbarrier).
  uint32_t clusterAddress(const CtaRunner &owner, uint32_t local) const {
    return members.size() > 1 ? (owner.clusterRank() + 1) * kClusterWindowStride + local : local;
  }
  /// The vector clocks of the cluster's threads for the race detector.
  RaceClocks &raceClocks() { return clocks; }

  /// The serial of the next TMA load of the cluster (from 1, in issue order).
  uint32_t nextCopySerial() { return ++copySerials; }

  // barrier.cluster.arrive / barrier.cluster.wait: every non-exited thread of
  // the cluster arrives, then waits for the others. A relaxed arrival
  // (`release` false) releases none of the thread's writes.
  void clusterArrive(Thread &t, const char *what, bool release);
  /// Whether the phase `t` arrived in has completed; fails `t` if it has not
  /// arrived.
  bool clusterWaitDone(Thread &t, const char *what);

  // Asynchronous mbarrier arrivals (runtime/engine/AsyncArrivals.cpp): a
  // tcgen05.commit's arrival in each CTA it names, and a remote
  // mbarrier.arrive. The fixed schedule delivers each at once; another may
  // leave it in flight and deliver it later.
  /// What a tcgen05.commit tracks in one CTA's TMEM: the issuer's pending
  /// writes up to serial `through` (issued before the commit).
  struct CommitTracks {
    CtaRunner *cta = nullptr;
    uint64_t through = 0;
  };
  struct Arrival {
    CtaRunner *target = nullptr; // whose mbarrier
    uint32_t bar = 0;            // its .shared::cta address there
    Thread *issuer = nullptr;
    const char *what = nullptr;
    /// A commit's TMEM writes (its CTA and, for cta_group::2, the peer's);
    /// none for a remote mbarrier.arrive.
    CommitTracks tracks[2];
    bool multicast = false; // a commit with a CTA mask (messages name the CTA)
  };
  /// Delivers `a` now (the running thread `t` issued it) or, as the
  /// schedule chooses, leaves it in flight.
  void sendArrival(Thread &t, const Arrival &a);
  /// At a try_wait of `t` on `target`'s mbarrier `bar` whose phase is
  /// incomplete: delivers the arrivals in flight to it, unless the schedule
  /// holds them a while longer.
  void deliverArrivalsTo(Thread &t, CtaRunner &target, uint32_t bar);
  /// Delivers the arrivals `issuer` sent that are still in flight (at its
  /// barrier.cluster.arrive, whose release orders them first, and its exit);
  /// with `commits` false, only its remote mbarrier.arrive ones.
  void deliverArrivalsOf(Thread &t, const Thread &issuer, bool commits);
  /// At a scheduling point of `t`: maybe delivers one arrival in flight.
  void deliverAnyArrival(Thread &t);
  /// The first commit in flight of cluster thread `issuer` that tracks its
  /// write `serial` in `cta`'s TMEM, or null.
  const Arrival *commitInFlight(const CtaRunner &cta, uint32_t issuer, uint64_t serial) const;

  /// Called by warp `warp` of `t`'s CTA when all its lanes have arrived:
  /// performs the collective if the peer's warp is there already. Returns
  /// the generation its lanes wait to pass (pairGeneration).
  uint64_t pairArrive(Thread &t, uint32_t warp, const PairOperands &op, const char *what);
  uint64_t pairGeneration(uint32_t rank) const { return pairs[rank / 2].generation; }

private:
  struct Pair {
    bool arrived[2] = {false, false};
    PairOperands op[2];
    uint32_t warp[2] = {0, 0};
    uint64_t generation = 0;
  };
  struct ClusterBarrier {
    uint64_t phase = 0;
    uint32_t arrivals = 0;
    /// Per cluster thread id: 1 + the phase it arrived in, 0 if none is due.
    std::vector<uint64_t> arrivedIn;
  };

  void runCooperative();
  uint32_t liveThreads() const;
  void completeBarrierIfDone();
  /// Delivers arrival `i` after the earlier ones of its issuer to the same
  /// CTA (an issuer's arrivals on a CTA land in issue order).
  void deliverArrival(Thread &t, size_t i);
  /// Performs arrival `i` on its mbarrier and forgets it.
  void landArrival(Thread &t, size_t i);
  /// Performs the collective both warps of pair `p` have arrived at.
  void performPair(Thread &t, Pair &p, uint32_t pairIndex, const char *what);
  std::string deadlockReport(const std::string &why) const;

  LaunchState &launch;
  Dim3 clusterDims;
  std::vector<std::unique_ptr<CtaRunner>> members;
  CtaRunner *runningCta = nullptr;
  uint32_t copySerials = 0;
  uint64_t index = 0;
  uint64_t slot = 0;
  ClusterBarrier barrier;
  std::vector<Pair> pairs;
  std::vector<Arrival> arrivals; // in flight, issue order
  Schedule choices;
  RaceClocks clocks;
};

/// The cluster shape a launch of `kernel` with `config` uses; "" or the
/// problem (a shape that does not divide the grid, too many CTAs, a shape
/// the kernel was not compiled for).
std::string launchClusterDims(const KernelDescriptor &kernel, const LaunchConfig &config,
                              Dim3 &dims);

} // namespace cutec::rt
