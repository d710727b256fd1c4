// Warp-collectives (the mechanism under shfl.sync, elect.sync, tcgen05.ld)
// and polling loops (the mechanism under mbarrier.try_wait): the collective
// runs once with every lane's operands, and broken kernels — a lane exiting
// before a .sync.aligned collective, lanes at different collectives, polling
// that can never succeed — are reported instead of hanging.
#include "LaunchTestSupport.h"

#include <atomic>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

struct OutParams {
  uint64_t out;
};

/// One lane's operands of the reversing shuffle below.
struct ShuffleOperands {
  uint32_t in, out;
};

std::atomic<int> collectiveRuns{0};

// out[thread] = the value of lane 31 - lane, exchanged through a collective
// (a shfl.sync.idx with a reversing source lane, as emitted code would do it).
void reverseBody(Thread &t, const void *params) {
  auto &p = *static_cast<const OutParams *>(params);
  ShuffleOperands ops{t.warpid * 1000 + t.laneid, 0};
  t.warpSync(0xFFFFFFFF, &ops, "shfl.sync.idx.b32 at shfl.cute:4", [](const WarpCollective &w) {
    ++collectiveRuns;
    for (uint32_t lane = 0; lane < 32; ++lane)
      static_cast<ShuffleOperands *>(w.laneData[lane])->out =
          static_cast<ShuffleOperands *>(w.laneData[31 - lane])->in;
  });
  uint32_t linear = t.ctaid.x * t.ntid.x + t.tid.x;
  t.storeGlobal<uint32_t>(p.out + linear * 4, ops.out, "st.global.u32 at shfl.cute:5");
}
const KernelDescriptor reverseKernel{"reverse", reverseBody, sizeof(OutParams), true, 0};

