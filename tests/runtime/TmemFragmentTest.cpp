// tcgen05.ld/st beyond 32x32b in the emulator: every form's registers cover
// its TMEM image exactly once, .pack::16b and .unpack::16b move the low
// halves of two neighbouring cells, a 16-lane shape reaches either half of
// the warp's lane quarter and nothing else, and impossible forms are
// reported.
#include "LaunchTestSupport.h"

#include "runtime/engine/Tcgen05Collectives.h"
#include "runtime/tensorcore/TmemFragment.h"

#include <set>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

const TmemLdStShape kShapes[] = {TmemLdStShape::S32x32b, TmemLdStShape::S16x64b,
                                 TmemLdStShape::S16x128b, TmemLdStShape::S16x256b,
                                 TmemLdStShape::S16x32bx2};

// Each (warp lane, register) names a distinct cell, and together they fill
// lanes() x columnSpan() (16x32bx2: both halves, split one half apart).
TEST(TmemFragment, EveryFormCoversItsImageOnce) {
  for (TmemLdStShape shape : kShapes)
    for (uint32_t num = 1; num <= 128; num *= 2)
      for (bool pack : {false, true}) {
        TmemFragmentForm f{shape, num, pack, 0};
        if (!f.check().empty())
          continue;
        if (shape == TmemLdStShape::S16x32bx2)
          f.halfSplitOffset = num * (pack ? 2 : 1);
        std::set<std::pair<uint32_t, uint32_t>> cells;
        for (uint32_t l = 0; l < 32; ++l)
          for (uint32_t r = 0; r < f.registers(); ++r) {
            TmemCellOffset c = tmemFragmentCell(f, l, r);
            ASSERT_LT(c.lane, f.lanes()) << f.name(false);
            ASSERT_LT(c.column + (pack ? 1 : 0), f.columnSpan()) << f.name(false);
            ASSERT_TRUE(cells.insert({c.lane, c.column}).second) << f.name(false);
          }
        EXPECT_EQ(cells.size() * (pack ? 2 : 1), size_t(f.lanes()) * f.columnSpan())
            << f.name(false);
      }
}

TEST(TmemFragment, NumIsLimitedTo128RegistersPerThread) {
  EXPECT_EQ(TmemFragmentForm({TmemLdStShape::S16x256b, 32, false, 0}).check(), "");
  EXPECT_EQ(TmemFragmentForm({TmemLdStShape::S16x256b, 64, false, 0}).check(),
            ".num of the 16x256b shape must be a power of two from 1 to 32, not 64");
  EXPECT_EQ(TmemFragmentForm({TmemLdStShape::S16x128b, 3, false, 0}).check(),
            ".num of the 16x128b shape must be a power of two from 1 to 64, not 3");
  EXPECT_EQ(TmemFragmentForm({TmemLdStShape::S16x64b, 4, true, 0}).name(false),
            "16x64b.x4.pack::16b");
}

enum class Scenario : uint32_t {
  PackRoundTrip,  // st.unpack::16b 16x128b from lane 16, ld.pack::16b back, and 32x32b
  WrongHalf,      // a 16-lane load from lane 8 of the quarter
  OtherQuarter,   // warp 1 loads 16 lanes of quarter 0
  BadNum,         // 16x256b.x64
};

struct Params {
  uint64_t out; // per thread: 4 packed words, then 16 raw cells
  Scenario scenario;
};

void fragmentBody(Thread &t, const void *raw) {
  const auto &p = *static_cast<const Params *>(raw);
  const uint32_t base = t.dynamicSharedBase(), tid = t.tid.x, warp = t.warpid;
  if (warp == 0)
    t.tcgen05Alloc(base, 32, "tcgen05.alloc at frag.cute:3");
  t.barrierSync(0, 0, "bar.sync at frag.cute:4");
  const uint32_t taddr = t.loadShared<uint32_t>(base, "ld.shared at frag.cute:5");
  const uint32_t quarter = (32 * (warp % 4)) << 16;
  uint32_t regs[16] = {};
  if (p.scenario == Scenario::WrongHalf && warp == 0)
    t.tcgen05Ld(taddr + quarter + (8 << 16), regs, {TmemLdStShape::S16x64b, 1, false, 0},
                "tcgen05.ld at frag.cute:9");
  if (p.scenario == Scenario::OtherQuarter)
    t.tcgen05Ld(taddr + ((warp == 1 ? 16u : 32 * (warp % 4)) << 16), regs,
                {TmemLdStShape::S16x64b, 1, false, 0}, "tcgen05.ld at frag.cute:11");
  if (p.scenario == Scenario::BadNum)
    t.tcgen05Ld(taddr + quarter, regs, {TmemLdStShape::S16x256b, 64, false, 0},
                "tcgen05.ld at frag.cute:13");
  // 16x128b.x2: 4 registers, 8 columns, unpacked to 16.
  const TmemFragmentForm packed{TmemLdStShape::S16x128b, 2, true, 0};
  uint32_t words[4];
  for (uint32_t r = 0; r < 4; ++r)
    words[r] = (tid * 4 + r) * 0x00010001u + 0xA0000000u; // the high half differs
  warpSyncTcgen05St(t, taddr + quarter + (16 << 16), words, packed, "tcgen05.st at frag.cute:16");
  t.tcgen05WaitSt("tcgen05.wait::st");
  warpSyncTcgen05Ld(t, taddr + quarter + (16 << 16), regs, packed, "tcgen05.ld at frag.cute:18");
  t.tcgen05WaitLd("tcgen05.wait::ld");
  for (uint32_t r = 0; r < 4; ++r)
    t.storeGlobal<uint32_t>(p.out + 4 * (tid * 20 + r), regs[r], "st.global");
  warpSyncTcgen05Ld32x32b(t, taddr + quarter, regs, 16, "tcgen05.ld at frag.cute:21");
  t.tcgen05WaitLd("tcgen05.wait::ld");
  for (uint32_t c = 0; c < 16; ++c)
    t.storeGlobal<uint32_t>(p.out + 4 * (tid * 20 + 4 + c), regs[c], "st.global");
  t.barrierSync(0, 0, "bar.sync at frag.cute:24");
  if (warp == 0)
    t.tcgen05Dealloc(taddr, 32, "tcgen05.dealloc at frag.cute:26");
}

