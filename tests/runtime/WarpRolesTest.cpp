// The instructions of warp-specialised kernels: elect.sync and shfl.sync.idx
// (runtime/engine/WarpRoles.h, WarpShuffle.h), and setmaxnreg with its register
// pool (runtime/engine/RegisterPool.h): registers moving between warpgroups, and
// the broken kernels the emulator must report — a pool that never suffices,
// a warpgroup whose warps disagree or do not all take part.
#include "LaunchTestSupport.h"

#include "runtime/engine/RegisterPool.h"

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

struct OutParams {
  uint64_t out;
};

/// `kernel` as compiled with `.maxnreg registers`.
KernelDescriptor withRegisters(KernelDescriptor kernel, uint32_t registers) {
  kernel.registersPerThread = registers;
  return kernel;
}

void store(Thread &t, const OutParams &p, uint32_t value) {
  t.storeGlobal<uint32_t>(p.out + t.tid.x * 4, value, "st.global.u32 at roles.cute:9");
}

// elect.sync over the whole warp, and over lanes 16-31 only.
void electBody(Thread &t, const void *params) {
  auto &p = *static_cast<const OutParams *>(params);
  if (t.warpid == 0) {
    store(t, p, warpSyncElect(t, 0xFFFFFFFF, "elect.sync at e.cute:3"));
    return;
  }
  if (t.laneid >= 16)
    store(t, p, warpSyncElect(t, 0xFFFF0000, "elect.sync at e.cute:6"));
}
const KernelDescriptor electKernel{"elect", electBody, sizeof(OutParams), true, 0};

