// The warp-collective tcgen05 instructions as the emitted code calls them.
// They forward to Thread's methods. Like warpSyncShfl they may block, which
// their rows in the compiler's instruction table say with the MayBlock flag
// (KernelDescriptor::usesBarriers).
#pragma once

#include "runtime/engine/Thread.h"

#include <cstdint>

namespace cutec::rt {

inline void warpSyncTcgen05Alloc(Thread &t, uint32_t smemDst, uint32_t columns, const char *what) {
  t.tcgen05Alloc(smemDst, columns, what);
}

inline void warpSyncTcgen05Dealloc(Thread &t, uint32_t taddr, uint32_t columns, const char *what) {
  t.tcgen05Dealloc(taddr, columns, what);
}

inline void warpSyncTcgen05RelinquishAllocPermit(Thread &t, const char *what) {
  t.tcgen05RelinquishAllocPermit(what);
}

inline void warpSyncTcgen05AllocPair(Thread &t, uint32_t smemDst, uint32_t columns,
                                     const char *what) {
  t.tcgen05AllocPair(smemDst, columns, what);
}

inline void warpSyncTcgen05DeallocPair(Thread &t, uint32_t taddr, uint32_t columns,
                                       const char *what) {
  t.tcgen05DeallocPair(taddr, columns, what);
}

inline void warpSyncTcgen05RelinquishAllocPermitPair(Thread &t, const char *what) {
  t.tcgen05RelinquishAllocPermitPair(what);
}

inline void warpSyncTcgen05Ld32x32b(Thread &t, uint32_t taddr, uint32_t *regs, uint32_t n,
                                    const char *what) {
  t.tcgen05Ld32x32b(taddr, regs, n, what);
}

/// tcgen05.ld / tcgen05.st of any shape (runtime/tensorcore/TmemFragment.h).
inline void warpSyncTcgen05Ld(Thread &t, uint32_t taddr, uint32_t *regs,
                              const TmemFragmentForm &form, const char *what) {
  t.tcgen05Ld(taddr, regs, form, what);
}

inline void warpSyncTcgen05St(Thread &t, uint32_t taddr, const uint32_t *regs,
                              const TmemFragmentForm &form, const char *what) {
  t.tcgen05St(taddr, regs, form, what);
}

} // namespace cutec::rt