const KernelDescriptor kFragmentKernel{"tmem_fragment_test", fragmentBody, sizeof(Params),
                                       /*usesBarriers=*/true, /*staticSharedBytes=*/0};

struct FragmentRun {
  std::vector<uint32_t> out = std::vector<uint32_t>(128 * 20, 0);
  MemoryMap map;
  Params params{};
  LaunchConfig cfg = config({1, 1, 1}, {128, 1, 1}, 1);
  explicit FragmentRun(Scenario s) {
    addBuffer(map, out, "out");
    params = {addressOf(out), s};
    cfg.dynamicSharedBytes = 16;
  }
};

// The packed store keeps each half in the low half of its own cell; the
// packed load gives the words back, the high halves of the cells dropped.
TEST(TmemFragment, PackedStoreAndLoadMoveLowHalves) {
  FragmentRun run(Scenario::PackRoundTrip);
  Status s = launch(kFragmentKernel, run.cfg, &run.params, run.map);
  ASSERT_TRUE(bool(s)) << s.error();
  const TmemFragmentForm packed{TmemLdStShape::S16x128b, 2, true, 0};
  for (uint32_t tid = 0; tid < 128; ++tid)
    for (uint32_t r = 0; r < 4; ++r) {
      uint32_t word = (tid * 4 + r) * 0x00010001u + 0xA0000000u;
      ASSERT_EQ(run.out[tid * 20 + r], word) << "thread " << tid << " register " << r;
      // Where that word's halves went: lanes 16-31 of the quarter, read by
      // the 32x32b load of the threads 16-31 of the warp.
      TmemCellOffset c = tmemFragmentCell(packed, tid % 32, r);
      uint32_t reader = 32 * (tid / 32) + 16 + c.lane;
      EXPECT_EQ(run.out[reader * 20 + 4 + c.column], word & 0xFFFF);
      EXPECT_EQ(run.out[reader * 20 + 4 + c.column + 1], word >> 16);
    }
}

// A 16-lane shape starts at lane 0 or 16 of the warp's own quarter, and a
// .num beyond 128 registers is no instruction.
TEST(TmemFragment, WrongAddressesAndFormsAreReported) {
  const std::pair<Scenario, const char *> cases[] = {
      {Scenario::WrongHalf,
       "tcgen05.ld at frag.cute:9: lane-quarter violation: warp 0 (warp 0 mod 4 = 0) may access "
       "TMEM lanes [0,32) only, but tcgen05.ld.16x64b.x1 at address 0x80000 (lane 8, column 0) "
       "reads lanes [8,24) (a 16-lane shape starts at the quarter's lane 0 or 16)"},
      {Scenario::OtherQuarter,
       "(warp 1, lane 31): tcgen05.ld at frag.cute:11: lane-quarter violation: warp 1 (warp 1 "
       "mod 4 = 1) may access TMEM lanes [32,64) only, but tcgen05.ld.16x64b.x1 at address "
       "0x100000 (lane 16, column 0) reads lanes [16,32)"},
      {Scenario::BadNum, "tcgen05.ld at frag.cute:13: tcgen05.ld.16x256b.x64: .num of the "
                         "16x256b shape must be a power of two from 1 to 32, not 64"},
  };
  for (const auto &[scenario, expected] : cases) {
    FragmentRun run(scenario);
    std::string e = launchError(kFragmentKernel, run.cfg, &run.params, run.map);
    EXPECT_NE(e.find(expected), std::string::npos) << "missing: " << expected << "\nin: " << e;
  }
}

} // namespace
} // namespace cutec::rt
