// Cluster launch control in the emulator: the clusters a launch keeps
// pending, try_cancel responses that land like TMA loads (on their own CTA or
// multicast to the cluster), and the misuse the emulator reports: reading a
// response early, querying bytes no try_cancel wrote, asking a failed
// response for its CTA id, cancelling again after a failure, and responses
// left in flight or never completed.
#include "LaunchTestSupport.h"

#include "runtime/engine/Cluster.h"

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

TEST(PendingClusters, EachSlotTakesItsOwnClustersInOrder) {
  PendingClusters p(7, 3);
  EXPECT_EQ(p.take(1), 1u);
  EXPECT_EQ(p.take(1), 4u);
  EXPECT_EQ(p.take(0), 0u);
  EXPECT_EQ(p.take(1), std::nullopt);
  EXPECT_EQ(p.take(0), 3u);
  EXPECT_EQ(p.take(0), 6u);
  EXPECT_EQ(p.take(0), std::nullopt);
  EXPECT_EQ(p.take(2), 2u);
}

TEST(ClcResponse, DecodesWhatTryCancelWritesAndRefusesOtherBytes) {
  bool canceled = false;
  Dim3 first;
  EXPECT_EQ(decodeClcResponse(clcResponse(Dim3{4, 2, 1}), canceled, first), "");
  EXPECT_TRUE(canceled);
  EXPECT_EQ(first, (Dim3{4, 2, 1}));
  EXPECT_EQ(decodeClcResponse(clcResponse(std::nullopt), canceled, first), "");
  EXPECT_FALSE(canceled);
  EXPECT_EQ(decodeClcResponse(B128{{~0u, ~0u, ~0u, ~0u}}, canceled, first),
            "the operand is not a response that clusterlaunchcontrol.try_cancel wrote (words "
            "0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff); read it after its mbarrier phase "
            "completes");
}

// One warp per CTA walks tiles: its own (ctaid.x), then those of the
// clusters it cancels, counting each visit in out[tile] and recording in
// who[tile] the CTA that started the walk. Thread 0 of every CTA expects the
// 16 response bytes; thread 0 of rank 0 issues try_cancel (multicast in a
// cluster of several CTAs). The modes plant the bugs below (the reading
// mistakes in thread 0).
enum class Bug : uint32_t {
  None,
  ReadBeforeWait,
  QueryUnwrittenBytes,
  FirstCtaidOfFailure,
  CancelAfterFailure,
  MisalignedResponse,
  NoMbarrierInit,
  ExitWithResponseInFlight,
  NoExpectTx,
  TwoRequestsToOneResponse,
  PeerExitsBeforeMulticast,
};

struct ClcParams {
  uint64_t out, who;
  Bug bug;
};

void clcBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const ClcParams *>(raw);
  bool multicast = t.cluster_nctarank > 1;
  auto sync = [&] {
    if (multicast) {
      t.clusterArrive("barrier.cluster.arrive at clc.cute:2");
      t.clusterWait("barrier.cluster.wait at clc.cute:2");
    } else {
      t.barrierSync(0, 0, "bar.sync at clc.cute:2");
    }
  };
  uint32_t bar = t.staticSharedBase();
  uint32_t response = bar + (p.bug == Bug::MisalignedResponse ? 24 : 16);
  if (t.tid.x == 0 && p.bug != Bug::NoMbarrierInit)
    t.mbarrierInit(bar, 1, "mbarrier.init at clc.cute:3");
  sync();
  if (p.bug == Bug::PeerExitsBeforeMulticast) {
    if (t.cluster_ctarank == 1)
      return;
    sync(); // completes once rank 1 has exited: exited threads take no part
  }
  uint32_t tile = t.ctaid.x;
  for (uint32_t phase = 0;; phase ^= 1) {
    if (t.tid.x == 0) {
      uint64_t count = p.out + 4 * tile;
      t.storeGlobal<uint32_t>(count, t.loadGlobal<uint32_t>(count, "ld.global at clc.cute:6") + 1,
                              "st.global at clc.cute:6");
      t.storeGlobal<uint32_t>(p.who + 4 * tile, t.ctaid.x, "st.global at clc.cute:7");
      if (p.bug != Bug::NoExpectTx)
        t.mbarrierArriveExpectTx(bar, 16, "mbarrier.arrive.expect_tx at clc.cute:8");
      if (t.cluster_ctarank == 0)
        t.clcTryCancel(response, bar, multicast, "clusterlaunchcontrol.try_cancel at clc.cute:9");
      if (p.bug == Bug::TwoRequestsToOneResponse)
        t.clcTryCancel(response, bar, multicast, "clusterlaunchcontrol.try_cancel at clc.cute:10");
    }
    if (p.bug == Bug::ExitWithResponseInFlight)
      return;
    // Thread 0 makes the reading mistakes; the others wait as they should.
    if (t.tid.x != 0 || p.bug != Bug::ReadBeforeWait)
      t.mbarrierWaitParity(bar, phase, "mbarrier.try_wait at clc.cute:11");
    uint32_t from = t.tid.x == 0 && p.bug == Bug::QueryUnwrittenBytes ? response + 16 : response;
    B128 r = t.loadShared<B128>(from, "ld.shared.b128 at clc.cute:12");
    if (!t.clcIsCanceled(r, "clusterlaunchcontrol.query_cancel.is_canceled at clc.cute:13")) {
      if (p.bug == Bug::FirstCtaidOfFailure)
        t.clcFirstCtaid(r, "clusterlaunchcontrol.query_cancel.get_first_ctaid at clc.cute:14");
      if (p.bug == Bug::CancelAfterFailure && t.tid.x == 0 && t.cluster_ctarank == 0) {
        t.mbarrierArriveExpectTx(bar, 16, "mbarrier.arrive.expect_tx at clc.cute:15");
        t.clcTryCancel(response, bar, multicast, "clusterlaunchcontrol.try_cancel at clc.cute:16");
      }
      return;
    }
    Dim3 first = t.clcFirstCtaid(r, "clusterlaunchcontrol.query_cancel.get_first_ctaid at "
                                    "clc.cute:18");
    tile = first.x + t.cluster_ctarank;
    // Every thread of the cluster has read the response before it is reused.
    sync();
  }
}
const KernelDescriptor clcKernel{"clc", clcBody, sizeof(ClcParams), true, 48};

struct Walk {
  std::vector<uint32_t> out, who;
  ClcParams p{};
  MemoryMap map;
  LaunchConfig c;
  Walk(uint32_t tiles, uint32_t multiprocessors, Dim3 cluster = {1, 1, 1}, Bug bug = Bug::None)
      : out(tiles, 0), who(tiles, ~0u), c(config({tiles, 1, 1}, {32, 1, 1})) {
    p.out = addressOf(out);
    p.who = addressOf(who);
    p.bug = bug;
    addBuffer(map, out, "out");
    addBuffer(map, who, "who");
    c.cluster = cluster;
    c.multiprocessors = multiprocessors;
  }
};

TEST(ClusterLaunchControl, FewResidentCtasWalkEveryTileOnceAndCanceledClustersNeverRun) {
  for (unsigned workers : {1u, 2u, 5u}) {
    Walk w(10, 3);
    w.c.workerThreads = workers;
    Status s = launch(clcKernel, w.c, &w.p, w.map);
    ASSERT_TRUE(bool(s)) << s.error();
    EXPECT_EQ(w.out, std::vector<uint32_t>(10, 1));
    // Slot s (of 3) starts cluster s and cancels s + 3, s + 6, ...
    EXPECT_EQ(w.who, (std::vector<uint32_t>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0}));
  }
}

