// `shfl.sync.bfly.b32 d, a, b, c, membermask` as the emulation runs it: a
// warp-collective (Thread::warpSync) in which lane l reads lane l ^ b. With
// c = 0x1f no lane is clamped; a source lane outside the member mask, or
// beyond the clamp, gives the lane its own value (PTX: undefined for the
// former; the emulation reports neither).
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

} // namespace cutec::rt
