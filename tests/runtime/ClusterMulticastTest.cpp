// TMA multicast loads in the emulator: a box landing in every CTA of the
// mask and completing on each destination's own mbarrier or, with
// .cta_group::2, on its pair leader's; and the errors a multicast load can
// make: a bad mask, reading a copy not waited for, overlapping copies in
// flight, a phase that never completes.
#include "LaunchTestSupport.h"

#include "runtime/engine/Cluster.h"

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

// A cluster of 4 CTAs. CTA r loads rows 4r..4r+3 of a 16 x 16 u32 matrix and
// multicasts them to tile + 256r in the CTAs of `mask`; each CTA then copies
// its whole tile out. Without `pair` every CTA waits for 4 boxes on its own
// mbarrier; with it the leaders (ranks 0 and 2) wait for their pair's 8.
// Modes: 1 the waiters expect half the bytes; 2 every CTA multicasts to
// offset 0 of the tile; 3 the waiters expect twice the bytes.
struct alignas(64) MulticastParams {
  TensorMap tmap;
  uint64_t out;
  uint32_t mode, pair, mask;
};

void multicastBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const MulticastParams *>(raw);
  uint32_t bar = t.staticSharedBase();
  uint32_t tile = (t.dynamicSharedBase() + 127) & ~127u;
  bool waits = !p.pair || t.cluster_ctarank % 2 == 0;
  if (t.tid.x == 0 && waits)
    t.mbarrierInit(bar, 1, "mbarrier.init at mc.cute:3");
  t.clusterArrive("barrier.cluster.arrive at mc.cute:4");
  t.clusterWait("barrier.cluster.wait at mc.cute:4");
  if (t.tid.x == 0) {
    uint32_t bytes = p.pair ? 2048 : 1024;
    if (waits)
      t.mbarrierArriveExpectTx(bar, p.mode == 1 ? bytes / 2 : p.mode == 3 ? bytes * 2 : bytes,
                               "mbarrier.arrive.expect_tx at mc.cute:6");
    int32_t coords[2] = {0, int32_t(4 * t.cluster_ctarank)};
    uint32_t dst = tile + (p.mode == 2 ? 0 : 256 * t.cluster_ctarank);
    t.tmaLoadTileMulticast(dst, reinterpret_cast<uint64_t>(&p.tmap), coords, 2, bar,
                           uint16_t(p.mask), p.pair != 0,
                           "cp.async.bulk.tensor.2d.multicast::cluster at mc.cute:8");
  }
  if (waits)
    t.mbarrierWaitParity(bar, 0, "mbarrier.try_wait at mc.cute:10");
  t.clusterArrive("barrier.cluster.arrive at mc.cute:11");
  t.clusterWait("barrier.cluster.wait at mc.cute:11");
  for (uint32_t i = t.tid.x; i < 256; i += 32) {
    uint32_t v = t.loadShared<uint32_t>(tile + 4 * i, "ld.shared at mc.cute:13");
    t.storeGlobal<uint32_t>(p.out + (256 * t.cluster_ctarank + i) * 4, v,
                            "st.global at mc.cute:14");
  }
}
const KernelDescriptor multicastKernel{"mc", multicastBody, sizeof(MulticastParams), true, 16};

struct Multicast {
  std::vector<uint32_t> in = std::vector<uint32_t>(256);
  std::vector<uint32_t> out = std::vector<uint32_t>(1024, 0);
  MulticastParams p{};
  MemoryMap map;
  LaunchConfig c = config({4, 1, 1}, {32, 1, 1});
  explicit Multicast(bool pair, uint32_t mode = 0) {
    for (uint32_t i = 0; i < in.size(); ++i)
      in[i] = 7 * i + 1;
    uint64_t dim[2] = {16, 16}, stride[1] = {64};
    uint32_t box[2] = {16, 4}, estride[2] = {1, 1};
    EXPECT_EQ(encodeTensorMapTiled(p.tmap, TmaDataType::Uint32, 2, in.data(), dim, stride, box,
                                   estride, TmaInterleave::None, TmaSwizzle::None,
                                   TmaL2Promotion::None, TmaOobFill::None),
              "");
    p.out = addressOf(out);
    p.mode = mode;
    p.pair = pair;
    p.mask = 0xf;
    addBuffer(map, in, "in");
    addBuffer(map, out, "out");
    c.cluster = {4, 1, 1};
    c.dynamicSharedBytes = 1280;
  }
  std::vector<uint32_t> expected() const {
    std::vector<uint32_t> all;
    for (int cta = 0; cta < 4; ++cta)
      all.insert(all.end(), in.begin(), in.end());
    return all;
  }
};

TEST(ClusterMulticast, EveryCtaOfTheMaskGetsTheBoxAndCompletesItOnItsOwnMbarrier) {
  Multicast m(/*pair=*/false);
  Status s = launch(multicastKernel, m.c, &m.p, m.map);
  ASSERT_TRUE(bool(s)) << s.error();
  EXPECT_EQ(m.out, m.expected());
}