TEST(ClusterLaunchControl, EveryClusterStartsWhenThereIsRoomForAll) {
  Walk w(6, 148);
  Status s = launch(clcKernel, w.c, &w.p, w.map);
  ASSERT_TRUE(bool(s)) << s.error();
  EXPECT_EQ(w.out, std::vector<uint32_t>(6, 1));
  EXPECT_EQ(w.who, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(ClusterLaunchControl, AMulticastResponseGivesEveryCtaOfTheClusterTheCanceledCluster) {
  // 6 clusters of 2 on 4 SMs: 2 slots.
  for (unsigned workers : {1u, 2u}) {
    Walk w(12, 4, {2, 1, 1});
    w.c.workerThreads = workers;
    Status s = launch(clcKernel, w.c, &w.p, w.map);
    ASSERT_TRUE(bool(s)) << s.error();
    EXPECT_EQ(w.out, std::vector<uint32_t>(12, 1));
    EXPECT_EQ(w.who, (std::vector<uint32_t>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}));
  }
}

const std::string kThread0 = "kernel 'clc', CTA (0,0,0), thread (0,0,0) (warp 0, lane 0): ";

TEST(ClusterLaunchControl, ReadingTheResponseBeforeItsPhaseCompletesIsReported) {
  Walk w(4, 2, {1, 1, 1}, Bug::ReadBeforeWait);
  EXPECT_EQ(launchError(clcKernel, w.c, &w.p, w.map),
            kThread0 + "ld.shared.b128 at clc.cute:12: 16-byte shared load at 0x410 touches "
                       "shared memory that the try_cancel response 'clusterlaunchcontrol."
                       "try_cancel at clc.cute:9' (issued by thread (0,0,0), warp 0 lane 0; 16 "
                       "bytes to [0x410, 0x420) completing on mbarrier 0x400 in its phase 0) is "
                       "still writing; wait on that mbarrier phase (mbarrier.try_wait.parity) "
                       "before touching the destination");
}

TEST(ClusterLaunchControl, QueryingBytesNoTryCancelWroteIsReported) {
  Walk w(4, 2, {1, 1, 1}, Bug::QueryUnwrittenBytes);
  EXPECT_EQ(launchError(clcKernel, w.c, &w.p, w.map),
            kThread0 + "clusterlaunchcontrol.query_cancel.is_canceled at clc.cute:13: the "
                       "operand is not a response that clusterlaunchcontrol.try_cancel wrote "
                       "(words 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff); read it after "
                       "its mbarrier phase completes");
}

TEST(ClusterLaunchControl, TheFirstCtaOfAFailedResponseIsReported) {
  Walk w(4, 4, {1, 1, 1}, Bug::FirstCtaidOfFailure);
  EXPECT_EQ(launchError(clcKernel, w.c, &w.p, w.map),
            kThread0 + "clusterlaunchcontrol.query_cancel.get_first_ctaid at clc.cute:14: "
                       "get_first_ctaid of a response that canceled no cluster: its result is "
                       "undefined (PTX ISA); ask query_cancel.is_canceled first");
}

TEST(ClusterLaunchControl, CancellingAgainAfterSeeingAFailureIsReported) {
  Walk w(4, 4, {1, 1, 1}, Bug::CancelAfterFailure);
  EXPECT_EQ(launchError(clcKernel, w.c, &w.p, w.map),
            kThread0 + "clusterlaunchcontrol.try_cancel at clc.cute:16: this CTA has already "
                       "seen a try_cancel fail (query_cancel.is_canceled gave false): another "
                       "try_cancel is undefined (PTX ISA)");
}

TEST(ClusterLaunchControl, AMisalignedResponseIsReported) {
  Walk w(4, 4, {1, 1, 1}, Bug::MisalignedResponse);
  EXPECT_EQ(launchError(clcKernel, w.c, &w.p, w.map),
            kThread0 + "clusterlaunchcontrol.try_cancel at clc.cute:9: the response address "
                       "0x418 is not 16-byte aligned");
}

TEST(ClusterLaunchControl, ASecondRequestToAResponseInFlightIsReported) {
  Walk w(4, 4, {1, 1, 1}, Bug::TwoRequestsToOneResponse);
  EXPECT_EQ(launchError(clcKernel, w.c, &w.p, w.map),
            kThread0 + "clusterlaunchcontrol.try_cancel at clc.cute:10: the response writes "
                       "shared byte 0x410, which the try_cancel response 'clusterlaunchcontrol."
                       "try_cancel at clc.cute:9' (issued by thread (0,0,0), warp 0 lane 0; 16 "
                       "bytes to [0x410, 0x420) completing on mbarrier 0x400 in its phase 0) "
                       "still in flight writes too");
}

TEST(ClusterLaunchControl, AMulticastRequestAfterAPeerExitedIsReported) {
  Walk w(4, 4, {2, 1, 1}, Bug::PeerExitsBeforeMulticast);
  EXPECT_EQ(launchError(clcKernel, w.c, &w.p, w.map),
            kThread0 + "clusterlaunchcontrol.try_cancel at clc.cute:9: CTA (1,0,0) (rank 1) of "
                       "the cluster has exited: a try_cancel with .multicast::cluster::all is "
                       "undefined then (PTX ISA)");
}

TEST(ClusterLaunchControl, AnUninitialisedMbarrierIsReported) {
  Walk w(4, 4, {1, 1, 1}, Bug::NoMbarrierInit);
  // The last thread to reach the bar.sync runs on first.
  EXPECT_EQ(launchError(clcKernel, w.c, &w.p, w.map),
            "kernel 'clc', CTA (0,0,0), thread (31,0,0) (warp 0, lane 31): mbarrier.try_wait at "
            "clc.cute:11: mbarrier.try_wait on shared address 0x400, where no mbarrier.init "
            "initialised an mbarrier");
}

TEST(ClusterLaunchControl, ACtaThatEndsWithAResponseInFlightIsReported) {
  Walk w(4, 4, {1, 1, 1}, Bug::ExitWithResponseInFlight);
  EXPECT_EQ(launchError(clcKernel, w.c, &w.p, w.map),
            "kernel 'clc', CTA (0,0,0): the CTA ended with 1 try_cancel response(s) in flight, "
            "whose data no thread waited for (a load lands when a thread waits on its mbarrier "
            "phase):\n  'clusterlaunchcontrol.try_cancel at clc.cute:9' (issued by thread "
            "(0,0,0), warp 0 lane 0; 16 bytes to [0x410, 0x420) completing on mbarrier 0x400 in "
            "its phase 0); mbarrier 0x400: phase 0 (parity 0), 0 of 1 arrivals pending, 16 "
            "transaction bytes pending");
}

TEST(ClusterLaunchControl, AResponseNobodyExpectsIsADeadlock) {
  // Without expect_tx the phase waits for an arrival that never comes.
  Walk w(4, 4, {1, 1, 1}, Bug::NoExpectTx);
  EXPECT_EQ(launchError(clcKernel, w.c, &w.p, w.map),
            "kernel 'clc', CTA (0,0,0): deadlock: polling threads made no progress for 1000 "
            "rounds while no other thread could run\n"
            "  warp 0 lanes 0-31: wait on mbarrier 0x400 for the phase with parity 0 "
            "'mbarrier.try_wait at clc.cute:11'\n"
            "  mbarrier 0x400: phase 0 (parity 0), 1 of 1 arrivals pending, 0 transaction bytes "
            "pending\n"
            "  try_cancel response in flight: 'clusterlaunchcontrol.try_cancel at clc.cute:9' "
            "(issued by thread (0,0,0), warp 0 lane 0; 16 bytes to [0x410, 0x420) completing on "
            "mbarrier 0x400 in its phase 0)");
}

} // namespace
} // namespace cutec::rt
