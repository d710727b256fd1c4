// `shfl.sync.bfly.b32` and `shfl.sync.idx.b32` as the emulation runs them:
// warp-collectives (Thread::warpSync). In `shfl.sync.bfly.b32 d, a, b, c,
// membermask` lane l reads lane l ^ b. With c = 0x1f no lane is clamped; a
// source lane outside the member mask, or beyond the clamp, gives the lane
// its own value (PTX: undefined for the former; the emulation reports
// neither).
#pragma once

#include "runtime/Thread.h"

#include <cstdint>
#include <cstring>

namespace cutec::rt {

template <typename T>
T warpSyncShflBfly(Thread &t, T value, uint32_t laneMask, uint32_t clamp, uint32_t memberMask,
                   const char *what) {
  static_assert(sizeof(T) == 4, "shfl.sync moves 32-bit registers");
  struct Lane {
    uint32_t in, out;
  } lane{};
  std::memcpy(&lane.in, &value, 4);
  t.warpSync(memberMask, &lane, what, [laneMask, clamp](const WarpCollective &w) {
    uint32_t maxLane = clamp & 0x1f;
    for (uint32_t l = 0; l < 32; ++l) {
      auto *me = static_cast<Lane *>(w.laneData[l]);
      if (!me)
        continue;
      uint32_t source = l ^ (laneMask & 0x1f);
      auto *from = source <= maxLane ? static_cast<Lane *>(w.laneData[source]) : nullptr;
      me->out = from ? from->in : me->in;
    }
  });
  T result;
  std::memcpy(&result, &lane.out, 4);
  return result;
}

/// `shfl.sync.idx.b32 d, a, b, c, membermask`: lane l reads lane
/// j = (l & segmask) | (b & 31 & ~segmask), with segmask = c[12:8], or keeps
/// its own value when j is past the segment's clamp (c[4:0]) or outside the
/// member mask (undefined in PTX). Each lane passes its own b.
template <typename T>
T warpSyncShflIdx(Thread &t, T value, uint32_t sourceLane, uint32_t clampSegment,
                  uint32_t memberMask, const char *what) {
  static_assert(sizeof(T) == 4, "shfl.sync moves 32-bit registers");
  struct Lane {
    uint32_t in, source, out;
  } lane{};
  std::memcpy(&lane.in, &value, 4);
  lane.source = sourceLane;
  t.warpSync(memberMask, &lane, what, [clampSegment](const WarpCollective &w) {
    uint32_t segmask = (clampSegment >> 8) & 0x1f, clamp = clampSegment & 0x1f;
    for (uint32_t l = 0; l < 32; ++l) {
      auto *me = static_cast<Lane *>(w.laneData[l]);
      if (!me)
        continue;
      uint32_t first = l & segmask;
      uint32_t j = first | (me->source & 0x1f & ~segmask);
      auto *from = j <= (first | (clamp & ~segmask)) ? static_cast<Lane *>(w.laneData[j]) : nullptr;
      me->out = from ? from->in : me->in;
    }
  });
  T result;
  std::memcpy(&result, &lane.out, 4);
  return result;
}

} // namespace cutec::rt
