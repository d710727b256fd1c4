// The warp-level instructions of warp-specialised kernels as the emitted code
// calls them: `elect.sync`, `bar.warp.sync` and `setmaxnreg`. All are
// warp-collectives that block until the whole warp is there, so their rows in
// the compiler's instruction table carry the MayBlock flag
// (KernelDescriptor::usesBarriers).
#pragma once

#include "runtime/engine/Thread.h"

#include <bit>
#include <cstdint>

namespace cutec::rt {

/// `elect.sync _|p, memberMask`: true in one lane of `memberMask`, false in
/// the others, once every lane of the mask has arrived. The ISA only says
/// that the same mask elects the same leader every time; the emulator elects
/// the lowest lane of the mask.
inline bool warpSyncElect(Thread &t, uint32_t memberMask, const char *what) {
  bool elected = false;
  t.warpSync(memberMask, &elected, what, [](const WarpCollective &w) {
    *static_cast<bool *>(w.laneData[std::countr_zero(w.memberMask)]) = true;
  });
  return elected;
}

/// `bar.warp.sync memberMask`: waits until every lane of the mask has
/// arrived; their memory accesses before it happen before those after it.
/// The emulator asks all of them to arrive at the same instruction.
inline void warpSyncBarrier(Thread &t, uint32_t memberMask, const char *what) {
  t.warpSync(memberMask, nullptr, what, [](const WarpCollective &) {});
}

/// `setmaxnreg.inc.sync.aligned.u32 count` (inc) or `.dec` (Thread::setmaxnreg).
inline void warpSyncSetmaxnreg(Thread &t, bool inc, uint32_t count, const char *what) {
  t.setmaxnreg(inc, count, what);
}

} // namespace cutec::rt
