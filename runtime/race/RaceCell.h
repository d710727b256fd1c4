// What the data-race detector remembers of one location (a byte of shared
// or global memory), and the check of a plain access against it
// (docs/emulator.md, "Data races"). FastTrack's representation: the last
// write as an epoch (thread, clock), the reads since as one epoch, or as a
// read set (a vector clock) once threads that no synchronisation orders
// have read it.
#pragma once

#include "runtime/race/RaceClocks.h"

#include <cstdint>
#include <optional>

namespace cutec::rt {

enum class RaceAccess : uint8_t { Read, Write, Atomic };

struct RaceCell {
  /// reader's value when the reads since the last write are a read set
  /// (readClock is its number in RaceClocks).
  static constexpr uint32_t kReadSet = UINT32_MAX;
  /// owner's value for global memory that several clusters read and none
  /// wrote.
  static constexpr uint32_t kManyClusters = UINT32_MAX;

  const char *writeWhat = nullptr; // the last write or atomic
  const char *readWhat = nullptr;  // the latest read
  uint32_t writer = 0;             // its dense thread number + 1; 0: none
  uint32_t writeClock = 0;
  uint32_t reader = 0; // dense thread number + 1, kReadSet, or 0: no read
  uint32_t readClock = 0;
  /// Global memory: the linear cluster index + 1 whose threads accessed the
  /// byte (only they may keep doing so), or kManyClusters; 0: none yet.
  uint32_t owner = 0;
  bool writeAtomic = false;
};

/// The earlier access that an access races with.
struct RacePrior {
  bool write = false;   // the earlier access wrote (or was an atomic)
  bool atomic = false;  // it was an atomic
  bool readSet = false; // one of several unordered reads; `what` is the latest
  uint32_t thread = 0;  // its dense thread number (in `cluster`)
  const char *what = nullptr;
};

/// Checks access `access` (at instruction `what`) by dense thread `t` of the
/// cluster whose clocks are `clocks` against `cell`, and records it. An
/// earlier access of another thread races with it unless it happens before
/// it, or both are atomics. A write that stores the bytes memory already
/// holds, by a lane of the warp whose lane made the last write with the same
/// instruction, does not race with it: it is one warp-wide store whose lanes
/// write the same value (`sameValue` says whether the bytes are equal).
std::optional<RacePrior> checkRace(RaceCell &cell, RaceClocks &clocks, uint32_t t,
                                   RaceAccess access, const char *what, bool sameValue);

} // namespace cutec::rt
