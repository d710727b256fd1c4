// mbarriers and the asynchrony of TMA loads: phases flipping over several
// uses of one barrier, transaction counts, and planted kernel bugs (reading
// the destination before waiting, waiting where no one arrives, too many
// arrivals, a CTA ending with a load in flight) that must be reported.
#include "LaunchTestSupport.h"

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

// A producer (warp 1, lane 0) loads four 16x8 u32 tiles, one after another,
// into one buffer through one mbarrier; consumers (warp 0) wait on the
// phase's parity, sum a tile column each, then release the buffer through
// a second mbarrier of 32 arrivals. Parities flip each round.
struct alignas(64) PipeParams {
  TensorMap tmap;
  uint64_t out;
  uint32_t txBytes; // what the producer expects per tile
  uint32_t readEarly;
  uint32_t skipWait;
};

constexpr uint32_t kTiles = 4;

void pipeBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const PipeParams *>(raw);
  uint32_t full = t.staticSharedBase(), empty = full + 8;
  uint32_t tile = (t.dynamicSharedBase() + 127) & ~127u;
  if (t.tid.x == 0) {
    t.mbarrierInit(full, 1, "mbarrier.init full at pipe.cute:3");
    t.mbarrierInit(empty, 32, "mbarrier.init empty at pipe.cute:4");
    t.fenceMbarrierInit("fence.mbarrier_init at pipe.cute:5");
  }
  t.barrierSync(0, 0, "bar.sync at pipe.cute:6");
  if (t.warpid == 1) {
    if (t.laneid != 0)
      return;
    for (uint32_t k = 0; k < kTiles; ++k) {
      if (k > 0)
        t.mbarrierWaitParity(empty, (k - 1) & 1, "mbarrier.try_wait.parity empty at pipe.cute:10");
      int32_t coords[2] = {0, int32_t(8 * k)};
      t.mbarrierArriveExpectTx(full, p.txBytes, "mbarrier.arrive.expect_tx at pipe.cute:11");
      t.tmaLoadTile(tile, reinterpret_cast<uint64_t>(&p.tmap), coords, 2, full,
                    "cp.async.bulk.tensor.2d at pipe.cute:12");
      if (p.readEarly)
        t.loadShared<uint32_t>(tile + 4, "ld.shared.u32 at pipe.cute:13");
      if (p.skipWait && k == 0) // tells the consumers "issued" the wrong way
        t.barrierArrive(1, 64, "bar.arrive 1, 64 at pipe.cute:14");
    }
    return;
  }
  for (uint32_t k = 0; k < kTiles; ++k) {
    if (!p.skipWait)
      t.mbarrierWaitParity(full, k & 1, "mbarrier.try_wait.parity full at pipe.cute:17");
    else if (k == 0)
      t.barrierSync(1, 64, "bar.sync 1, 64 at pipe.cute:16");
    uint32_t sum = 0;
    for (uint32_t r = 0; r < 8; ++r)
      sum += t.loadShared<uint32_t>(tile + (r * 16 + t.laneid % 16) * 4,
                                    "ld.shared.u32 at pipe.cute:19");
    if (t.laneid < 16)
      t.storeGlobal<uint32_t>(p.out + (k * 16 + t.laneid) * 4, sum, "st.global at pipe.cute:20");
    t.mbarrierArrive(empty, "mbarrier.arrive empty at pipe.cute:21");
  }
}
const KernelDescriptor pipeKernel{"pipe", pipeBody, sizeof(PipeParams), true, 16};

struct Pipe {
  std::vector<uint32_t> in = std::vector<uint32_t>(16 * 8 * kTiles);
  std::vector<uint32_t> out = std::vector<uint32_t>(16 * kTiles, 0);
  PipeParams p{};
  MemoryMap map;
  LaunchConfig c = config({1, 1, 1}, {64, 1, 1});

