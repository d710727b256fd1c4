// Thread block clusters in the emulator: the cluster registers, launch
// checks, distributed shared memory through mapa, the cluster barrier, an
// mbarrier one CTA waits on and another arrives at, TMA loads completing on
// the pair leader's mbarrier, and the errors: deadlocks across CTAs, bad
// peer addresses, misused cluster barriers.
#include "LaunchTestSupport.h"

#include "runtime/engine/Cluster.h"

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

LaunchConfig clusterConfig(Dim3 grid, Dim3 block, Dim3 cluster, unsigned workers = 0) {
  LaunchConfig c = config(grid, block, workers);
  c.cluster = cluster;
  return c;
}

struct OutParams {
  uint64_t out;
  uint32_t mode;
};

// Thread 0 of each CTA writes its cluster registers.
void registersBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const OutParams *>(raw);
  if (t.tid.x != 0)
    return;
  uint64_t cta = t.ctaid.x + uint64_t(t.nctaid.x) * t.ctaid.y;
  uint32_t values[6] = {t.cluster_ctarank, t.cluster_nctarank, t.clusterid.x,
                        t.clusterid.y,     t.cluster_ctaid.x,  t.nclusterid.x};
  for (uint32_t i = 0; i < 6; ++i)
    t.storeGlobal<uint32_t>(p.out + (cta * 6 + i) * 4, values[i], "st.global at regs.cute:4");
}
const KernelDescriptor registersKernel{"regs", registersBody, sizeof(OutParams), false, 0};

TEST(Cluster, RegistersNumberTheCtasOfEachCluster) {
  std::vector<uint32_t> out(8 * 6, 99);
  MemoryMap map;
  addBuffer(map, out, "out");
  OutParams p{addressOf(out), 0};
  Status s = launch(registersKernel, clusterConfig({4, 2, 1}, {32, 1, 1}, {2, 1, 1}), &p, map);
  ASSERT_TRUE(bool(s)) << s.error();
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      const uint32_t *v = &out[(y * 4 + x) * 6];
      EXPECT_EQ(v[0], x % 2) << x << "," << y; // %cluster_ctarank
      EXPECT_EQ(v[1], 2u);                     // %cluster_nctarank
      EXPECT_EQ(v[2], x / 2);                  // %clusterid.x
      EXPECT_EQ(v[3], y);                      // %clusterid.y
      EXPECT_EQ(v[4], x % 2);                  // %cluster_ctaid.x
      EXPECT_EQ(v[5], 2u);                     // %nclusterid.x
    }
}

TEST(Cluster, TheKernelsCompiledShapeIsUsedAndCheckedAtLaunch) {
  std::vector<uint32_t> out(4 * 6, 99);
  MemoryMap map;
  addBuffer(map, out, "out");
  OutParams p{addressOf(out), 0};
  KernelDescriptor k = registersKernel;
  k.cluster = {2, 1, 1};
  Status s = launch(k, config({4, 1, 1}, {32, 1, 1}), &p, map);
  ASSERT_TRUE(bool(s)) << s.error();
  EXPECT_EQ(out[3 * 6 + 0], 1u);
  EXPECT_EQ(launchError(k, clusterConfig({4, 1, 1}, {32, 1, 1}, {4, 1, 1}), &p, map),
            "cannot launch kernel 'regs': the kernel was compiled for clusters of (2,1,1) CTAs "
            "(.reqnctapercluster) but the launch asks for (4,1,1)");
  EXPECT_EQ(launchError(k, config({3, 1, 1}, {32, 1, 1}), &p, map),
            "cannot launch kernel 'regs': grid (3,1,1) is not a whole number of clusters (2,1,1)");
  EXPECT_EQ(
      launchError(registersKernel, clusterConfig({32, 1, 1}, {32, 1, 1}, {32, 1, 1}), &p, map),
      "cannot launch kernel 'regs': cluster (32,1,1) must have 1 to 16 CTAs");
}

