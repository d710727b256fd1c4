// Kernels with bar.sync / bar.arrive: a shared-memory tree reduction with
// exact results, producer/consumer hand-over, PTX's arrival rule for exited
// threads, and deliberately broken kernels whose deadlock or misuse must be
// reported, never hung.
#include "LaunchTestSupport.h"

#include <numeric>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

struct ReduceParams {
  uint64_t in, out;
};

// out[cta] = sum of the CTA's ntid.x inputs: a tree over dynamic shared
// memory with a barrier after each level; the CTA's result goes through a
// static shared word.
void reduceBody(Thread &t, const void *params) {
  auto &p = *static_cast<const ReduceParams *>(params);
  uint32_t r1 = t.tid.x;
  uint32_t r2 = t.ctaid.x * t.ntid.x + r1;
  uint32_t r3 = t.loadGlobal<uint32_t>(p.in + uint64_t(r2) * 4, "ld.global.u32 at red.cute:3");
  uint32_t r4 = t.dynamicSharedBase() + r1 * 4;
  t.storeShared<uint32_t>(r4, r3, "st.shared.u32 at red.cute:4");
  t.barrierSync(0, 0, "bar.sync 0 at red.cute:5");
  for (uint32_t r5 = t.ntid.x / 2; r5 > 0; r5 /= 2) {
    if (r1 < r5) {
      uint32_t r6 = t.loadShared<uint32_t>(r4, "ld.shared.u32 at red.cute:7");
      uint32_t r7 = t.loadShared<uint32_t>(r4 + r5 * 4, "ld.shared.u32 at red.cute:7");
      t.storeShared<uint32_t>(r4, r6 + r7, "st.shared.u32 at red.cute:7");
    }
    t.barrierSync(0, 0, "bar.sync 0 at red.cute:8");
  }
  if (r1 == 0) {
    uint32_t r8 = t.loadShared<uint32_t>(t.dynamicSharedBase(), "ld.shared.u32 at red.cute:9");
    t.storeShared<uint32_t>(t.staticSharedBase(), r8, "st.shared.u32 at red.cute:9");
  }
  t.barrierSync(0, 0, "bar.sync 0 at red.cute:10");
  if (r1 == t.ntid.x - 1) {
    uint32_t r9 = t.loadShared<uint32_t>(t.staticSharedBase(), "ld.shared.u32 at red.cute:11");
    t.storeGlobal<uint32_t>(p.out + uint64_t(t.ctaid.x) * 4, r9, "st.global.u32 at red.cute:11");
  }
}
const KernelDescriptor reduceKernel{"reduce", reduceBody, sizeof(ReduceParams), true, 4};

std::vector<uint32_t> runReduce(uint32_t ctas, uint32_t threads, unsigned workers,
                                const std::vector<uint32_t> &in) {
  std::vector<uint32_t> input = in, out(ctas, 0);
  MemoryMap map;
  addBuffer(map, input, "in");
  addBuffer(map, out, "out");
  ReduceParams params{addressOf(input), addressOf(out)};
  LaunchConfig c = config({ctas, 1, 1}, {threads, 1, 1}, workers);
  c.dynamicSharedBytes = threads * 4;
  Status status = launch(reduceKernel, c, &params, map);
  EXPECT_TRUE(bool(status)) << status.error();
  return out;
}

TEST(Barrier, TreeReductionIsExact) {
  for (uint32_t threads : {32u, 256u, 1024u}) {
    const uint32_t ctas = 12;
    std::vector<uint32_t> in(ctas * threads);
    for (uint32_t i = 0; i < in.size(); ++i)
      in[i] = i * 2654435761u; // wrapping sums are exact too
    std::vector<uint32_t> out = runReduce(ctas, threads, 0, in);
    for (uint32_t c = 0; c < ctas; ++c)
      EXPECT_EQ(out[c],
                std::accumulate(in.begin() + c * threads, in.begin() + (c + 1) * threads, 0u))
          << threads << " threads, CTA " << c;
  }
}