  Pipe() {
    for (uint32_t i = 0; i < in.size(); ++i)
      in[i] = i * 3 + 1;
    uint64_t dim[2] = {16, 8 * kTiles}, stride[1] = {64};
    uint32_t box[2] = {16, 8}, estride[2] = {1, 1};
    EXPECT_EQ(encodeTensorMapTiled(p.tmap, TmaDataType::Uint32, 2, in.data(), dim, stride, box,
                                   estride, TmaInterleave::None, TmaSwizzle::None,
                                   TmaL2Promotion::None, TmaOobFill::None),
              "");
    p.out = addressOf(out);
    p.txBytes = 512;
    addBuffer(map, in, "in");
    addBuffer(map, out, "out");
    c.dynamicSharedBytes = 1024;
  }
  Status run() { return launch(pipeKernel, c, &p, map); }
  std::string error() { return launchError(pipeKernel, c, &p, map); }
};

TEST(Mbarrier, PhasesFlipOverFourUsesOfOneBarrier) {
  Pipe pipe;
  Status status = pipe.run();
  ASSERT_TRUE(bool(status)) << status.error();
  for (uint32_t k = 0; k < kTiles; ++k)
    for (uint32_t col = 0; col < 16; ++col) {
      uint32_t want = 0;
      for (uint32_t r = 0; r < 8; ++r)
        want += pipe.in[(8 * k + r) * 16 + col];
      EXPECT_EQ(pipe.out[k * 16 + col], want) << "tile " << k << " column " << col;
    }
}

TEST(Mbarrier, ReadingTheDestinationBeforeWaitingIsReported) {
  Pipe pipe;
  pipe.p.skipWait = 1;
  std::string error = pipe.error();
  EXPECT_NE(error.find("kernel 'pipe', CTA (0,0,0), thread (0,0,0) (warp 0, lane 0): "
                       "ld.shared.u32 at pipe.cute:19: 4-byte shared load at 0x480 touches "
                       "shared memory that the TMA load 'cp.async.bulk.tensor.2d at "
                       "pipe.cute:12' (issued by thread (32,0,0), warp 1 lane 0; 512 bytes to "
                       "[0x480, 0x680) completing on mbarrier 0x400 in its phase 0) is still "
                       "writing"),
            std::string::npos)
      << error;
}

TEST(Mbarrier, TheIssuerReadingItsOwnLoadEarlyIsReported) {
  Pipe pipe;
  pipe.p.readEarly = 1;
  std::string error = pipe.error();
  EXPECT_NE(error.find("warp 1, lane 0): ld.shared.u32 at pipe.cute:13: 4-byte shared load at "
                       "0x484 touches shared memory that the TMA load"),
            std::string::npos)
      << error;
}

