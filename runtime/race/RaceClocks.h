// The vector clocks of the data-race detector (docs/emulator.md, "Data
// races"): per thread of a cluster, the latest clock of every thread whose
// work happens before its own so far, and the clocks that synchronisation
// objects carry from a release to an acquire.
//
// Threads are numbered densely in the cluster (rank * CTA threads + index).
// A thread's own entry is its current clock; it ticks after each release, so
// that what the thread does afterwards is not covered by that release. An
// access is recorded as an epoch (thread, clock); it happens before thread
// u's present if clock <= C_u[thread]. Synchronisation:
// - release(t, into): into = into ⊔ C_t, then t ticks (an mbarrier or a
//   named barrier arrival, barrier.cluster.arrive);
// - acquire(t, from): C_t = C_t ⊔ from (a wait that observes the phase);
// - meet(members) and tick: every member gets the join of all (a warp
//   collective), and each ticks once the collective's work is done.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace cutec::rt {

/// One vector clock: entry u is the latest clock of thread u known.
using VectorClock = std::vector<uint32_t>;

class RaceClocks {
public:
  /// Starts a cluster of `ctas` CTAs of `ctaThreads` threads, each knowing
  /// nothing of the others (every clock above the previous cluster's);
  /// forgets the synchronisation objects and read sets.
  void reset(uint32_t ctas, uint32_t ctaThreads);
  uint32_t size() const { return threadCount; }
  /// The cluster thread id (rank << 10 | index) of dense thread `t`.
  uint32_t clusterThreadId(uint32_t t) const { return t / perCta << 10 | t % perCta; }
  bool sameWarp(uint32_t a, uint32_t b) const {
    return a / perCta == b / perCta && a % perCta / 32 == b % perCta / 32;
  }

  /// Thread t's present clock.
  uint32_t now(uint32_t t) const { return row(t)[t]; }
  /// Whether thread `earlier`'s access at `clock` happens before what thread
  /// `later` does now.
  bool before(uint32_t earlier, uint32_t clock, uint32_t later) const {
    return earlier == later || clock <= row(later)[earlier];
  }
  /// Whether every entry of `reads` (a read set) happens before thread
  /// `later`'s present, apart from its own; the first that does not, or
  /// size() if all do.
  uint32_t firstUnordered(const VectorClock &reads, uint32_t later) const;

  void release(uint32_t t, VectorClock &into);
  void acquire(uint32_t t, const VectorClock &from);
  /// The threads `members` meet: each one's clock becomes their join.
  void meet(std::span<const uint32_t> members);
  void tick(uint32_t t) { ++row(t)[t]; }

  /// The clocks released on an mbarrier (its CTA's rank, its address) by
  /// all its arrivals so far: the phases are not told apart, which can hide
  /// a race, never invent one.
  VectorClock &mbarrier(uint32_t rank, uint32_t address) {
    return mbarriers[uint64_t(rank) << 32 | address];
  }
  /// The arrivals of named barrier `id` of CTA `rank` in its current phase.
  VectorClock &namedBarrier(uint32_t rank, uint32_t id) { return barriers[rank * 16 + id]; }
  /// barrier.cluster: the arrivals of the current phase, and what the
  /// completed phases released.
  VectorClock clusterArrivals, clusterCompleted;

  /// Read sets: the clocks of the reads of one location by several threads
  /// that no synchronisation orders (FastTrack's read vector clocks).
  uint32_t newReadSet();
  VectorClock &readSet(uint32_t i) { return readSets[i]; }
  void freeReadSet(uint32_t i) { freeReadSets.push_back(i); }

private:
  uint32_t *row(uint32_t t) { return clocks.data() + size_t(t) * threadCount; }
  const uint32_t *row(uint32_t t) const { return clocks.data() + size_t(t) * threadCount; }

  uint32_t threadCount = 0, perCta = 1;
  std::vector<uint32_t> clocks; // threadCount x threadCount, row t: thread t's clock
  /// Per thread: the last meeting it took part in, if it has acquired
  /// nothing since (else 0). The members of one meeting then have equal
  /// rows but for their own entries, so a new meeting of threads that all
  /// come from the same one only exchanges those (a warp's shuffles in a
  /// row cost 32 x 32, not 32 x threadCount).
  std::vector<uint32_t> lastMeeting;
  uint32_t meetings = 0;
  std::unordered_map<uint64_t, VectorClock> mbarriers;
  std::vector<VectorClock> barriers;
  std::vector<VectorClock> readSets;
  std::vector<uint32_t> freeReadSets;
  VectorClock scratch;
};

/// Joins `from` into `into` (entry by entry, the maximum).
void joinClock(VectorClock &into, const uint32_t *from, uint32_t size);

} // namespace cutec::rt
