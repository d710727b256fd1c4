// Schedule exploration: the choices one schedule of a launch makes, drawn
// from its seed. Seed 0 is the fixed schedule (threads round-robin in thread
// order, CTAs of a cluster in rank order, TMA loads landing when a waiter
// needs them); every other seed gives a different legal interleaving of the
// same instruction stream:
//
//   - the order in which a round runs the CTAs of a cluster and their
//     threads: shuffled every round, some warps stalled for the round (odd
//     seeds), or by per-warp priorities with a few priority-change points
//     (even seeds, after PCT, Burckhardt et al., ASPLOS 2010);
//   - preemption at scheduling points (synchronisation and asynchronous
//     instructions), so that another thread runs between two instructions
//     of one thread;
//   - when TMA loads land: early, at any scheduling point after they were
//     issued, or late, a waiter that could land them finding its phase
//     incomplete a few more times;
//   - the completion latency of the other asynchronous operations: when a
//     tcgen05.commit (each CTA of a multicast one apart) or a remote
//     mbarrier arrival reaches its mbarrier, and when a TMA store writes
//     global memory (runtime/engine/AsyncArrivals.cpp, runtime/engine/CtaBulkStore.cpp).
//     These draw from a stream of their own, so that the choices above
//     stay those of the seed.
//
// Each cluster draws from its own stream, seeded by the schedule's seed and
// the cluster's index, so a schedule does not depend on the number of
// workers. docs/emulator.md "Schedule exploration" describes the model.
#pragma once

#include <cstdint>
#include <vector>

namespace cutec::rt {

class Schedule {
public:
  /// Starts the schedule of seed `seed` for the cluster with linear index
  /// `clusterIndex`, whose CTAs have `warpsPerCta` warps each.
  void reset(uint64_t seed, uint64_t clusterIndex, uint32_t ctas, uint32_t warpsPerCta);

  /// The fixed schedule: every choice below is the deterministic default.
  bool fixed() const { return policy == Policy::Fixed; }

  /// The order in which a round visits the `ctas` CTAs of the cluster.
  const std::vector<uint32_t> &rankOrder();
  /// The order in which a round of CTA `rank` visits its `threads` threads;
  /// the threads of a warp the schedule stalls for this round are left out.
  const std::vector<uint32_t> &threadOrder(uint32_t rank, uint32_t threads);

  /// Whether a thread of warp `warp` of CTA `rank` that reaches a
  /// scheduling point yields to the others there.
  bool preempt(uint32_t rank, uint32_t warp);
  /// Whether a waiter that could land TMA loads now leaves them in flight.
  bool delayLanding() { return !fixed() && chance(delayPercent); }
  /// Whether a scheduling point lands one of the loads in flight early.
  bool landEarly() { return !fixed() && chance(earlyPercent); }
  /// A number in [0, n).
  uint32_t below(uint32_t n) { return uint32_t(next() % n); }

  // Completion latency (the latency stream).
  /// Whether an mbarrier arrival of an asynchronous operation (a
  /// tcgen05.commit, a remote mbarrier.arrive) stays in flight when issued.
  bool delayArrival() { return !fixed() && latencyChance(arrivalDelayPercent); }
  /// Whether a waiter whose phase lacks arrivals in flight leaves them so.
  bool holdArrivals() { return !fixed() && latencyChance(holdPercent); }
  /// Whether a scheduling point delivers one of the arrivals in flight.
  bool deliverEarly() { return !fixed() && latencyChance(deliverPercent); }
  /// Whether a scheduling point writes one TMA store's bytes to global memory.
  bool writeStoreEarly() { return !fixed() && latencyChance(storePercent); }
  /// A number in [0, n), from the latency stream.
  uint32_t latencyBelow(uint32_t n) { return uint32_t(nextLatency() % n); }

private:
  enum class Policy : uint8_t { Fixed, Shuffle, Priority };

  uint64_t next();
  uint64_t nextLatency();
  bool chance(uint32_t percent) { return percent && next() % 100 < percent; }
  bool latencyChance(uint32_t percent) { return percent && nextLatency() % 100 < percent; }

  Policy policy = Policy::Fixed;
  uint64_t state = 0;
  uint32_t preemptPercent = 0, delayPercent = 0, earlyPercent = 0, stallPercent = 0;
  uint64_t latencyState = 0;
  uint32_t arrivalDelayPercent = 0, holdPercent = 0, deliverPercent = 0, storePercent = 0;
  uint32_t warpsPerCta = 0;
  /// Priority policy: per warp of the cluster (rank * warpsPerCta + warp),
  /// higher runs first; the scheduling points counted so far and the ones
  /// at which the running warp drops below every other.
  std::vector<int64_t> priority;
  uint64_t steps = 0;
  std::vector<uint64_t> changePoints;
  int64_t lowest = 0;
  std::vector<uint32_t> ranks, threads;
  std::vector<bool> stalled; // per warp, this round
};

} // namespace cutec::rt
