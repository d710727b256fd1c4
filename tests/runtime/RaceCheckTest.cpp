// Launches under the data-race detector (LaunchConfig::raceCheck): a hand-
// over through shared memory with each synchronisation edge the detector
// models, and without one; CTAs sharing global memory plainly or through
// atomics; the check off by default.
#include "LaunchTestSupport.h"

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;

/// Launches `kernel` with `params` whose hand-over writes 42 to the one
/// word of `out`: "" if it ran (and then the word must be 42), else the
/// error.
std::string launchHandover(const KernelDescriptor &kernel, const LaunchConfig &c, void *params,
                           const MemoryMap &map, const std::vector<uint32_t> &out) {
  Status status = launch(kernel, c, params, map);
  if (status) {
    EXPECT_EQ(out[0], 42u);
  }
  return status ? "" : status.error();
}

enum class Sync : uint32_t { None, BarSync, BarArrive, Mbarrier, WarpCollective };

struct HandoverParams {
  uint64_t out;
  Sync sync;
  uint32_t reader; // the thread that reads what thread 0 wrote
};

// Thread 0 writes a shared word, thread `reader` reads it and stores it to
// global memory, ordered by `sync` (or not at all).
void handoverBody(Thread &t, const void *params) {
  auto &p = *static_cast<const HandoverParams *>(params);
  uint32_t word = t.staticSharedBase() + 16, bar = t.staticSharedBase();
  if (p.sync == Sync::Mbarrier) {
    if (t.tid.x == 0)
      t.mbarrierInit(bar, 1, "mbarrier.init at h.cute:1:1");
    t.barrierSync(0, 0, "bar.sync 0 at h.cute:2:1");
  }
  if (t.tid.x == 0) {
    t.storeShared<uint32_t>(word, 42, "st.shared.u32 at h.cute:3:5");
    if (p.sync == Sync::Mbarrier)
      t.mbarrierArrive(bar, "mbarrier.arrive at h.cute:4:5");
  }
  switch (p.sync) {
  case Sync::BarSync:
    t.barrierSync(1, 0, "bar.sync 1 at h.cute:5:1");
    break;
  case Sync::BarArrive:
    if (t.warpid == 0)
      t.barrierArrive(1, 64, "bar.arrive 1, 64 at h.cute:6:5");
    else
      t.barrierSync(1, 64, "bar.sync 1, 64 at h.cute:7:5");
    break;
  case Sync::Mbarrier:
    if (t.tid.x == p.reader)
      t.mbarrierWaitParity(bar, 0, "mbarrier.try_wait.parity at h.cute:8:5");
    break;
  case Sync::WarpCollective:
    if (t.warpid == 0)
      t.warpSync(~0u, nullptr, "bar.warp.sync at h.cute:9:5", [](const WarpCollective &) {});
    break;
  case Sync::None:
    break;
  }
  if (t.tid.x == p.reader) {
    uint32_t v = t.loadShared<uint32_t>(word, "ld.shared.u32 at h.cute:10:9");
    t.storeGlobal<uint32_t>(p.out, v, "st.global.u32 at h.cute:11:5");
  }
}
const KernelDescriptor handoverKernel{"handover", handoverBody, sizeof(HandoverParams), true, 32};

std::string handover(Sync sync, uint32_t reader, bool raceCheck = true) {
  std::vector<uint32_t> out(1, 0);
  MemoryMap map;
  addBuffer(map, out, "out");
  HandoverParams params{addressOf(out), sync, reader};
  LaunchConfig c = config({1, 1, 1}, {64, 1, 1}, 1);
  c.raceCheck = raceCheck;
  return launchHandover(handoverKernel, c, &params, map, out);
}

TEST(RaceCheck, AnUnsynchronisedHandoverIsReportedThoughItsResultIsRight) {
  // The fixed schedule runs thread 0 first, so the value arrives; nothing
  // orders the two accesses all the same.
  EXPECT_EQ(handover(Sync::None, 33, /*raceCheck=*/false), "");
  std::string e = handover(Sync::None, 33);
  EXPECT_NE(e.find("thread (33,0,0) (warp 1, lane 1): ld.shared.u32 at h.cute:10:9: data race: "
                   "this 4-byte shared load at 0x410 reads shared byte 0x410, which thread "
                   "(0,0,0), warp 0 lane 0 wrote with 'st.shared.u32 at h.cute:3:5', and no "
                   "bar.sync, mbarrier wait, warp collective or barrier.cluster orders this "
                   "read after that write"),
            std::string::npos)
      << e;
  // Lanes of one warp are not ordered without a warp collective either.
  EXPECT_NE(handover(Sync::None, 1).find("data race"), std::string::npos);
}

