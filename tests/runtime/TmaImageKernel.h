// An emulated kernel that shows the shared-memory image of one TMA load: one
// thread fills a 1024-byte-aligned region of dynamic shared memory with
// 0xA5, initialises an mbarrier, expects `txBytes`, issues the load to
// `dstOffset` into the region, waits, and copies the region's `total` bytes
// to `out`. RuntimeTmaTest and the hardware probe tma_model_check (which runs
// the same steps in PTX on a GPU) both use it.
#ifndef CUTEC_TESTS_RUNTIME_TMAIMAGEKERNEL_H
#define CUTEC_TESTS_RUNTIME_TMAIMAGEKERNEL_H

#include "runtime/Emulation.h"

namespace cutec::rt::test {

/// The region's alignment: every swizzle pattern repeats within it.
constexpr uint32_t kTmaRegionAlign = 1024;

struct alignas(64) TmaImageParams {
  TensorMap tmap;
  uint64_t out;
  uint32_t total, dstOffset, txBytes, rank;
  int32_t coords[5];
};

inline void tmaImageBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const TmaImageParams *>(raw);
  uint32_t bar = t.staticSharedBase();
  uint32_t base = (t.dynamicSharedBase() + kTmaRegionAlign - 1) & ~(kTmaRegionAlign - 1);
  for (uint32_t i = 0; i < p.total; i += 4)
    t.storeShared<uint32_t>(base + i, 0xA5A5A5A5u, "st.shared.u32 at img.cute:2");
  t.mbarrierInit(bar, 1, "mbarrier.init at img.cute:3");
  t.fenceMbarrierInit("fence.mbarrier_init at img.cute:4");
  t.fenceProxyAsync("fence.proxy.async at img.cute:4");
  t.mbarrierArriveExpectTx(bar, p.txBytes, "mbarrier.arrive.expect_tx at img.cute:5");
  t.tmaLoadTile(base + p.dstOffset, reinterpret_cast<uint64_t>(&p.tmap), p.coords, p.rank, bar,
                "cp.async.bulk.tensor at img.cute:6");
  t.mbarrierWaitParity(bar, 0, "mbarrier.try_wait.parity at img.cute:7");
  for (uint32_t i = 0; i < p.total; i += 4)
    t.storeGlobal<uint32_t>(p.out + i, t.loadShared<uint32_t>(base + i, "ld.shared at img.cute:8"),
                            "st.global at img.cute:8");
}

/// The mbarrier lives in 8 bytes of static shared memory.
inline const KernelDescriptor kTmaImageKernel{"tma_image", tmaImageBody, sizeof(TmaImageParams),
                                              /*usesBarriers=*/true, /*staticSharedBytes=*/8};

} // namespace cutec::rt::test

#endif
