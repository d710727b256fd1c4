// Schedule exploration (runtime/engine/Schedule.h, ScheduleExploration.h) and the
// tcgen05.ld/st in flight until their warp's wait (runtime/engine/CtaTmemLdSt.cpp):
// seed 0 is the fixed order, other seeds are reproducible permutations, a
// result that depends on the schedule is reported with its seed, and a
// warp's TMEM access races with another warp's until it waits.
#include "LaunchTestSupport.h"

#include "runtime/engine/Schedule.h"
#include "runtime/engine/ScheduleExploration.h"
#include "runtime/engine/Tcgen05Collectives.h"

#include <algorithm>
#include <numeric>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

TEST(Schedule, SeedZeroIsTheFixedOrder) {
  Schedule s;
  s.reset(0, 5, 2, 4);
  EXPECT_TRUE(s.fixed());
  std::vector<uint32_t> identity(128);
  std::iota(identity.begin(), identity.end(), 0u);
  EXPECT_EQ(s.threadOrder(0, 128), identity);
  EXPECT_EQ(s.rankOrder(), (std::vector<uint32_t>{0, 1}));
  EXPECT_FALSE(s.preempt(0, 0));
  EXPECT_FALSE(s.delayLanding());
}

TEST(Schedule, ASeedGivesTheSameOrdersEveryTime) {
  for (uint64_t seed : {1, 2, 77}) {
    Schedule a, b;
    a.reset(seed, 3, 2, 4);
    b.reset(seed, 3, 2, 4);
    EXPECT_FALSE(a.fixed());
    for (int round = 0; round < 5; ++round) {
      std::vector<uint32_t> order = a.threadOrder(1, 128);
      EXPECT_EQ(order, b.threadOrder(1, 128));
      // Each thread at most once, and the warps it leaves out (stalled for
      // the round) wholly.
      std::vector<uint32_t> perWarp(4, 0);
      std::vector<bool> seen(128, false);
      for (uint32_t i : order) {
        ASSERT_LT(i, 128u);
        EXPECT_FALSE(seen[i]) << "thread " << i << " twice";
        seen[i] = true;
        ++perWarp[i / 32];
      }
      for (uint32_t n : perWarp)
        EXPECT_TRUE(n == 0 || n == 32) << n << " lanes of a warp";
      EXPECT_EQ(a.preempt(1, round), b.preempt(1, round));
    }
  }
  // Clusters draw from different streams.
  Schedule c, d;
  c.reset(1, 0, 1, 4);
  d.reset(1, 1, 1, 4);
  EXPECT_NE(c.threadOrder(0, 128), d.threadOrder(0, 128));
}

// Thread 1 reads a shared word that thread 0 writes after its mbarrier
// arrival, without waiting: the value it sees depends on the schedule.
struct RaceParams {
  uint64_t out;
};

void racyBody(Thread &t, const void *raw) {
  const auto &p = *static_cast<const RaceParams *>(raw);
  const uint32_t word = t.dynamicSharedBase(), bar = word + 8;
  if (t.tid.x == 0) {
    t.storeShared<uint32_t>(word, 1, "st.shared at race.cute:3");
    t.mbarrierInit(bar, 1, "mbarrier.init at race.cute:4");
  }
  t.barrierSync(0, 0, "bar.sync at race.cute:5");
  if (t.tid.x == 0) {
    t.mbarrierArrive(bar, "mbarrier.arrive at race.cute:7");
    t.storeShared<uint32_t>(word, 2, "st.shared at race.cute:8");
  }
  if (t.tid.x == 1) {
    t.mbarrierWaitParity(bar, 0, "mbarrier.try_wait at race.cute:10");
    t.storeGlobal<uint32_t>(p.out, t.loadShared<uint32_t>(word, "ld.shared"), "st.global");
  }
}

const KernelDescriptor kRacyKernel{"racy", racyBody, sizeof(RaceParams), /*usesBarriers=*/true,
                                   /*staticSharedBytes=*/0};

TEST(ScheduleExploration, AResultThatDependsOnTheScheduleIsARace) {
  std::vector<uint32_t> out(1, 0);
  MemoryMap map;
  addBuffer(map, out, "out");
  RaceParams params{addressOf(out)};
  LaunchConfig cfg = config({1, 1, 1}, {32, 1, 1}, 1);
  cfg.dynamicSharedBytes = 16;
  // The fixed schedule runs thread 0 to its end first.
  ASSERT_TRUE(bool(launch(kRacyKernel, cfg, &params, map)));
  EXPECT_EQ(out[0], 2u);
  Result<uint32_t> s = launchSchedules(kRacyKernel, cfg, &params, map, 40, 0);
  ASSERT_FALSE(bool(s));
  EXPECT_NE(s.error().find("wrote different results than the fixed schedule (seed 0): buffer "
                           "'out' byte 0 is 0x1 after this schedule, 0x2 after the fixed one"),
            std::string::npos)
      << s.error();
  EXPECT_NE(s.error().find("reproduce it alone with --schedules=1 --seed="), std::string::npos);
}

// Warp 0 stores to TMEM lanes 0-31 (or loads them), then warp 4, whose
// lane quarter is the same, stores there after a bar.sync; warp 0 waits for
// its own access before the bar.sync only when `wait` (with `oneLaneWaits`,
// lane 0 alone). With `deallocAtOnce` warp 0 deallocates right after its
// access instead (and leaves).
struct TmemParams {
  bool load, wait, deallocAtOnce, oneLaneWaits;
};

