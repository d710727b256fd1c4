// Tensor memory in the emulator: tcgen05.alloc/dealloc/relinquish, tcgen05.cp
// (128x256b, 128x128b, 32x128b.warpx4) and tcgen05.ld.32x32b, and the planted
// kernel bugs the emulator must report: loads before the writer's commit has
// been waited for, over-allocation, lane-quarter violations, double and
// early deallocs, leaks at exit, invalid counts.
#include "LaunchTestSupport.h"

#include "runtime/tensorcore/Tmem.h"
#include "runtime/tensorcore/UmmaDescriptors.h"

#include <cstring>
#include <functional>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

enum class Scenario : uint32_t {
  Roundtrip,        // cp, commit, wait, ld, dealloc: no error
  LdBeforeCommit,   // ld of a tcgen05.cp destination without commit
  LdBeforeWait,     // commit, but ld before anyone waited
  OverAllocate,     // warp 0 takes 512 columns, warp 1 asks for 32
  LaneQuarter,      // warp 1 loads lanes 0-31
  DoubleDealloc,    // the same columns freed twice
  Leak,             // no dealloc before exit
  DeallocPending,   // dealloc of columns a cp wrote, never committed
  BadCount,         // alloc of 48 columns
  AfterRelinquish,  // alloc after relinquish_alloc_permit
  DeallocWrongSize, // dealloc of 32 of 64 columns
  Divergent,        // lanes pass different counts to tcgen05.alloc
  WaitNoCommit,     // everyone waits on the mbarrier no commit arrives on
};

struct Params {
  uint64_t out; // 128 lanes x 16 columns of u32
  Scenario scenario;
  Tcgen05CpShape shape;
};

// Shared memory: [0, 16) TMEM address slot and mbarrier; [1024, 1024+4096)
// the tcgen05.cp source, 128 rows of 32 bytes as a K-major no-swizzle
// canonical layout (core matrices of 8 rows x 16 bytes; LBO 128 between the
// two 16-byte halves of a row, SBO 256 between 8-row groups).
constexpr uint32_t kSlot = 0, kBar = 8, kSource = 1024;

uint8_t sourceByte(uint32_t row, uint32_t byte) { return uint8_t(row * 7 + byte * 13 + 1); }

uint32_t sourceOffset(uint32_t row, uint32_t byte) {
  return kSource + (row % 8) * 16 + (row / 8) * 256 + (byte / 16) * 128 + byte % 16;
}

uint64_t sourceDesc(uint32_t base) {
  SmemMatrixDescriptor d;
  d.startAddress = base + kSource;
  d.leadingByteOffset = 128;
  d.strideByteOffset = 256;
  d.version = 1;
  return encodeSmemDescriptor(d);
}