TEST(ClusterMulticast, PairMulticastCompletesOnThePairLeadersMbarrier) {
  Multicast m(/*pair=*/true);
  Status s = launch(multicastKernel, m.c, &m.p, m.map);
  ASSERT_TRUE(bool(s)) << s.error();
  EXPECT_EQ(m.out, m.expected());
}

TEST(ClusterMulticast, AMaskNamingNoCtaOrACtaOutsideTheClusterIsReported) {
  for (uint32_t mask : {0x0u, 0x13u}) {
    Multicast m(/*pair=*/false);
    m.p.mask = mask;
    EXPECT_EQ(launchError(multicastKernel, m.c, &m.p, m.map),
              "kernel 'mc', CTA (0,0,0), thread (0,0,0) (warp 0, lane 0): "
              "cp.async.bulk.tensor.2d.multicast::cluster at mc.cute:8: TMA multicast mask " +
                  std::string(mask ? "0x13" : "0x0") +
                  " must name CTAs of the cluster (ranks 0-3)");
  }
}

TEST(ClusterMulticast, ReadingACopyThePairLeaderDidNotWaitForIsReported) {
  // The leader of pair 0 expects 1024 of the 2048 bytes owed to it: its
  // phase completes with the first four copies, and the box CTA 2 sent it
  // is still in flight.
  Multicast m(/*pair=*/true, /*mode=*/1);
  EXPECT_EQ(launchError(multicastKernel, m.c, &m.p, m.map),
            "kernel 'mc', CTA (0,0,0), thread (31,0,0) (warp 0, lane 31): ld.shared at "
            "mc.cute:13: 4-byte shared load at 0x6fc touches shared memory that the TMA load "
            "'cp.async.bulk.tensor.2d.multicast::cluster at mc.cute:8' (issued by CTA (2,0,0) "
            "thread (0,0,0), warp 0 lane 0; 256 bytes to [0x680, 0x780) completing on mbarrier "
            "0x400 of CTA rank 0 in its phase 0) is still writing; wait on that mbarrier phase "
            "(mbarrier.try_wait.parity) before touching the destination");
}

TEST(ClusterMulticast, OverlappingMulticastCopiesInFlightAreReported) {
  Multicast m(/*pair=*/false, /*mode=*/2);
  EXPECT_EQ(launchError(multicastKernel, m.c, &m.p, m.map),
            "kernel 'mc', CTA (1,0,0), thread (0,0,0) (warp 0, lane 0): "
            "cp.async.bulk.tensor.2d.multicast::cluster at mc.cute:8: the box writes shared byte "
            "0x480, which the TMA load 'cp.async.bulk.tensor.2d.multicast::cluster at mc.cute:8' "
            "(issued by CTA (0,0,0) thread (0,0,0), warp 0 lane 0; 256 bytes to [0x480, 0x580) "
            "completing on mbarrier 0x400 of CTA rank 1 in its phase 0) still in flight writes "
            "too");
}

TEST(ClusterMulticast, APhaseTheCopiesCannotCompleteIsADeadlock) {
  // The leaders expect 4096 bytes; their pairs' copies bring 2048.
  Multicast m(/*pair=*/true, /*mode=*/3);
  EXPECT_EQ(launchError(multicastKernel, m.c, &m.p, m.map),
            "kernel 'mc', cluster (0,0,0) .. (3,0,0): deadlock: polling threads made no progress "
            "for 1000 rounds while no other thread could run\n"
            "  barrier.cluster: 64 of 128 live threads arrived in phase 1\n"
            "kernel 'mc', CTA (0,0,0): deadlock: CTA rank 0 of the cluster\n"
            "  warp 0 lanes 0-31: wait on mbarrier 0x400 for the phase with parity 0 "
            "'mbarrier.try_wait at mc.cute:10'\n"
            "  mbarrier 0x400: phase 0 (parity 0), 0 of 1 arrivals pending, 2048 transaction "
            "bytes pending\n"
            "kernel 'mc', CTA (1,0,0): deadlock: CTA rank 1 of the cluster\n"
            "  warp 0 lanes 0-31: poll 'barrier.cluster.wait at mc.cute:11'\n"
            "kernel 'mc', CTA (2,0,0): deadlock: CTA rank 2 of the cluster\n"
            "  warp 0 lanes 0-31: wait on mbarrier 0x400 for the phase with parity 0 "
            "'mbarrier.try_wait at mc.cute:10'\n"
            "  mbarrier 0x400: phase 0 (parity 0), 0 of 1 arrivals pending, 2048 transaction "
            "bytes pending\n"
            "kernel 'mc', CTA (3,0,0): deadlock: CTA rank 3 of the cluster\n"
            "  warp 0 lanes 0-31: poll 'barrier.cluster.wait at mc.cute:11'");
}

} // namespace
} // namespace cutec::rt