TEST(WarpRoles, ElectSyncElectsTheLowestLaneOfTheMask) {
  std::vector<uint32_t> out(64, 7);
  MemoryMap map;
  addBuffer(map, out, "out");
  OutParams params{addressOf(out)};
  Status status = launch(electKernel, config({1, 1, 1}, {64, 1, 1}), &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  for (uint32_t i = 0; i < 64; ++i)
    EXPECT_EQ(out[i], i == 0 || i == 48 ? 1u : i < 48 && i >= 32 ? 7u : 0u) << "thread " << i;
}

// shfl.sync.idx from lane 5 of the whole warp (c = 0x1f), and from lane 2 of
// each segment of 8 lanes (c = 0x1807: segment mask 0x18, clamp 7).
void shuffleIdxBody(Thread &t, const void *params) {
  auto &p = *static_cast<const OutParams *>(params);
  uint32_t mine = t.laneid * 3 + 1;
  if (t.warpid == 0)
    store(
        t, p,
        warpSyncShfl(t, ShflMode::Idx, mine, 5u, 0x1fu, 0xFFFFFFFFu, "shfl.sync.idx at s.cute:3"));
  else
    store(t, p,
          warpSyncShfl(t, ShflMode::Idx, mine, 2u, 0x1807u, 0xFFFFFFFFu,
                       "shfl.sync.idx at s.cute:5"));
}
const KernelDescriptor shuffleIdxKernel{"shuffle_idx", shuffleIdxBody, sizeof(OutParams), true, 0};

TEST(WarpRoles, ShuffleIdxReadsTheSourceLaneOfEachSegment) {
  std::vector<uint32_t> out(64);
  MemoryMap map;
  addBuffer(map, out, "out");
  OutParams params{addressOf(out)};
  Status status = launch(shuffleIdxKernel, config({1, 1, 1}, {64, 1, 1}), &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  for (uint32_t lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(out[lane], 16u) << "lane " << lane;
    EXPECT_EQ(out[32 + lane], ((lane & 0x18) | 2) * 3 + 1) << "lane " << lane;
  }
}

TEST(RegisterPool, DecreasesFillThePoolAndIncreasesTakeFromIt) {
  RegisterPool pool;
  pool.reset(12, 168);
  for (uint32_t w = 4; w < 8; ++w)
    EXPECT_EQ(pool.execute(w, true, 232, "inc"), "");
  EXPECT_FALSE(pool.grant(4)); // the pool is empty
  for (uint32_t w = 0; w < 4; ++w)
    EXPECT_EQ(pool.execute(w, false, 40, "dec"), "");
  EXPECT_EQ(pool.count(0), 40u);
  // 4 warps x 128 registers x 32 lanes released; each .inc takes 64 x 32.
  for (uint32_t w = 4; w < 8; ++w) {
    EXPECT_TRUE(pool.grant(w)) << w;
    EXPECT_EQ(pool.count(w), 232u);
  }
  for (uint32_t w = 8; w < 12; ++w)
    EXPECT_EQ(pool.execute(w, true, 232, "inc"), "");
  for (uint32_t w = 8; w < 12; ++w)
    EXPECT_TRUE(pool.grant(w)) << w;
  EXPECT_FALSE(pool.busy());
}

// Registers move from the producer warpgroup (2) to the consumers (0, 1),
// which ask first and wait; each thread then stores its warp's count.
void swapBody(Thread &t, const void *params) {
  auto &p = *static_cast<const OutParams *>(params);
  if (t.warpid < 8)
    warpSyncSetmaxnreg(t, true, 232, "setmaxnreg.inc at swap.cute:3");
  else
    warpSyncSetmaxnreg(t, false, 40, "setmaxnreg.dec at swap.cute:5");
  store(t, p, t.warpid < 8 ? 232 : 40);
}
const KernelDescriptor swapKernel =
    withRegisters({"swap", swapBody, sizeof(OutParams), true, 0}, 168);

TEST(Setmaxnreg, IncreasesWaitForTheRegistersThatDecreasesRelease) {
  std::vector<uint32_t> out(384);
  MemoryMap map;
  addBuffer(map, out, "out");
  OutParams params{addressOf(out)};
  Status status = launch(swapKernel, config({2, 1, 1}, {384, 1, 1}), &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  EXPECT_EQ(out[0], 232u);
  EXPECT_EQ(out[383], 40u);
}

// Broken: every warpgroup asks for more and none gives any back.
void greedyBody(Thread &t, const void *) {
  warpSyncSetmaxnreg(t, true, 232, "setmaxnreg.inc at greedy.cute:2");
}
const KernelDescriptor greedyKernel = withRegisters({"greedy", greedyBody, 0, true, 0}, 168);

TEST(Setmaxnreg, APoolThatNeverSufficesIsADeadlock) {
  MemoryMap map;
  std::string error = launchError(greedyKernel, config({1, 1, 1}, {384, 1, 1}), nullptr, map);
  EXPECT_NE(error.find("kernel 'greedy', CTA (0,0,0): deadlock: no thread can proceed\n"
                       "  warp 0 lanes 0-31: wait for registers at 'setmaxnreg.inc at "
                       "greedy.cute:2'\n"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("  warp 11 lanes 0-31: wait for registers at"), std::string::npos) << error;
  EXPECT_NE(error.find("\n  register pool: 0 registers free; warps 0-11 wait at 'setmaxnreg.inc "
                       "at greedy.cute:2' (.inc to 232) for 2048 registers each (168 per thread "
                       "now)"),
            std::string::npos)
      << error;
}

// Broken: warps 6 and 7 of warpgroup 1 skip the .dec that warps 4 and 5 make.
void partialBody(Thread &t, const void *) {
  if (t.warpid == 4 || t.warpid == 5)
    warpSyncSetmaxnreg(t, false, 40, "setmaxnreg.dec at part.cute:3");
}
const KernelDescriptor partialKernel = withRegisters({"partial", partialBody, 0, true, 0}, 168);

TEST(Setmaxnreg, PartOfAWarpgroupIsReported) {
  MemoryMap map;
  EXPECT_EQ(launchError(partialKernel, config({1, 1, 1}, {256, 1, 1}), nullptr, map),
            "kernel 'partial', CTA (0,0,0): the CTA ended in the middle of a setmaxnreg: warps "
            "4,5 of warpgroup 1 executed 'setmaxnreg.dec at part.cute:3' (.dec to 40), warps 6,7 "
            "never did: setmaxnreg must be executed by all warps of a warpgroup");
}

// Broken: warps 0-1 and 2-3 of warpgroup 0 give back different counts.
void disagreeBody(Thread &t, const void *) {
  if (t.warpid < 2)
    warpSyncSetmaxnreg(t, false, 40, "setmaxnreg.dec at disagree.cute:3");
  else
    warpSyncSetmaxnreg(t, false, 56, "setmaxnreg.dec at disagree.cute:5");
}
const KernelDescriptor disagreeKernel = withRegisters({"disagree", disagreeBody, 0, true, 0}, 168);

TEST(Setmaxnreg, WarpsOfAWarpgroupExecutingDifferentOnesAreReported) {
  MemoryMap map;
  EXPECT_EQ(launchError(disagreeKernel, config({1, 1, 1}, {128, 1, 1}), nullptr, map),
            "kernel 'disagree', CTA (0,0,0), thread (95,0,0) (warp 2, lane 31): setmaxnreg.dec "
            "at disagree.cute:5: warp 2 executed 'setmaxnreg.dec at disagree.cute:5' (.dec to "
            "56), but warps 0,1 of its warpgroup executed 'setmaxnreg.dec at disagree.cute:3' "
            "(.dec to 40): all warps of a warpgroup execute the same setmaxnreg");
}

// Broken: warp 0 gives back registers twice while warps 1-3 still wait at a
// barrier that warp 0 only arrives at afterwards.
void twiceBody(Thread &t, const void *) {
  if (t.warpid == 0) {
    warpSyncSetmaxnreg(t, false, 40, "setmaxnreg.dec at twice.cute:3");
    warpSyncSetmaxnreg(t, false, 32, "setmaxnreg.dec at twice.cute:4");
    t.barrierArrive(1, 128, "bar.arrive 1, 128 at twice.cute:5");
    return;
  }
  t.barrierSync(1, 128, "bar.sync 1, 128 at twice.cute:8");
  warpSyncSetmaxnreg(t, false, 40, "setmaxnreg.dec at twice.cute:3");
  warpSyncSetmaxnreg(t, false, 32, "setmaxnreg.dec at twice.cute:4");
}
const KernelDescriptor twiceKernel = withRegisters({"twice", twiceBody, 0, true, 0}, 168);

TEST(Setmaxnreg, ASecondOneBeforeTheWarpgroupCaughtUpIsReported) {
  MemoryMap map;
  EXPECT_EQ(launchError(twiceKernel, config({1, 1, 1}, {128, 1, 1}), nullptr, map),
            "kernel 'twice', CTA (0,0,0), thread (30,0,0) (warp 0, lane 30): setmaxnreg.dec at "
            "twice.cute:4: warp 0 executed 'setmaxnreg.dec at twice.cute:4' (.dec to 32) before "
            "warps 1,2,3 of its warpgroup executed 'setmaxnreg.dec at twice.cute:3' (.dec to "
            "40): the warps of a warpgroup synchronise between setmaxnreg instructions");
}

// Broken: a .dec to more registers than the warp has.
void raiseBody(Thread &t, const void *) {
  warpSyncSetmaxnreg(t, false, 200, "setmaxnreg.dec at raise.cute:2");
}
const KernelDescriptor raiseKernel = withRegisters({"raise", raiseBody, 0, true, 0}, 168);

TEST(Setmaxnreg, AKernelWithoutARegisterCountIsReported) {
  KernelDescriptor unplanned = raiseKernel;
  unplanned.registersPerThread = 0;
  MemoryMap map;
  std::string error = launchError(unplanned, config({1, 1, 1}, {128, 1, 1}), nullptr, map);
  EXPECT_NE(error.find("the kernel descriptor gives no registersPerThread (the PTX .maxnreg) for "
                       "setmaxnreg to start from"),
            std::string::npos)
      << error;
}

TEST(Setmaxnreg, ADecreaseThatRaisesTheCountIsReported) {
  MemoryMap map;
  EXPECT_EQ(launchError(raiseKernel, config({1, 1, 1}, {384, 1, 1}), nullptr, map),
            "kernel 'raise', CTA (0,0,0), thread (31,0,0) (warp 0, lane 31): setmaxnreg.dec at "
            "raise.cute:2: warp 0 executed 'setmaxnreg.dec at raise.cute:2' (.dec to 200) with "
            "168 registers per thread: .dec must not raise the count");
}

} // namespace
} // namespace cutec::rt