TEST(Mbarrier, ExpectingTooFewBytesIsReportedAsADeadlockWithTheTxCount) {
  Pipe pipe;
  pipe.p.txBytes = 256; // the box is 512 bytes: tx goes to -256, the phase never completes
  std::string error = pipe.error();
  EXPECT_NE(error.find("deadlock"), std::string::npos) << error;
  EXPECT_NE(error.find("warp 0 lanes 0-31: wait on mbarrier 0x400 for the phase with parity 0 "
                       "'mbarrier.try_wait.parity full at pipe.cute:17'"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("mbarrier 0x400: phase 0 (parity 0), 0 of 1 arrivals pending, -256 "
                       "transaction bytes pending"),
            std::string::npos)
      << error;
}

TEST(Mbarrier, ExpectingTooManyBytesIsReportedAsADeadlock) {
  Pipe pipe;
  pipe.p.txBytes = 1024;
  std::string error = pipe.error();
  EXPECT_NE(error.find("mbarrier 0x400: phase 0 (parity 0), 0 of 1 arrivals pending, 512 "
                       "transaction bytes pending"),
            std::string::npos)
      << error;
}

TEST(Mbarrier, ResultsAndErrorsDoNotDependOnWorkerCount) {
  auto runGrid = [](unsigned workers, uint32_t txBytes) {
    Pipe pipe;
    pipe.p.txBytes = txBytes;
    pipe.c = config({6, 1, 1}, {64, 1, 1}, workers);
    pipe.c.dynamicSharedBytes = 1024;
    Status status = pipe.run();
    return std::make_pair(pipe.out, status ? std::string() : status.error());
  };
  auto one = runGrid(1, 512);
  EXPECT_EQ(one.second, "");
  EXPECT_EQ(runGrid(3, 512), one);
  EXPECT_EQ(runGrid(8, 512), one);
  auto failing = runGrid(1, 256);
  EXPECT_NE(failing.second, "");
  EXPECT_EQ(runGrid(5, 256).second, failing.second);
}

// Small kernels with one planted mistake each, selected by `mode`.
struct MisuseParams {
  uint32_t mode;
};

void misuseBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const MisuseParams *>(raw);
  uint32_t bar = t.staticSharedBase();
  switch (p.mode) {
  case 0: // wait where no one ever arrives
    t.mbarrierInit(bar, 1, "mbarrier.init at m.cute:1");
    t.mbarrierWaitParity(bar, 0, "mbarrier.try_wait.parity at m.cute:2");
    break;
  case 1: // arrive on an address never initialised
    t.mbarrierArrive(bar + 8, "mbarrier.arrive at m.cute:3");
    break;
  case 2: // more arrivals than expected while bytes are pending
    t.mbarrierInit(bar, 1, "mbarrier.init at m.cute:4");
    t.mbarrierArriveExpectTx(bar, 64, "mbarrier.arrive.expect_tx at m.cute:5");
    t.mbarrierArrive(bar, "mbarrier.arrive at m.cute:6");
    break;
  case 3: // tx-count overflow
    t.mbarrierInit(bar, 2, "mbarrier.init at m.cute:7");
    t.mbarrierArriveExpectTx(bar, 1u << 20, "mbarrier.arrive.expect_tx at m.cute:8");
    break;
  case 4: // expected arrival count 0
    t.mbarrierInit(bar, 0, "mbarrier.init at m.cute:9");
    break;
  case 5: // misaligned mbarrier
    t.mbarrierInit(bar + 4, 1, "mbarrier.init at m.cute:10");
    break;
  case 6: // parity waits on a phase completed long ago return at once
    t.mbarrierInit(bar, 1, "mbarrier.init at m.cute:11");
    for (uint32_t k = 0; k < 5; ++k) {
      t.mbarrierArrive(bar, "mbarrier.arrive at m.cute:12");
      if (!t.mbarrierTryWaitParity(bar, k & 1, "mbarrier.try_wait.parity at m.cute:13"))
        t.fail("phase did not complete", "m.cute:13");
      if (t.mbarrierTryWaitParity(bar, (k + 1) & 1, "mbarrier.try_wait.parity at m.cute:14"))
        t.fail("the next phase completed early", "m.cute:14");
    }
    break;
  }
}

std::string misuse(uint32_t mode, bool usesBarriers = true, uint32_t threads = 1) {
  KernelDescriptor k{"misuse", misuseBody, sizeof(MisuseParams), usesBarriers, 8};
  MisuseParams p{mode};
  MemoryMap map;
  Status status = launch(k, config({1, 1, 1}, {threads, 1, 1}), &p, map);
  return status ? "" : status.error();
}