void tmemBody(Thread &t, const void *raw) {
  const auto &p = *static_cast<const TmemParams *>(raw);
  const uint32_t holder = t.dynamicSharedBase();
  if (t.warpid == 0)
    t.tcgen05Alloc(holder, 32, "tcgen05.alloc at tmem.cute:2");
  t.barrierSync(0, 0, "bar.sync at tmem.cute:3");
  const uint32_t taddr = t.loadShared<uint32_t>(holder, "ld.shared");
  uint32_t regs[4] = {1, 2, 3, 4};
  const TmemFragmentForm form{TmemLdStShape::S32x32b, 4, false, 0};
  if (t.warpid == 0) {
    if (p.load)
      warpSyncTcgen05Ld(t, taddr, regs, form, "tcgen05.ld at tmem.cute:8");
    else
      warpSyncTcgen05St(t, taddr, regs, form, "tcgen05.st at tmem.cute:10");
    bool waits = p.wait && (!p.oneLaneWaits || t.laneid == 0);
    if (waits && p.load)
      t.tcgen05WaitLd("tcgen05.wait::ld");
    if (waits && !p.load)
      t.tcgen05WaitSt("tcgen05.wait::st");
    if (p.deallocAtOnce) {
      t.tcgen05Dealloc(taddr, 32, "tcgen05.dealloc at tmem.cute:9");
      return;
    }
  }
  t.barrierSync(0, 0, "bar.sync at tmem.cute:11");
  if (t.warpid == 4)
    warpSyncTcgen05St(t, taddr, regs, form, "tcgen05.st at tmem.cute:13");
  if (t.warpid == 4)
    t.tcgen05WaitSt("tcgen05.wait::st");
  t.barrierSync(0, 0, "bar.sync at tmem.cute:18");
  if (t.warpid == 0)
    t.tcgen05Dealloc(taddr, 32, "tcgen05.dealloc at tmem.cute:20");
}

const KernelDescriptor kTmemKernel{"tmem_in_flight", tmemBody, sizeof(TmemParams),
                                   /*usesBarriers=*/true, /*staticSharedBytes=*/0};

std::string runTmem(bool load, bool wait, bool deallocAtOnce = false, bool oneLaneWaits = false) {
  MemoryMap map;
  TmemParams params{load, wait, deallocAtOnce, oneLaneWaits};
  LaunchConfig cfg = config({1, 1, 1}, {160, 1, 1}, 1);
  cfg.dynamicSharedBytes = 16;
  Status s = launch(kTmemKernel, cfg, &params, map);
  return s ? "" : s.error();
}

TEST(TmemInFlight, AStoreOverALoadNotWaitedForIsReported) {
  EXPECT_NE(runTmem(/*load=*/true, /*wait=*/false)
                .find("tcgen05.st at tmem.cute:13: the store writes TMEM lanes [0,32) columns "
                      "[0,4), which 'tcgen05.ld at tmem.cute:8' (warp 0; reads TMEM lanes "
                      "[0,32) columns [0,4)) may still be reading: warp 0 has not executed "
                      "tcgen05.wait::ld since"),
            std::string::npos)
      << runTmem(true, false);
}

// wait::ld is .sync.aligned: one lane's wait does not complete the warp's
// load.
TEST(TmemInFlight, OneLanesWaitLeavesTheWarpsLoadInFlight) {
  std::string error = runTmem(/*load=*/true, /*wait=*/true, /*deallocAtOnce=*/false,
                              /*oneLaneWaits=*/true);
  EXPECT_NE(error.find("which 'tcgen05.ld at tmem.cute:8' (warp 0; reads TMEM lanes [0,32) "
                       "columns [0,4)) may still be reading"),
            std::string::npos)
      << error;
}

TEST(TmemInFlight, AStoreOverAStoreNotWaitedForIsReported) {
  EXPECT_NE(runTmem(/*load=*/false, /*wait=*/false)
                .find("which 'tcgen05.st at tmem.cute:10' (warp 0; writes TMEM lanes [0,32) "
                      "columns [0,4)) may still be writing: warp 0 has not executed "
                      "tcgen05.wait::st since"),
            std::string::npos)
      << runTmem(false, false);
}

TEST(TmemInFlight, ADeallocBeforeTheWarpsOwnWaitIsReported) {
  EXPECT_NE(runTmem(/*load=*/true, /*wait=*/false, /*deallocAtOnce=*/true)
                .find("tcgen05.dealloc at tmem.cute:9: tcgen05.dealloc frees TMEM lanes [0,128) "
                      "columns [0,32), which 'tcgen05.ld at tmem.cute:8' (warp 0; reads TMEM "
                      "lanes [0,32) columns [0,4)) may still be reading"),
            std::string::npos)
      << runTmem(true, false, true);
}

TEST(TmemInFlight, AWaitBeforeTheBarrierCompletesTheAccess) {
  EXPECT_EQ(runTmem(/*load=*/true, /*wait=*/true), "");
  EXPECT_EQ(runTmem(/*load=*/false, /*wait=*/true), "");
}

} // namespace
} // namespace cutec::rt
