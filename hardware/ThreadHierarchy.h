//===- ThreadHierarchy.h - Threads, warps and warpgroups -------------------===//
//
// The fixed sizes of the levels below a CTA: a warp is 32 threads, a
// warpgroup (the unit wgmma and setmaxnreg act on) 4 consecutive warps.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_HARDWARE_THREADHIERARCHY_H
#define CUTEC_HARDWARE_THREADHIERARCHY_H

#include <cstdint>

namespace cutec::hw {

inline constexpr uint32_t kThreadsPerWarp = 32;
inline constexpr uint32_t kWarpsPerWarpgroup = 4;
/// The lane mask of a whole warp.
inline constexpr uint32_t kFullWarpMask = 0xffffffffu;

} // namespace cutec::hw

#endif