// Each CTA stores its rank + 10 in its shared memory; after a cluster
// barrier, thread 0 reads the peer's value through mapa. mode 2 maps to a rank the cluster lacks;
// mode 3 reads past the peer's shared memory; mode 4 waits without arriving; mode 5 arrives twice.
void dsmemBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const OutParams *>(raw);
  uint32_t mine = t.staticSharedBase();
  if (t.tid.x == 0)
    t.storeShared<uint32_t>(mine, t.cluster_ctarank + 10, "st.shared at dsmem.cute:3");
  if (p.mode == 4 && t.cluster_ctarank == 1) {
    t.clusterWait("barrier.cluster.wait at dsmem.cute:5");
    return;
  }
  t.clusterArrive("barrier.cluster.arrive at dsmem.cute:4");
  if (p.mode == 5)
    t.clusterArrive("barrier.cluster.arrive at dsmem.cute:6");
  t.clusterWait("barrier.cluster.wait at dsmem.cute:5");
  if (t.tid.x != 0) {
    // The CTA's shared memory must outlive the peer's read of it.
    t.clusterArrive("barrier.cluster.arrive at dsmem.cute:11");
    t.clusterWait("barrier.cluster.wait at dsmem.cute:11");
    return;
  }
  uint32_t peerRank = p.mode == 2 ? 2 : t.cluster_ctarank ^ 1;
  uint32_t peer = t.mapaShared(mine + (p.mode == 3 ? 16 : 0), peerRank, "mapa at dsmem.cute:7");
  uint32_t value = t.loadSharedCluster<uint32_t>(peer, "ld.shared::cluster at dsmem.cute:8");
  uint64_t cta = t.ctaid.x;
  t.storeGlobal<uint32_t>(p.out + cta * 8, value, "st.global at dsmem.cute:9");
  t.storeGlobal<uint32_t>(p.out + cta * 8 + 4, peer, "st.global at dsmem.cute:9");
  // (Thread 0 skips the final cluster barrier, which the others hold: the
  // barrier counts the threads that have not exited.)
}
const KernelDescriptor dsmemKernel{"dsmem", dsmemBody, sizeof(OutParams), true, 16};

struct Dsmem {
  std::vector<uint32_t> out = std::vector<uint32_t>(8, 0);
  MemoryMap map;
  OutParams p{};
  LaunchConfig c = clusterConfig({4, 1, 1}, {64, 1, 1}, {2, 1, 1});
  Dsmem() {
    addBuffer(map, out, "out");
    p.out = addressOf(out);
  }
};

TEST(Cluster, MapaReadsThePeersSharedMemoryAfterAClusterBarrier) {
  for (unsigned workers : {1u, 3u}) {
    Dsmem d;
    d.c.workerThreads = workers;
    Status s = launch(dsmemKernel, d.c, &d.p, d.map);
    ASSERT_TRUE(bool(s)) << s.error();
    for (uint32_t cta = 0; cta < 4; ++cta) {
      EXPECT_EQ(d.out[2 * cta], (cta % 2 ^ 1) + 10) << cta;
      EXPECT_EQ(d.out[2 * cta + 1], ((cta % 2 ^ 1) + 1) * kClusterWindowStride + 0x400) << cta;
    }
  }
}

TEST(Cluster, BadPeerAddressesAreReported) {
  Dsmem d;
  d.p.mode = 2;
  EXPECT_EQ(launchError(dsmemKernel, d.c, &d.p, d.map),
            "kernel 'dsmem', CTA (0,0,0), thread (0,0,0) (warp 0, lane 0): mapa at dsmem.cute:7: "
            "mapa to CTA rank 2, but the cluster has 2 CTA(s)");
  d.p.mode = 3;
  EXPECT_EQ(launchError(dsmemKernel, d.c, &d.p, d.map),
            "kernel 'dsmem', CTA (0,0,0), thread (0,0,0) (warp 0, lane 0): ld.shared::cluster at "
            "dsmem.cute:8: out-of-bounds 4-byte .shared::cluster load at 0x2000410: offset 0x410 "
            "in CTA rank 1, whose shared memory is [0x400, 0x410)");
}

TEST(Cluster, MisusedClusterBarriersAreReported) {
  Dsmem d;
  d.p.mode = 4;
  EXPECT_EQ(launchError(dsmemKernel, d.c, &d.p, d.map),
            "kernel 'dsmem', CTA (1,0,0), thread (0,0,0) (warp 0, lane 0): barrier.cluster.wait "
            "at dsmem.cute:5: barrier.cluster.wait without a barrier.cluster.arrive before it: "
            "the thread would wait for a phase it takes no part in");
  d.p.mode = 5;
  EXPECT_EQ(launchError(dsmemKernel, d.c, &d.p, d.map),
            "kernel 'dsmem', CTA (0,0,0), thread (0,0,0) (warp 0, lane 0): barrier.cluster.arrive "
            "at dsmem.cute:6: barrier.cluster.arrive twice in phase 0 of the cluster barrier "
            "without a barrier.cluster.wait between");
}