void tmemBody(Thread &t, const void *raw) {
  const auto &p = *static_cast<const Params *>(raw);
  const uint32_t base = t.dynamicSharedBase();
  const uint32_t tid = t.tid.x, warp = t.warpid;
  for (uint32_t i = tid; i < 4096; i += 128) {
    uint32_t row = i / 32, byte = i % 32;
    t.storeShared<uint8_t>(base + sourceOffset(row, byte), sourceByte(row, byte), "st.shared");
  }
  t.fenceProxyAsync("fence.proxy.async.shared::cta");
  if (tid == 0)
    t.mbarrierInit(base + kBar, 1, "mbarrier.init");
  t.barrierSync(0, 0, "bar.sync at tmem.cute:10");

  if (p.scenario == Scenario::BadCount && warp == 0)
    t.tcgen05Alloc(base + kSlot, 48, "tcgen05.alloc at tmem.cute:12");
  if (p.scenario == Scenario::AfterRelinquish && warp == 0) {
    t.tcgen05RelinquishAllocPermit("tcgen05.relinquish_alloc_permit at tmem.cute:13");
    t.tcgen05Alloc(base + kSlot, 32, "tcgen05.alloc at tmem.cute:14");
  }
  if (p.scenario == Scenario::Divergent && warp == 0)
    t.tcgen05Alloc(base + kSlot, t.laneid == 5 ? 64 : 32, "tcgen05.alloc at tmem.cute:15");
  if (warp == 0)
    t.tcgen05Alloc(base + kSlot, p.scenario == Scenario::OverAllocate ? 512 : 64,
                   "tcgen05.alloc at tmem.cute:16");
  t.barrierSync(0, 0, "bar.sync at tmem.cute:17");
  if (p.scenario == Scenario::OverAllocate && warp == 1)
    t.tcgen05Alloc(base + kSlot + 4, 32, "tcgen05.alloc at tmem.cute:19");
  const uint32_t taddr = t.loadShared<uint32_t>(base + kSlot, "ld.shared at tmem.cute:20");

  if (tid == 0) {
    t.tcgen05Cp(taddr + 4, sourceDesc(base), p.shape, "tcgen05.cp at tmem.cute:22");
    if (p.scenario != Scenario::LdBeforeCommit && p.scenario != Scenario::DeallocPending &&
        p.scenario != Scenario::WaitNoCommit)
      t.tcgen05Commit(base + kBar, "tcgen05.commit at tmem.cute:24");
  }
  if (p.scenario == Scenario::DeallocPending) {
    t.barrierSync(0, 0, "bar.sync at tmem.cute:26");
    if (warp == 0)
      t.tcgen05Dealloc(taddr, 64, "tcgen05.dealloc at tmem.cute:27");
  }
  if (p.scenario != Scenario::LdBeforeCommit && p.scenario != Scenario::LdBeforeWait &&
      p.scenario != Scenario::DeallocPending)
    t.mbarrierWaitParity(base + kBar, 0, "mbarrier.try_wait at tmem.cute:29");
  else
    t.barrierSync(0, 0, "bar.sync at tmem.cute:31");
  t.tcgen05FenceAfterThreadSync("tcgen05.fence::after_thread_sync");

  uint32_t quarter = p.scenario == Scenario::LaneQuarter ? 0 : warp % 4;
  uint32_t regs[16];
  t.tcgen05Ld32x32b(taddr + ((32 * quarter) << 16), regs, 16,
                    "tcgen05.ld.32x32b.x16 at tmem.cute:35");
  t.tcgen05WaitLd("tcgen05.wait::ld");
  for (uint32_t c = 0; c < 16; ++c)
    t.storeGlobal<uint32_t>(p.out + 4 * (tid * 16 + c), regs[c], "st.global");
  t.tcgen05FenceBeforeThreadSync("tcgen05.fence::before_thread_sync");
  t.barrierSync(0, 0, "bar.sync at tmem.cute:40");
  if (warp == 0 && p.scenario != Scenario::Leak) {
    t.tcgen05Dealloc(taddr, p.scenario == Scenario::DeallocWrongSize ? 32 : 64,
                     "tcgen05.dealloc at tmem.cute:42");
    if (p.scenario == Scenario::DoubleDealloc)
      t.tcgen05Dealloc(taddr, 64, "tcgen05.dealloc at tmem.cute:44");
  }
}

const KernelDescriptor kTmemKernel{"tmem_test", tmemBody, sizeof(Params), /*usesBarriers=*/true,
                                   /*staticSharedBytes=*/0};

struct TmemRun {
  std::vector<uint32_t> out = std::vector<uint32_t>(128 * 16, 0);
  MemoryMap map;
  Params params{};
  LaunchConfig cfg = config({1, 1, 1}, {128, 1, 1}, 1);

  explicit TmemRun(Scenario s, Tcgen05CpShape shape = Tcgen05CpShape::S128x256b) {
    addBuffer(map, out, "out");
    params = {addressOf(out), s, shape};
    cfg.dynamicSharedBytes = kSource + 4096;
  }
  Status launch() { return cutec::rt::launch(kTmemKernel, cfg, &params, map); }
  std::string error() { return launchError(kTmemKernel, cfg, &params, map); }
};

void expectContains(const std::string &text, const std::string &part) {
  EXPECT_NE(text.find(part), std::string::npos) << "missing: " << part << "\nin: " << text;
}

/// Runs a copy-then-load round trip with `shape` and checks that columns 4
/// to 4 + `columns` of each lane hold the bytes of source row
/// `sourceRow(lane)`, and that the other columns were never written.
void expectRoundtrip(Tcgen05CpShape shape, uint32_t columns,
                     const std::function<uint32_t(uint32_t)> &sourceRow) {
  TmemRun run(Scenario::Roundtrip, shape);
  Status s = run.launch();
  ASSERT_TRUE(bool(s)) << s.error();
  for (uint32_t lane = 0; lane < 128; ++lane)
    for (uint32_t c = 0; c < 16; ++c) {
      uint32_t expected = TensorMemory::kUnwritten;
      if (c >= 4 && c < 4 + columns) {
        uint8_t bytes[4];
        for (uint32_t b = 0; b < 4; ++b)
          bytes[b] = sourceByte(sourceRow(lane), 4 * (c - 4) + b);
        std::memcpy(&expected, bytes, 4);
      }
      ASSERT_EQ(run.out[lane * 16 + c], expected) << "lane " << lane << " column " << c;
    }
}

// 128x256b: each lane gets its row's 32 bytes.
TEST(Tmem, Copy128x256bThenLoad) {
  expectRoundtrip(Tcgen05CpShape::S128x256b, 8, [](uint32_t lane) { return lane; });
}

