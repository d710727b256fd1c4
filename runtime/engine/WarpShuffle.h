// `shfl.sync.{up,down,bfly,idx}.b32 d, a, b, c, membermask` as the emulation
// runs them: warp-collectives (Thread::warpSync) following the ISA's
// pseudo-code. Lane l, with segmask = c[12:8], maxLane = (l & segmask) |
// (c[4:0] & ~segmask) and minLane = l & segmask, reads lane
//   up:   j = l - b, if j >= maxLane
//   down: j = l + b, if j <= maxLane
//   bfly: j = l ^ b, if j <= maxLane
//   idx:  j = minLane | (b[4:0] & ~segmask), if j <= maxLane
// and otherwise keeps its own value, as it does when lane j is outside the
// member mask (PTX: undefined; the emulation reports nothing). Each lane
// passes its own b.
#pragma once

#include "runtime/engine/Thread.h"

#include <cstdint>
#include <cstring>

namespace cutec::rt {

enum class ShflMode { Up, Down, Bfly, Idx };

/// The lane that lane `l` reads from in `mode` with operands b and c, or `l`
/// itself where the ISA copies the lane's own value.
inline uint32_t shflSourceLane(ShflMode mode, uint32_t l, uint32_t b, uint32_t c) {
  int32_t segmask = int32_t((c >> 8) & 0x1f), clamp = int32_t(c & 0x1f);
  int32_t lane = int32_t(l), bval = int32_t(b & 0x1f);
  int32_t maxLane = (lane & segmask) | (clamp & ~segmask);
  int32_t j = 0;
  bool valid = false;
  switch (mode) {
  case ShflMode::Up:
    j = lane - bval;
    valid = j >= maxLane;
    break;
  case ShflMode::Down:
    j = lane + bval;
    valid = j <= maxLane;
    break;
  case ShflMode::Bfly:
    j = lane ^ bval;
    valid = j <= maxLane;
    break;
  case ShflMode::Idx:
    j = (lane & segmask) | (bval & ~segmask);
    valid = j <= maxLane;
    break;
  }
  return valid ? uint32_t(j) : l;
}

template <typename T>
T warpSyncShfl(Thread &t, ShflMode mode, T value, uint32_t b, uint32_t c, uint32_t memberMask,
               const char *what) {
  static_assert(sizeof(T) == 4, "shfl.sync moves 32-bit registers");
  struct Lane {
    uint32_t in, b, c, out;
  } lane{};
  std::memcpy(&lane.in, &value, 4);
  lane.b = b;
  lane.c = c;
  t.warpSync(memberMask, &lane, what, [mode](const WarpCollective &w) {
    for (uint32_t l = 0; l < 32; ++l) {
      auto *me = static_cast<Lane *>(w.laneData[l]);
      if (!me)
        continue;
      auto *from = static_cast<Lane *>(w.laneData[shflSourceLane(mode, l, me->b, me->c)]);
      me->out = from ? from->in : me->in;
    }
  });
  T result;
  std::memcpy(&result, &lane.out, 4);
  return result;
}

} // namespace cutec::rt