TEST(WarpSync, AllLanesArriveAndTheCollectiveRunsOnce) {
  std::vector<uint32_t> out(3 * 128);
  MemoryMap map;
  addBuffer(map, out, "out");
  OutParams params{addressOf(out)};
  collectiveRuns = 0;
  Status status = launch(reverseKernel, config({3, 1, 1}, {128, 1, 1}), &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  EXPECT_EQ(collectiveRuns, 3 * 4); // once per warp
  for (uint32_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out[i], (i % 128 / 32) * 1000 + 31 - i % 32) << "thread " << i;
}

// elect.sync over the 8 lanes a partial warp has: the lowest lane is chosen.
struct ElectOperands {
  bool elected;
};
void electBody(Thread &t, const void *params) {
  auto &p = *static_cast<const OutParams *>(params);
  uint32_t mask = t.warpid == 1 ? 0xFF : 0xFFFFFFFF;
  ElectOperands ops{false};
  t.warpSync(mask, &ops, "elect.sync at elect.cute:2", [](const WarpCollective &w) {
    static_cast<ElectOperands *>(w.laneData[__builtin_ctz(w.memberMask)])->elected = true;
  });
  t.storeGlobal<uint32_t>(p.out + t.tid.x * 4, ops.elected, "st.global.u32 at elect.cute:3");
}
const KernelDescriptor electKernel{"elect", electBody, sizeof(OutParams), true, 0};

TEST(WarpSync, PartialWarpsTakePartWithTheirOwnLanes) {
  std::vector<uint32_t> out(40, 7);
  MemoryMap map;
  addBuffer(map, out, "out");
  OutParams params{addressOf(out)};
  Status status = launch(electKernel, config({1, 1, 1}, {40, 1, 1}), &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  for (uint32_t i = 0; i < 40; ++i)
    EXPECT_EQ(out[i], i == 0 || i == 32 ? 1u : 0u) << "thread " << i;
}

// Broken: lane 5 leaves before a collective that needs all 32 lanes.
void laneExitsBody(Thread &t, const void *) {
  if (t.laneid == 5)
    return;
  ShuffleOperands ops{0, 0};
  t.warpSync(0xFFFFFFFF, &ops, "shfl.sync.idx.b32 at exit.cute:4", [](const WarpCollective &) {});
}
const KernelDescriptor laneExitsKernel{"lane_exits", laneExitsBody, 0, true, 0};

TEST(WarpSync, ALaneExitingBeforeTheCollectiveIsADeadlock) {
  MemoryMap map;
  EXPECT_EQ(launchError(laneExitsKernel, config({1, 1, 1}, {32, 1, 1}), nullptr, map),
            "kernel 'lane_exits', CTA (0,0,0): deadlock: no thread can proceed\n"
            "  warp 0 lanes 0-4,6-31: wait at warp-collective 'shfl.sync.idx.b32 at "
            "exit.cute:4' (membermask 0xffffffff); lanes 5 of its membermask exited\n"
            "  warp 0 lanes 5: exited");
}

// Broken: the two halves of a warp reach different collectives.
void divergentBody(Thread &t, const void *) {
  ShuffleOperands ops{0, 0};
  auto nothing = [](const WarpCollective &) {};
  if (t.laneid < 16)
    t.warpSync(0xFFFFFFFF, &ops, "shfl.sync.bfly.b32 at div.cute:3", nothing);
  else
    t.warpSync(0xFFFFFFFF, &ops, "shfl.sync.down.b32 at div.cute:5", nothing);
}
const KernelDescriptor divergentKernel{"divergent_shfl", divergentBody, 0, true, 0};

TEST(WarpSync, LanesAtDifferentCollectivesAreReported) {
  MemoryMap map;
  std::string error = launchError(divergentKernel, config({1, 1, 1}, {32, 1, 1}), nullptr, map);
  EXPECT_NE(error.find("thread (16,0,0) (warp 0, lane 16): shfl.sync.down.b32 at div.cute:5: "
                       "lanes of warp 0 diverged at a .sync.aligned warp-collective: lanes 0-15 "
                       "wait at 'shfl.sync.bfly.b32 at div.cute:3'"),
            std::string::npos)
      << error;
}

TEST(WarpSync, MembermaskNamingMissingLanesIsReported) {
  KernelDescriptor kernel{"missing_lanes",
                          [](Thread &t, const void *) {
                            ShuffleOperands ops{0, 0};
                            t.warpSync(0xFFFFFFFF, &ops, "elect.sync at m.cute:1",
                                       [](const WarpCollective &) {});
                          },
                          0, true, 0};
  MemoryMap map;
  std::string error = launchError(kernel, config({1, 1, 1}, {40, 1, 1}), nullptr, map);
  EXPECT_NE(error.find("thread (32,0,0) (warp 1, lane 0): elect.sync at m.cute:1: membermask "
                       "0xffffffff names lanes 8-31, which warp 1 does not have"),
            std::string::npos)
      << error;
}

// Polling: thread 0 waits for a flag in shared memory that thread 32 sets
// after writing a value: an mbarrier-style hand-over that must succeed.
void flagBody(Thread &t, const void *params) {
  auto &p = *static_cast<const OutParams *>(params);
  uint32_t flag = t.staticSharedBase(), data = flag + 4;
  if (t.tid.x == 32) {
    t.storeShared<uint32_t>(data, 1234, "st.shared.u32 at flag.cute:3");
    t.storeShared<uint32_t>(flag, 1, "st.shared.u32 at flag.cute:4");
  }
  if (t.tid.x != 0)
    return;
  while (t.loadShared<uint32_t>(flag, "ld.shared.u32 at flag.cute:7") != 1)
    t.yieldThread("wait for flag at flag.cute:7");
  uint32_t value = t.loadShared<uint32_t>(data, "ld.shared.u32 at flag.cute:8");
  t.storeGlobal<uint32_t>(p.out, value, "st.global.u32 at flag.cute:9");
}
const KernelDescriptor flagKernel{"flag", flagBody, sizeof(OutParams), true, 8};

TEST(Polling, APollerSeesAnotherThreadsStore) {
  std::vector<uint32_t> out(1);
  MemoryMap map;
  addBuffer(map, out, "out");
  OutParams params{addressOf(out)};
  Status status = launch(flagKernel, config({2, 1, 1}, {64, 1, 1}), &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  EXPECT_EQ(out[0], 1234u);
}

// Two threads take turns 3000 times, each polling for its turn: far more
// polling rounds than pollRoundLimit, but every round makes progress.
void pingPongBody(Thread &t, const void *params) {
  auto &p = *static_cast<const OutParams *>(params);
  uint32_t turn = t.staticSharedBase();
  if (t.tid.x == 0)
    t.storeShared<uint32_t>(turn, 0, "st.shared.u32 at pp.cute:2");
  t.barrierSync(0, 0, "bar.sync 0 at pp.cute:3");
  uint32_t me = t.tid.x;
  if (me >= 2)
    return;
  for (uint32_t i = 0; i < 3000; ++i) {
    while (t.loadShared<uint32_t>(turn, "ld.shared.u32 at pp.cute:6") != me)
      t.yieldThread("wait for turn at pp.cute:6");
    t.storeShared<uint32_t>(turn, 1 - me, "st.shared.u32 at pp.cute:7");
  }
  if (me == 0)
    t.storeGlobal<uint32_t>(p.out, 1, "st.global.u32 at pp.cute:9");
}
const KernelDescriptor pingPongKernel{"ping_pong", pingPongBody, sizeof(OutParams), true, 4};

TEST(Polling, PollersThatMakeProgressAreNotADeadlock) {
  std::vector<uint32_t> out(1);
  MemoryMap map;
  addBuffer(map, out, "out");
  OutParams params{addressOf(out)};
  Status status = launch(pingPongKernel, config({1, 1, 1}, {32, 1, 1}), &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  EXPECT_EQ(out[0], 1u);
}

// Broken: warp 1 polls a flag nobody sets; warp 0 waits at a barrier that
// needs warp 1.
void stuckPollBody(Thread &t, const void *) {
  if (t.warpid == 0) {
    t.barrierSync(1, 64, "bar.sync 1, 64 at stuck.cute:3");
    return;
  }
  while (t.loadShared<uint32_t>(t.staticSharedBase(), "ld.shared.u32 at stuck.cute:6") != 1)
    t.yieldThread("mbarrier.try_wait full[0] at stuck.cute:6");
}
const KernelDescriptor stuckPollKernel{"stuck_poll", stuckPollBody, 0, true, 4};

TEST(Polling, PollingWithoutProgressIsADeadlock) {
  MemoryMap map;
  LaunchConfig c = config({1, 1, 1}, {64, 1, 1});
  c.pollRoundLimit = 50;
  EXPECT_EQ(launchError(stuckPollKernel, c, nullptr, map),
            "kernel 'stuck_poll', CTA (0,0,0): deadlock: polling threads made no progress for 50 "
            "rounds while no other thread could run\n"
            "  warp 0 lanes 0-31: wait at barrier 1 'bar.sync 1, 64 at stuck.cute:3'\n"
            "  warp 1 lanes 0-31: poll 'mbarrier.try_wait full[0] at stuck.cute:6'\n"
            "  barrier 1 (expects 64 threads): 1 warp arrivals (warps 0)");
}

} // namespace
} // namespace cutec::rt