TEST(Tmem, Copy128x128bThenLoad) {
  expectRoundtrip(Tcgen05CpShape::S128x128b, 4, [](uint32_t lane) { return lane; });
}

// 32x128b.warpx4: the 32 rows land in every lane quarter.
TEST(Tmem, Copy32x128bWarpx4DuplicatesToEveryQuarter) {
  expectRoundtrip(Tcgen05CpShape::S32x128bWarpx4, 4, [](uint32_t lane) { return lane % 32; });
}

TEST(Tmem, LoadBeforeCommitIsReported) {
  std::string e = TmemRun(Scenario::LdBeforeCommit).error();
  // Warp 1 is the first to complete its load in the fixed schedule.
  expectContains(e,
                 "tcgen05.ld.32x32b.x16 at tmem.cute:35: warp 1 reads TMEM lanes [32,64) "
                 "columns [0,16) at address 0x200000 (lane 32, column 0), which the asynchronous "
                 "'tcgen05.cp at tmem.cute:22' (issued by thread (0,0,0), warp 0 lane 0; "
                 "writes TMEM lanes [0,128) columns [4,12); no tcgen05.commit of that thread "
                 "has followed it) may still be writing");
}

TEST(Tmem, LoadAfterCommitButBeforeWaitIsReported) {
  std::string e = TmemRun(Scenario::LdBeforeWait).error();
  expectContains(e, "(warp 1, lane 31): tcgen05.ld.32x32b.x16 at tmem.cute:35: warp 1 reads");
  expectContains(e, "committed to mbarrier 0x408 in its phase 0, which no thread has waited "
                    "for yet) may still be writing: commit it (tcgen05.commit), wait on that "
                    "mbarrier phase");
}

TEST(Tmem, OverAllocationIsReportedNotHung) {
  std::string e = TmemRun(Scenario::OverAllocate).error();
  expectContains(e, "(warp 1, lane 31): tcgen05.alloc at tmem.cute:19: tcgen05.alloc of 32 "
                    "columns finds no free block: 512 of the CTA's 512 TMEM columns are "
                    "allocated ([0,512) by warp 0 at 'tcgen05.alloc at tmem.cute:16'); on the "
                    "GPU the warp would wait here");
}

TEST(Tmem, LaneQuarterViolationIsReported) {
  std::string e = TmemRun(Scenario::LaneQuarter).error();
  expectContains(e, "(warp 1, lane 31): tcgen05.ld.32x32b.x16 at tmem.cute:35: lane-quarter "
                    "violation: warp 1 (warp 1 mod 4 = 1) may access TMEM lanes [32,64) only, "
                    "but tcgen05.ld.32x32b.x16 at address 0x0 (lane 0, column 0) reads lanes [0,32)");
}

TEST(Tmem, DoubleDeallocIsReported) {
  std::string e = TmemRun(Scenario::DoubleDealloc).error();
  expectContains(e, "tcgen05.dealloc at tmem.cute:44: double tcgen05.dealloc: TMEM columns "
                    "[0,64) by warp 0 at 'tcgen05.alloc at tmem.cute:16' were already "
                    "deallocated by warp 0 at 'tcgen05.dealloc at tmem.cute:42'");
}

TEST(Tmem, ExitWithColumnsAllocatedIsReported) {
  std::string e = TmemRun(Scenario::Leak).error();
  expectContains(e, "kernel 'tmem_test', CTA (0,0,0): the CTA ended with TMEM columns "
                    "allocated (every tcgen05.alloc needs a tcgen05.dealloc before the CTA "
                    "exits):\n  columns [0,64) by warp 0 at 'tcgen05.alloc at tmem.cute:16'");
}

TEST(Tmem, DeallocOfColumnsStillBeingWrittenIsReported) {
  std::string e = TmemRun(Scenario::DeallocPending).error();
  expectContains(e, "tcgen05.dealloc at tmem.cute:27: tcgen05.dealloc of columns [0,64) by "
                    "warp 0 at 'tcgen05.alloc at tmem.cute:16' that 'tcgen05.cp at "
                    "tmem.cute:22' still writes");
}

TEST(Tmem, WaitingForACommitThatNeverComesIsADeadlockNamingTheCopy) {
  std::string e = TmemRun(Scenario::WaitNoCommit).error();
  expectContains(e, "deadlock");
  expectContains(e, "wait on mbarrier 0x408 for the phase with parity 0 'mbarrier.try_wait at "
                    "tmem.cute:29'");
  expectContains(e, "tcgen05 operation not yet seen complete: 'tcgen05.cp at tmem.cute:22' "
                    "(issued by thread (0,0,0), warp 0 lane 0; writes TMEM lanes [0,128) "
                    "columns [4,12); no tcgen05.commit of that thread has followed it)");
}