TEST(Mbarrier, WaitingWhereNoOneArrivesNamesTheBarrierAndParity) {
  std::string error = misuse(0);
  EXPECT_NE(error.find("deadlock: polling threads made no progress"), std::string::npos) << error;
  EXPECT_NE(error.find("warp 0 lanes 0: wait on mbarrier 0x400 for the phase with parity 0 "
                       "'mbarrier.try_wait.parity at m.cute:2'"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("mbarrier 0x400: phase 0 (parity 0), 1 of 1 arrivals pending"),
            std::string::npos)
      << error;
}

TEST(Mbarrier, WaitingWithoutUsesBarriersKeepsTheExistingError) {
  std::string error = misuse(0, /*usesBarriers=*/false);
  EXPECT_NE(error.find("usesBarriers = false"), std::string::npos) << error;
}

TEST(Mbarrier, ArriveOnAnUninitialisedBarrier) {
  EXPECT_NE(misuse(1).find("mbarrier.arrive at m.cute:3: mbarrier.arrive on shared address "
                           "0x408, where no mbarrier.init initialised an mbarrier"),
            std::string::npos)
      << misuse(1);
}

TEST(Mbarrier, TooManyArrivals) {
  EXPECT_NE(misuse(2).find("mbarrier.arrive at m.cute:6: too many arrivals at the mbarrier at "
                           "0x400: all 1 expected arrivals of phase 0 have arrived (it waits "
                           "for 64 transaction bytes)"),
            std::string::npos)
      << misuse(2);
}

TEST(Mbarrier, TxCountOverflow) {
  EXPECT_NE(misuse(3).find("the tx-count of the mbarrier at 0x400 would become 1048576"),
            std::string::npos)
      << misuse(3);
}

TEST(Mbarrier, ExpectedCountOutOfRangeAndMisalignment) {
  EXPECT_NE(misuse(4).find("expected arrival count 0 outside [1, 2^20-1]"), std::string::npos)
      << misuse(4);
  EXPECT_NE(misuse(5).find("misaligned 8-byte shared store at 0x404"), std::string::npos)
      << misuse(5);
}

TEST(Mbarrier, ParityOfCompletedAndCurrentPhases) {
  EXPECT_EQ(misuse(6, /*usesBarriers=*/false), "");
}

// A load issued and never waited for.
struct alignas(64) LeakParams {
  TensorMap tmap;
};

void leakBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const LeakParams *>(raw);
  uint32_t bar = t.staticSharedBase();
  t.mbarrierInit(bar, 1, "mbarrier.init at leak.cute:1");
  int32_t coords[1] = {0};
  t.mbarrierArriveExpectTx(bar, 64, "mbarrier.arrive.expect_tx at leak.cute:2");
  t.tmaLoadTile(t.dynamicSharedBase() + 0x70, reinterpret_cast<uint64_t>(&p.tmap), coords, 1, bar,
                "cp.async.bulk.tensor.1d at leak.cute:3");
}

TEST(Mbarrier, ACtaEndingWithALoadInFlightIsReported) {
  std::vector<uint8_t> in(64, 1);
  LeakParams p{};
  uint64_t dim[1] = {64};
  uint32_t box[1] = {64}, estride[1] = {1};
  ASSERT_EQ(encodeTensorMapTiled(p.tmap, TmaDataType::Uint8, 1, in.data(), dim, nullptr, box,
                                 estride, TmaInterleave::None, TmaSwizzle::None,
                                 TmaL2Promotion::None, TmaOobFill::None),
            "");
  MemoryMap map;
  addBuffer(map, in, "in");
  LaunchConfig c = config({1, 1, 1}, {1, 1, 1});
  c.dynamicSharedBytes = 512;
  for (bool usesBarriers : {false, true}) {
    KernelDescriptor k{"leak", leakBody, sizeof(LeakParams), usesBarriers, 8};
    std::string error = launchError(k, c, &p, map);
    EXPECT_NE(error.find("kernel 'leak', CTA (0,0,0): the CTA ended with 1 TMA load(s) in "
                         "flight, whose data no thread waited for"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("'cp.async.bulk.tensor.1d at leak.cute:3' (issued by thread (0,0,0), "
                         "warp 0 lane 0; 64 bytes to [0x480, 0x4c0)"),
              std::string::npos)
        << error;
  }
}

} // namespace
} // namespace cutec::rt