TEST(RaceCheck, EachSynchronisationOrdersTheHandover) {
  EXPECT_EQ(handover(Sync::BarSync, 33), "");
  EXPECT_EQ(handover(Sync::BarArrive, 33), "");
  // Each lane waits at a barrier instruction for its warp's arrival: the
  // lanes meet there.
  EXPECT_EQ(handover(Sync::BarArrive, 1), "");
  EXPECT_EQ(handover(Sync::Mbarrier, 33), "");
  EXPECT_EQ(handover(Sync::WarpCollective, 1), "");
  // A warp collective orders its own lanes only.
  EXPECT_NE(handover(Sync::WarpCollective, 33).find("data race"), std::string::npos);
}

struct ClusterParams {
  uint64_t out;
  uint32_t mode; // 0: no synchronisation, 1: barrier.cluster, 2: a remote mbarrier arrival
                 // with .release.cluster, 3: one that releases at CTA scope
};

// Thread 0 of CTA rank 0 stores a shared word; thread 0 of rank 1 loads it
// through .shared::cluster.
void clusterHandoverBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const ClusterParams *>(raw);
  uint32_t bar = t.staticSharedBase(), word = bar + 16;
  if (t.tid.x == 0)
    t.mbarrierInit(bar, 1, "mbarrier.init at c.cute:1:5");
  t.clusterArrive("barrier.cluster.arrive at c.cute:2:1");
  t.clusterWait("barrier.cluster.wait at c.cute:2:1");
  if (t.cluster_ctarank == 0 && t.tid.x == 0) {
    t.storeShared<uint32_t>(word, 42, "st.shared.u32 at c.cute:3:5");
    if (p.mode >= 2)
      t.mbarrierArriveCluster(t.mapaShared(bar, 1, "mapa at c.cute:4:9"),
                              "mbarrier.arrive.shared::cluster at c.cute:4:5",
                              /*releaseCluster=*/p.mode == 2);
  }
  if (p.mode == 1) {
    t.clusterArrive("barrier.cluster.arrive at c.cute:5:1");
    t.clusterWait("barrier.cluster.wait at c.cute:5:1");
  }
  if (t.cluster_ctarank == 1 && t.tid.x == 0) {
    if (p.mode >= 2)
      t.mbarrierWaitParity(bar, 0, "mbarrier.try_wait.parity at c.cute:6:5");
    uint32_t v = t.loadSharedCluster<uint32_t>(t.mapaShared(word, 0, "mapa at c.cute:7:9"),
                                               "ld.shared::cluster.u32 at c.cute:7:9");
    t.storeGlobal<uint32_t>(p.out, v, "st.global.u32 at c.cute:8:5");
  }
  t.clusterArrive("barrier.cluster.arrive at c.cute:9:1");
  t.clusterWait("barrier.cluster.wait at c.cute:9:1");
}
const KernelDescriptor clusterHandoverKernel{"cluster_handover", clusterHandoverBody,
                                             sizeof(ClusterParams), true, 32};

std::string clusterHandover(uint32_t mode) {
  std::vector<uint32_t> out(1, 0);
  MemoryMap map;
  addBuffer(map, out, "out");
  ClusterParams params{addressOf(out), mode};
  LaunchConfig c = config({2, 1, 1}, {32, 1, 1}, 1);
  c.cluster = {2, 1, 1};
  c.raceCheck = true;
  return launchHandover(clusterHandoverKernel, c, &params, map, out);
}

TEST(RaceCheck, TheClusterBarrierAndRemoteArrivalsOrderCtasOfACluster) {
  std::string e = clusterHandover(0);
  EXPECT_NE(e.find("CTA (1,0,0), thread (0,0,0) (warp 0, lane 0): ld.shared::cluster.u32 at "
                   "c.cute:7:9: data race: this 4-byte shared load at 0x410 of CTA rank 0 reads "
                   "shared byte 0x410, which CTA (0,0,0) thread (0,0,0), warp 0 lane 0 wrote "
                   "with 'st.shared.u32 at c.cute:3:5', and no bar.sync"),
            std::string::npos)
      << e;
  EXPECT_EQ(clusterHandover(1), "");
  EXPECT_EQ(clusterHandover(2), "");
  // A remote arrival that releases at CTA scope orders nothing for the peer.
  EXPECT_NE(clusterHandover(3).find("wrote with 'st.shared.u32 at c.cute:3:5', and no bar.sync"),
            std::string::npos);
}