TEST(Tmem, AllocCountMustBeAPowerOfTwoFrom32To512) {
  expectContains(TmemRun(Scenario::BadCount).error(),
                 "tcgen05.alloc at tmem.cute:12: tcgen05.alloc of 48 columns: the count must "
                 "be a power of two from 32 to 512");
}

TEST(Tmem, AllocAfterRelinquishIsReported) {
  expectContains(TmemRun(Scenario::AfterRelinquish).error(),
                 "tcgen05.alloc at tmem.cute:14: tcgen05.alloc after this CTA executed "
                 "tcgen05.relinquish_alloc_permit");
}

TEST(Tmem, DeallocMustGiveTheAllocatedCount) {
  expectContains(TmemRun(Scenario::DeallocWrongSize).error(),
                 "tcgen05.dealloc of 32 columns, but the allocation [0,64) by warp 0 at "
                 "'tcgen05.alloc at tmem.cute:16' has 64");
}

TEST(Tmem, LanesMustAgreeOnAlignedOperands) {
  expectContains(TmemRun(Scenario::Divergent).error(),
                 "lanes 0 and 5 of warp 0 pass different operands to a .sync.aligned "
                 "tcgen05.alloc");
}

// A kernel whose descriptor says usesBarriers = false cannot run a
// warp-collective tcgen05 instruction.
void allocOnlyBody(Thread &t, const void *) {
  t.tcgen05Alloc(t.dynamicSharedBase(), 32, "tcgen05.alloc at tmem.cute:50");
}

TEST(Tmem, CollectivesNeedUsesBarriers) {
  KernelDescriptor k{"alloc_only", allocOnlyBody, 0, /*usesBarriers=*/false, 0};
  MemoryMap map;
  LaunchConfig cfg = config({1, 1, 1}, {32, 1, 1}, 1);
  cfg.dynamicSharedBytes = 16;
  expectContains(launchError(k, cfg, nullptr, map),
                 "tcgen05.alloc at tmem.cute:50: the kernel's descriptor says usesBarriers = "
                 "false");
}

TEST(Tmem, ErrorsAreTheSameForAnyWorkerCount) {
  for (Scenario s : {Scenario::LdBeforeWait, Scenario::OverAllocate, Scenario::Leak}) {
    TmemRun one(s), many(s);
    one.cfg.grid = many.cfg.grid = {6, 1, 1};
    one.cfg.workerThreads = 1;
    many.cfg.workerThreads = 4;
    EXPECT_EQ(one.error(), many.error());
  }
}

// A commit tracks every earlier tcgen05 operation of its thread, committed
// before or not: a pipeline that commits each MMA to its stage's "empty"
// barrier and then once more to "done" completes them all when the epilogue
// waits on "done" (examples/fp16_gemm.cute does this).
TEST(Tmem, ALaterCommitCoversWritesAlreadyCommittedElsewhere) {
  TensorMemory tmem;
  const uint32_t issuer = 32, empty = 0x400, done = 0x408;
  uint64_t first = tmem.addPendingWrite(TmemLanes::range(0, 128), 0, 256, "mma 1", issuer);
  tmem.commit(issuer, empty, 0, tmem.lastSerial());
  uint64_t second = tmem.addPendingWrite(TmemLanes::range(0, 128), 0, 256, "mma 2", issuer);
  tmem.commit(issuer, empty + 8, 0, tmem.lastSerial());
  tmem.commit(issuer, done, 0, tmem.lastSerial());
  EXPECT_EQ(tmem.observeCompletion(done, 1), second);
  EXPECT_GT(second, first);
  EXPECT_TRUE(tmem.pendingWrites().empty());
}

// A commit that a schedule delivers late tracks only the operations issued
// before it: an MMA issued in between stays pending when it arrives.
TEST(Tmem, ALateCommitDoesNotCoverLaterWrites) {
  TensorMemory tmem;
  const uint32_t issuer = 32, full = 0x400;
  uint64_t first = tmem.addPendingWrite(TmemLanes::range(0, 128), 0, 256, "mma 1", issuer);
  uint64_t through = tmem.lastSerial();
  uint64_t second = tmem.addPendingWrite(TmemLanes::range(0, 128), 256, 256, "mma 2", issuer);
  tmem.commit(issuer, full, 0, through);
  EXPECT_EQ(tmem.observeCompletion(full, 1), first);
  ASSERT_EQ(tmem.pendingWrites().size(), 1u);
  EXPECT_EQ(tmem.pendingWrites().front().serial, second);
}

} // namespace
} // namespace cutec::rt