TEST(Barrier, ResultsDoNotDependOnWorkerCount) {
  std::vector<uint32_t> in(64 * 128);
  std::iota(in.begin(), in.end(), 7u);
  std::vector<uint32_t> one = runReduce(64, 128, 1, in);
  EXPECT_EQ(runReduce(64, 128, 3, in), one);
  EXPECT_EQ(runReduce(64, 128, 16, in), one);
}

// Warp 1 produces shared data and signals with bar.arrive; warp 0 waits for
// it with bar.sync on the same barrier (warp-specialised hand-over).
void handOverBody(Thread &t, const void *params) {
  auto &p = *static_cast<const ReduceParams *>(params);
  uint32_t r1 = t.dynamicSharedBase() + t.laneid * 4;
  if (t.warpid == 1) {
    t.storeShared<uint32_t>(r1, t.laneid * 100, "st.shared.u32 at ho.cute:4");
    t.barrierArrive(1, 64, "bar.arrive 1, 64 at ho.cute:5");
    return;
  }
  t.barrierSync(1, 64, "bar.sync 1, 64 at ho.cute:8");
  uint32_t r2 = t.loadShared<uint32_t>(r1, "ld.shared.u32 at ho.cute:9");
  t.storeGlobal<uint32_t>(p.out + t.laneid * 4, r2, "st.global.u32 at ho.cute:10");
}
const KernelDescriptor handOverKernel{"hand_over", handOverBody, sizeof(ReduceParams), true, 0};

