// The sixteen named barriers of a CTA (`bar.sync`, `bar.arrive`) with the
// PTX ISA's arrival rule: a barrier counts warps, not threads. A warp has
// arrived once all its non-exited lanes have executed the barrier
// instruction; the barrier completes when warps worth `count` threads have
// arrived or, without a count, when every warp that still has live lanes
// has. Exited threads therefore never hold up a barrier without a count, but
// a barrier with a count that only exited warps could fill never completes;
// the CTA scheduler then reports a deadlock.
//
// bar.sync and bar.arrive are `.aligned`: all live lanes of a warp must
// execute the same barrier instruction. Lanes of one warp arriving from
// different instructions, or a lane arriving twice before its warp does, are
// errors. All arrivals of one phase must name the same count, and a warp
// arrives once per phase: a warp that arrives again before the barrier
// completes (bar.arrive, then another barrier instruction on the same
// barrier) is an error, as the PTX ISA warns against it.
#pragma once

#include "runtime/base/Result.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace cutec::rt {

class NamedBarriers {
public:
  static constexpr uint32_t kCount = 16;

  /// Starts a CTA. `liveLanes[w]` is the mask of warp w's lanes that have
  /// not exited; the caller keeps it current and calls `recheck` when it
  /// shrinks.
  void reset(std::span<const uint32_t> liveLanes);

  /// Lane `lane` of warp `warp` arrives at barrier `id`, `count` threads
  /// expected (0: all). Returns whether this arrival completed the barrier,
  /// which then starts its next phase.
  Result<bool> arrive(uint32_t id, uint32_t count, uint32_t warp, uint32_t lane, const char *what);

  /// After lanes exited: the barriers this completed (bit i for barrier i).
  uint32_t recheck();

  /// Whether lane `lane` of warp `warp` has arrived at barrier `id` and
  /// waits for the rest of its warp to arrive too (every barrier instruction
  /// waits for the non-exited lanes of its warp, bar.arrive included).
  bool lanePending(uint32_t id, uint32_t warp, uint32_t lane) const {
    return barriers[id].pendingLanes[warp] >> lane & 1;
  }

  /// Where barrier `id` stands, for deadlock reports: "barrier 1 (expects 128
  /// threads): warps 0,2 arrived; warp 3 lanes 0-7 arrived".
  std::string describe(uint32_t id) const;

private:
  struct Barrier {
    bool active = false;
    uint32_t count = 0;
    uint32_t starter = 0; // the warp whose arrival started the phase
    uint32_t warpArrivals = 0;
    uint32_t arrivedWarps = 0;                  // mask, for reports
    std::array<uint32_t, 32> pendingLanes{};    // lanes of a warp not yet counted
    std::array<const char *, 32> instruction{}; // of each warp's pending lanes
  };

  /// Counts warp `warp` in if all its live lanes have arrived.
  void settleWarp(Barrier &b, uint32_t warp);
  bool isComplete(const Barrier &b) const;
  /// "2 warp arrivals (warps 0,1)" or "no warp has arrived".
  static std::string progressText(const Barrier &b);

  std::span<const uint32_t> live;
  std::array<Barrier, kCount> barriers;
};

} // namespace cutec::rt