// CTA 1 waits on its own mbarrier, which only CTA 0 arrives at (through
// mapa): the CTAs must run interleaved. mode 1: CTA 0 never arrives, a
// deadlock across the pair. mode 2: CTA 0 exits first and CTA 1 then writes
// into its shared memory.
void remoteArriveBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const OutParams *>(raw);
  uint32_t bar = t.staticSharedBase();
  if (t.tid.x == 0)
    t.mbarrierInit(bar, 1, "mbarrier.init at remote.cute:3");
  t.clusterArrive("barrier.cluster.arrive at remote.cute:4");
  t.clusterWait("barrier.cluster.wait at remote.cute:4");
  if (t.cluster_ctarank == 0) {
    if (t.tid.x == 0 && p.mode != 1)
      t.mbarrierArriveCluster(t.mapaShared(bar, 1, "mapa at remote.cute:6"),
                              "mbarrier.arrive.shared::cluster at remote.cute:6");
    return;
  }
  t.mbarrierWaitParity(bar, 0, "mbarrier.try_wait at remote.cute:8");
  if (p.mode == 2 && t.tid.x == 0)
    t.storeSharedCluster<uint32_t>(t.mapaShared(bar + 8, 0, "mapa at remote.cute:9"), 1,
                                   "st.shared::cluster at remote.cute:9");
  t.storeGlobal<uint32_t>(p.out + t.tid.x * 4, 7, "st.global at remote.cute:10");
}
const KernelDescriptor remoteArriveKernel{"remote", remoteArriveBody, sizeof(OutParams), true, 16};

/// A pair of CTAs of one warp each running remoteArriveKernel.
struct RemoteArrive {
  std::vector<uint32_t> out = std::vector<uint32_t>(32, 0);
  MemoryMap map;
  OutParams p{};
  LaunchConfig c = clusterConfig({2, 1, 1}, {32, 1, 1}, {2, 1, 1});
  explicit RemoteArrive(uint32_t mode) {
    addBuffer(map, out, "out");
    p = {addressOf(out), mode};
  }
  std::string error() { return launchError(remoteArriveKernel, c, &p, map); }
};

TEST(Cluster, AnMbarrierArrivalFromThePeerReleasesTheWaiters) {
  RemoteArrive remote(0);
  Status s = launch(remoteArriveKernel, remote.c, &remote.p, remote.map);
  ASSERT_TRUE(bool(s)) << s.error();
  EXPECT_EQ(remote.out, std::vector<uint32_t>(32, 7));
}

TEST(Cluster, ADeadlockAcrossThePairIsReportedForBothCtas) {
  std::string error = RemoteArrive(1).error();
  EXPECT_NE(error.find("kernel 'remote', cluster (0,0,0) .. (1,0,0): deadlock: "),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("kernel 'remote', CTA (0,0,0): deadlock: CTA rank 0 of the cluster\n"
                       "  warp 0 lanes 0-31: exited"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("kernel 'remote', CTA (1,0,0): deadlock: CTA rank 1 of the cluster\n"
                       "  warp 0 lanes 0-31: wait on mbarrier 0x400 for the phase with parity 0 "
                       "'mbarrier.try_wait at remote.cute:8'"),
            std::string::npos)
      << error;
}

TEST(Cluster, WritingTheSharedMemoryOfAnExitedCtaIsReported) {
  EXPECT_EQ(
      RemoteArrive(2).error(),
      "kernel 'remote', CTA (1,0,0), thread (0,0,0) (warp 0, lane 0): st.shared::cluster at "
      "remote.cute:9: .shared::cluster address 0x1000408 is in the shared memory of CTA (0,0,0) "
      "(rank 0), whose threads have all exited: its shared memory is gone");
}

// A pair's TMA loads: each CTA loads its 8-row tile of a 16 x 16 u32 matrix
// into its own shared memory, both completing on the leader's (rank 0)
// mbarrier, which expects both tiles' bytes. After a cluster barrier each CTA
// copies its tile out. mode 1: the leader expects one tile only; mode 2: the odd CTA names its own
// rank's mbarrier, which was never initialised.
struct alignas(64) PairTmaParams {
  TensorMap tmap;
  uint64_t out;
  uint32_t mode;
};

void pairTmaBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const PairTmaParams *>(raw);
  uint32_t bar = t.staticSharedBase();
  uint32_t tile = (t.dynamicSharedBase() + 127) & ~127u;
  bool leader = t.cluster_ctarank == 0;
  if (t.tid.x == 0 && leader)
    t.mbarrierInit(bar, 1, "mbarrier.init at pair.cute:3");
  t.clusterArrive("barrier.cluster.arrive at pair.cute:4");
  t.clusterWait("barrier.cluster.wait at pair.cute:4");
  if (t.tid.x == 0) {
    if (leader)
      t.mbarrierArriveExpectTx(bar, p.mode == 1 ? 512 : 1024,
                               "mbarrier.arrive.expect_tx at pair.cute:6");
    int32_t coords[2] = {0, int32_t(8 * t.cluster_ctarank)};
    uint32_t leaderBar =
        t.mapaShared(bar, p.mode == 2 ? t.cluster_ctarank : 0, "mapa at pair.cute:7");
    t.tmaLoadTilePair(tile, reinterpret_cast<uint64_t>(&p.tmap), coords, 2, leaderBar,
                      "cp.async.bulk.tensor.2d.cta_group::2 at pair.cute:8");
  }
  if (leader)
    t.mbarrierWaitParity(bar, 0, "mbarrier.try_wait at pair.cute:10");
  t.clusterArrive("barrier.cluster.arrive at pair.cute:11");
  t.clusterWait("barrier.cluster.wait at pair.cute:11");
  for (uint32_t i = t.tid.x; i < 128; i += 32) {
    uint32_t v = t.loadShared<uint32_t>(tile + 4 * i, "ld.shared at pair.cute:13");
    t.storeGlobal<uint32_t>(p.out + (128 * t.cluster_ctarank + i) * 4, v,
                            "st.global at pair.cute:14");
  }
}
const KernelDescriptor pairTmaKernel{"pair_tma", pairTmaBody, sizeof(PairTmaParams), true, 16};