struct SharedGlobalParams {
  uint64_t in, out;
  uint32_t mode;
};

// mode 0: every CTA stores its index to out[0]; 1: every CTA adds to out[0]
// atomically; 2: CTA 1 reads out[0], which CTA 0 stores; 3: every CTA reads
// in[0] and stores to its own out[ctaid]; 4: CTA 0 stores out[0] plainly, CTA
// 1 adds to it atomically.
void sharedGlobalBody(Thread &t, const void *params) {
  auto &p = *static_cast<const SharedGlobalParams *>(params);
  if (t.tid.x != 0)
    return;
  uint32_t cta = t.ctaid.x;
  switch (p.mode) {
  case 0:
    t.storeGlobal<uint32_t>(p.out, cta, "st.global.u32 at g.cute:1:5");
    break;
  case 1:
    t.atomicGlobal(
        p.out, [](uint32_t v) { return v + 1; }, "red.global.add.u32 at g.cute:2:5");
    break;
  case 2:
    if (cta == 0)
      t.storeGlobal<uint32_t>(p.out, 7, "st.global.u32 at g.cute:3:5");
    else
      t.storeGlobal<uint32_t>(p.out + 4,
                              t.loadGlobal<uint32_t>(p.out, "ld.global.u32 at g.cute:4:9"),
                              "st.global.u32 at g.cute:4:5");
    break;
  case 3:
    t.storeGlobal<uint32_t>(p.out + 4 * cta,
                            t.loadGlobal<uint32_t>(p.in, "ld.global.u32 at g.cute:5:9"),
                            "st.global.u32 at g.cute:5:5");
    break;
  case 4:
    if (cta == 0)
      t.storeGlobal<uint32_t>(p.out, 7, "st.global.u32 at g.cute:6:5");
    else
      t.atomicGlobal(
          p.out, [](uint32_t v) { return v + 1; }, "red.global.add.u32 at g.cute:7:5");
    break;
  }
}
const KernelDescriptor sharedGlobalKernel{"shared_global", sharedGlobalBody,
                                          sizeof(SharedGlobalParams), false, 0};

std::string sharedGlobal(uint32_t mode, unsigned workers) {
  std::vector<uint32_t> in(1, 5), out(4, 0);
  MemoryMap map;
  addBuffer(map, in, "in");
  addBuffer(map, out, "out");
  SharedGlobalParams params{addressOf(in), addressOf(out), mode};
  LaunchConfig c = config({4, 1, 1}, {32, 1, 1}, workers);
  c.raceCheck = true;
  Status status = launch(sharedGlobalKernel, c, &params, map);
  return status ? "" : status.error();
}

TEST(RaceCheck, CtasThatShareGlobalMemoryPlainlyRace) {
  std::string e = sharedGlobal(0, 1);
  EXPECT_NE(e.find("CTA (1,0,0), thread (0,0,0) (warp 0, lane 0): st.global.u32 at g.cute:1:5: "
                   "data race: this 4-byte global store at "),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("writes byte 0 of buffer 'out', which thread (0,0,0), warp 0 lane 0 of CTA "
                   "(0,0,0) wrote with 'st.global.u32 at g.cute:1:5': CTAs that are not in one "
                   "cluster are never ordered within a launch"),
            std::string::npos)
      << e;
  EXPECT_NE(sharedGlobal(2, 1).find("reads byte 0 of buffer 'out', which thread (0,0,0), warp 0 "
                                    "lane 0 of CTA (0,0,0) wrote"),
            std::string::npos);
  EXPECT_NE(sharedGlobal(4, 1).find("data race: this 4-byte global atomic"), std::string::npos);
  // On several workers the race is found too (which CTA finds it may vary).
  EXPECT_NE(sharedGlobal(0, 4).find("data race"), std::string::npos);
}

TEST(RaceCheck, AtomicsAndSharedReadsAcrossCtasAreFine) {
  EXPECT_EQ(sharedGlobal(1, 4), "");
  EXPECT_EQ(sharedGlobal(3, 4), "");
}

} // namespace
} // namespace cutec::rt