TEST(Barrier, ArriveHandsOverToAWaitingWarp) {
  std::vector<uint32_t> out(32);
  MemoryMap map;
  addBuffer(map, out, "out");
  ReduceParams params{0, addressOf(out)};
  LaunchConfig c = config({1, 1, 1}, {64, 1, 1});
  c.dynamicSharedBytes = 128;
  Status status = launch(handOverKernel, c, &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  for (uint32_t lane = 0; lane < 32; ++lane)
    EXPECT_EQ(out[lane], lane * 100);
}

// PTX: a barrier without a count waits for the non-exited threads only.
void earlyExitBody(Thread &t, const void *params) {
  auto &p = *static_cast<const ReduceParams *>(params);
  if (t.tid.x >= 40) // warp 1 half exits, warps 2-3 entirely
    return;
  t.barrierSync(0, 0, "bar.sync 0 at ee.cute:3");
  t.storeGlobal<uint32_t>(p.out + t.tid.x * 4, 1, "st.global.u32 at ee.cute:4");
}
const KernelDescriptor earlyExitKernel{"early_exit", earlyExitBody, sizeof(ReduceParams), true, 0};

TEST(Barrier, ExitedThreadsDoNotHoldUpABarrierWithoutCount) {
  std::vector<uint32_t> out(40);
  MemoryMap map;
  addBuffer(map, out, "out");
  ReduceParams params{0, addressOf(out)};
  Status status = launch(earlyExitKernel, config({1, 1, 1}, {128, 1, 1}), &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  EXPECT_EQ(std::accumulate(out.begin(), out.end(), 0u), 40u);
}

// Broken: warp 3 skips `bar.sync 1, 128` and exits; the others wait forever.
void skipBarrierBody(Thread &t, const void *) {
  if (t.warpid == 3)
    return;
  t.barrierSync(1, 128, "bar.sync 1, 128 at skip.cute:4");
}
const KernelDescriptor skipBarrierKernel{"skip_barrier", skipBarrierBody, 0, true, 0};

TEST(Barrier, ThreadsSkippingACountedBarrierAreADeadlock) {
  MemoryMap map;
  EXPECT_EQ(launchError(skipBarrierKernel, config({2, 1, 1}, {128, 1, 1}), nullptr, map),
            "kernel 'skip_barrier', CTA (0,0,0): deadlock: no thread can proceed\n"
            "  warp 0 lanes 0-31: wait at barrier 1 'bar.sync 1, 128 at skip.cute:4'\n"
            "  warp 1 lanes 0-31: wait at barrier 1 'bar.sync 1, 128 at skip.cute:4'\n"
            "  warp 2 lanes 0-31: wait at barrier 1 'bar.sync 1, 128 at skip.cute:4'\n"
            "  warp 3 lanes 0-31: exited\n"
            "  barrier 1 (expects 128 threads): 3 warp arrivals (warps 0,1,2)");
}

// Broken: warps 0-1 wait at barrier 0 for everyone, warps 2-3 at barrier 2.
void splitBarrierBody(Thread &t, const void *) {
  if (t.warpid < 2)
    t.barrierSync(0, 0, "bar.sync 0 at split.cute:3");
  else
    t.barrierSync(2, 128, "bar.sync 2, 128 at split.cute:5");
}
const KernelDescriptor splitBarrierKernel{"split_barrier", splitBarrierBody, 0, true, 0};

TEST(Barrier, WarpsWaitingAtDifferentBarriersAreADeadlock) {
  MemoryMap map;
  std::string error = launchError(splitBarrierKernel, config({1, 1, 1}, {128, 1, 1}), nullptr, map);
  EXPECT_NE(error.find("deadlock: no thread can proceed"), std::string::npos) << error;
  EXPECT_NE(error.find("warp 1 lanes 0-31: wait at barrier 0 'bar.sync 0 at split.cute:3'"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("warp 2 lanes 0-31: wait at barrier 2 'bar.sync 2, 128 at split.cute:5'"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("barrier 0 (expects all threads): 2 warp arrivals (warps 0,1)"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("barrier 2 (expects 128 threads): 2 warp arrivals (warps 2,3)"),
            std::string::npos)
      << error;
}

// Broken: warp 0 expects 128 threads at barrier 1, warp 1 only 64.
void mismatchedCountBody(Thread &t, const void *) {
  t.barrierSync(1, t.warpid == 0 ? 128 : 64, "bar.sync 1, %r1 at count.cute:3");
}
const KernelDescriptor mismatchedCountKernel{"mismatched_count", mismatchedCountBody, 0, true, 0};

TEST(Barrier, MismatchedThreadCountsAreReported) {
  MemoryMap map;
  EXPECT_EQ(launchError(mismatchedCountKernel, config({1, 1, 1}, {128, 1, 1}), nullptr, map),
            "kernel 'mismatched_count', CTA (0,0,0), thread (32,0,0) (warp 1, lane 0): bar.sync "
            "1, %r1 at count.cute:3: warp 1 arrived at barrier 1 with thread count 64, but warp 0 "
            "started its current phase with count 128 (0 = all threads)");
}

// Broken: warp 1 announces two hand-overs on barrier 1 (96 threads: warps
// 0-2) before warp 2 has arrived for the first.
void doubleArriveBody(Thread &t, const void *) {
  if (t.warpid == 1) {
    t.barrierArrive(1, 96, "bar.arrive 1, 96 at twice.cute:3");
    t.barrierArrive(1, 96, "bar.arrive 1, 96 at twice.cute:4");
    return;
  }
  t.barrierSync(1, 96, "bar.sync 1, 96 at twice.cute:6");
  t.barrierSync(1, 96, "bar.sync 1, 96 at twice.cute:7");
}
const KernelDescriptor doubleArriveKernel{"double_arrive", doubleArriveBody, 0, true, 0};

TEST(Barrier, AWarpArrivingTwiceInOnePhaseIsReported) {
  MemoryMap map;
  EXPECT_EQ(launchError(doubleArriveKernel, config({1, 1, 1}, {96, 1, 1}), nullptr, map),
            "kernel 'double_arrive', CTA (0,0,0), thread (63,0,0) (warp 1, lane 31): bar.arrive "
            "1, 96 at twice.cute:4: warp 1 arrived at barrier 1 again before the barrier "
            "completed (2 warp arrivals (warps 0,1)): a warp arrives once per phase, so a "
            "bar.arrive must not be followed by another arrival at the same barrier until it "
            "completes");
}

// bar.arrive waits for the rest of its warp: lanes 0-15 of warp 1 arrive
// while lanes 16-31 still have to store what lanes 0-15 read after it.
void arrivalWaitsForWarpBody(Thread &t, const void *params) {
  auto &p = *static_cast<const ReduceParams *>(params);
  if (t.warpid == 1) {
    uint32_t slot = t.dynamicSharedBase() + (t.laneid % 16) * 4;
    if (t.laneid >= 16) {
      t.yieldThread("nanosleep at warp.cute:5");
      t.storeShared<uint32_t>(slot, t.laneid * 7, "st.shared.u32 at warp.cute:6");
    }
    t.barrierArrive(1, 64, "bar.arrive 1, 64 at warp.cute:7");
    if (t.laneid < 16)
      t.storeGlobal<uint32_t>(p.out + t.laneid * 4, t.loadShared<uint32_t>(slot, "ld at w:9"),
                              "st.global.u32 at warp.cute:9");
    return;
  }
  t.barrierSync(1, 64, "bar.sync 1, 64 at warp.cute:12");
}
const KernelDescriptor arrivalWaitsKernel{"arrival_waits", arrivalWaitsForWarpBody,
                                          sizeof(ReduceParams), true, 0};

TEST(Barrier, ArriveWaitsForTheRestOfItsWarp) {
  std::vector<uint32_t> out(16);
  MemoryMap map;
  addBuffer(map, out, "out");
  ReduceParams params{0, addressOf(out)};
  LaunchConfig c = config({1, 1, 1}, {64, 1, 1});
  c.dynamicSharedBytes = 64;
  Status status = launch(arrivalWaitsKernel, c, &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  for (uint32_t lane = 0; lane < 16; ++lane)
    EXPECT_EQ(out[lane], (lane + 16) * 7);
}

// Broken: lanes 0-15 of each warp take one bar.sync 0, lanes 16-31 another.
void divergentBody(Thread &t, const void *) {
  if (t.laneid < 16)
    t.barrierSync(0, 0, "bar.sync 0 at div.cute:3");
  else
    t.barrierSync(0, 0, "bar.sync 0 at div.cute:5");
}
const KernelDescriptor divergentKernel{"divergent", divergentBody, 0, true, 0};

TEST(Barrier, AWarpDivergingAroundAnAlignedBarrierIsReported) {
  MemoryMap map;
  std::string error = launchError(divergentKernel, config({1, 1, 1}, {64, 1, 1}), nullptr, map);
  EXPECT_NE(error.find("thread (16,0,0) (warp 0, lane 16): bar.sync 0 at div.cute:5: lanes of "
                       "warp 0 arrived at barrier 0 from different instructions: lanes 0-15 at "
                       "'bar.sync 0 at div.cute:3', lane 16 at 'bar.sync 0 at div.cute:5'"),
            std::string::npos)
      << error;
}

TEST(Barrier, MalformedBarriersAreReported) {
  struct Case {
    uint32_t id, count;
    const char *message;
  };
  static const Case cases[] = {
      {16, 0, "barrier 16 does not exist (a CTA has barriers 0-15)"},
      {1, 48, "barrier thread count 48 is not a multiple of the warp size (32)"},
      {1, 256, "barrier 1 expects 256 threads but the CTA has 2 warps: it can never complete"},
  };
  for (const Case &c : cases) {
    static const Case *current;
    current = &c;
    KernelDescriptor kernel{"malformed",
                            [](Thread &t, const void *) {
                              t.barrierSync(current->id, current->count, "bar.sync at m.cute:1");
                            },
                            0, true, 0};
    MemoryMap map;
    std::string error = launchError(kernel, config({1, 1, 1}, {64, 1, 1}), nullptr, map);
    EXPECT_NE(error.find(c.message), std::string::npos) << error;
  }
}

TEST(Barrier, KernelsNotDeclaringBarriersMayNotWait) {
  KernelDescriptor undeclared = reduceKernel;
  undeclared.usesBarriers = false;
  std::vector<uint32_t> in(64), out(1);
  MemoryMap map;
  addBuffer(map, in, "in");
  addBuffer(map, out, "out");
  ReduceParams params{addressOf(in), addressOf(out)};
  LaunchConfig c = config({1, 1, 1}, {64, 1, 1});
  c.dynamicSharedBytes = 256;
  std::string error = launchError(undeclared, c, &params, map);
  EXPECT_NE(error.find("thread (0,0,0) (warp 0, lane 0): bar.sync 0 at red.cute:5: the kernel's "
                       "descriptor says usesBarriers = false"),
            std::string::npos)
      << error;
}

} // namespace
} // namespace cutec::rt