struct PairTma {
  std::vector<uint32_t> in = std::vector<uint32_t>(256);
  std::vector<uint32_t> out = std::vector<uint32_t>(256, 0);
  PairTmaParams p{};
  MemoryMap map;
  LaunchConfig c = clusterConfig({2, 1, 1}, {32, 1, 1}, {2, 1, 1});
  PairTma() {
    for (uint32_t i = 0; i < in.size(); ++i)
      in[i] = 5 * i + 3;
    uint64_t dim[2] = {16, 16}, stride[1] = {64};
    uint32_t box[2] = {16, 8}, estride[2] = {1, 1};
    EXPECT_EQ(encodeTensorMapTiled(p.tmap, TmaDataType::Uint32, 2, in.data(), dim, stride, box,
                                   estride, TmaInterleave::None, TmaSwizzle::None,
                                   TmaL2Promotion::None, TmaOobFill::None),
              "");
    p.out = addressOf(out);
    addBuffer(map, in, "in");
    addBuffer(map, out, "out");
    c.dynamicSharedBytes = 1024;
  }
};

TEST(Cluster, PairTmaLoadsCompleteOnTheLeadersMbarrier) {
  PairTma pair;
  Status s = launch(pairTmaKernel, pair.c, &pair.p, pair.map);
  ASSERT_TRUE(bool(s)) << s.error();
  EXPECT_EQ(pair.out, pair.in);
}

TEST(Cluster, ReadingAPairLoadTheLeaderDidNotWaitForIsReported) {
  PairTma pair;
  pair.p.mode = 1; // the leader's phase completes with its own tile alone
  EXPECT_EQ(launchError(pairTmaKernel, pair.c, &pair.p, pair.map),
            "kernel 'pair_tma', CTA (1,0,0), thread (30,0,0) (warp 0, lane 30): ld.shared at "
            "pair.cute:13: 4-byte shared load at 0x4f8 touches shared memory that the TMA load "
            "'cp.async.bulk.tensor.2d.cta_group::2 at pair.cute:8' (issued by thread (0,0,0), "
            "warp 0 lane 0; 512 bytes to [0x480, 0x680) completing on mbarrier 0x400 of CTA "
            "rank 0 in its phase 1) is still writing; wait on that mbarrier phase "
            "(mbarrier.try_wait.parity) before touching the destination");
}

TEST(Cluster, APairLoadOnAnUninitialisedMbarrierIsReported) {
  PairTma pair;
  pair.p.mode = 2;
  EXPECT_EQ(launchError(pairTmaKernel, pair.c, &pair.p, pair.map),
            "kernel 'pair_tma', CTA (1,0,0), thread (0,0,0) (warp 0, lane 0): "
            "cp.async.bulk.tensor.2d.cta_group::2 at pair.cute:8: the load's mbarrier at 0x400 "
            "of CTA rank 1 was never initialised (mbarrier.init)");
}

} // namespace
} // namespace cutec::rt
