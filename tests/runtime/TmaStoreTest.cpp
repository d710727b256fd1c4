// TMA stores and bulk async-groups in the emulator: what a store writes
// (every swizzle and element size, boxes across every edge of the tensor,
// checked against an element-by-element formulation written here), when it
// writes it (at the wait_group without .read that retires its group, or at
// the CTA's end), the group rules of the PTX ISA (wait_group n leaves the n
// most recent groups pending, empty groups count, each thread has its own
// groups, uncommitted stores are not waited for), and the misuses that must
// be reported: writing the source or loading into it before a wait_group
// retires the store, reading the destination before the store completes,
// and a CTA ending while a store may still read its source.
#include "LaunchTestSupport.h"
#include "TmaTestBoxes.h"

#include <cstring>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::Box;
using test::box2d;
using test::boxBytes;
using test::config;
using test::Global;
using test::launchError;
using test::makeGlobal;
using test::rowPitch;

/// What one thread does in a test kernel, in order.
enum class Op : uint32_t {
  FillShared,  // the region: byte i = pattern(i)
  Store,       // tma store of the box from region + a
  Commit,      // cp.async.bulk.commit_group
  WaitRead,    // cp.async.bulk.wait_group.read a
  Wait,        // cp.async.bulk.wait_group a
  StoreShared, // st.shared.u32 at region + a
  LoadGlobal,  // ld.global.u8 of global byte a
  LoadInto,    // a TMA load of the same box into region + a
  ZeroShared,  // the region: all zero
};

struct Step {
  Op op;
  uint32_t thread = 0;
  uint32_t a = 0;
};

constexpr uint32_t kRegionAlign = 1024;
constexpr uint32_t kMaxSteps = 12;

struct alignas(64) StoreParams {
  TensorMap tmap;
  uint64_t global;
  uint32_t regionBytes, rank, steps;
  int32_t coords[5];
  Step step[kMaxSteps];
};

uint8_t pattern(uint32_t i) { return uint8_t(i * 37 + (i >> 8) * 11 + 3); }

void storeBody(Thread &t, const void *raw) {
  auto &p = *static_cast<const StoreParams *>(raw);
  uint32_t bar = t.staticSharedBase();
  uint32_t region = (t.dynamicSharedBase() + kRegionAlign - 1) & ~(kRegionAlign - 1);
  auto map = reinterpret_cast<uint64_t>(&p.tmap);
  for (uint32_t s = 0; s < p.steps; ++s) {
    const Step &step = p.step[s];
    if (step.thread != t.tid.x)
      continue;
    switch (step.op) {
    case Op::FillShared:
    case Op::ZeroShared:
      for (uint32_t i = 0; i < p.regionBytes; i += 4) {
        uint32_t word = 0;
        for (uint32_t b = 0; b < 4 && step.op == Op::FillShared; ++b)
          word |= uint32_t(pattern(i + b)) << (8 * b);
        t.storeShared<uint32_t>(region + i, word, "st.shared.u32 at store.cute:1");
      }
      t.fenceProxyAsync("fence.proxy.async.shared::cta at store.cute:1");
      break;
    case Op::Store:
      t.tmaStoreTile(region + step.a, map, p.coords, p.rank,
                     "cp.async.bulk.tensor at store.cute:2");
      break;
    case Op::Commit:
      t.bulkCommitGroup("cp.async.bulk.commit_group at store.cute:3");
      break;
    case Op::WaitRead:
      t.bulkWaitGroup(step.a, true, "cp.async.bulk.wait_group.read at store.cute:4");
      break;
    case Op::Wait:
      t.bulkWaitGroup(step.a, false, "cp.async.bulk.wait_group at store.cute:5");
      break;
    case Op::StoreShared:
      t.storeShared<uint32_t>(region + step.a, 0, "st.shared.u32 at store.cute:6");
      break;
    case Op::LoadGlobal:
      t.loadGlobal<uint8_t>(p.global + step.a, "ld.global.u8 at store.cute:7");
      break;
    case Op::LoadInto:
      t.mbarrierInit(bar, 1, "mbarrier.init at store.cute:8");
      t.tmaLoadTile(region + step.a, map, p.coords, p.rank, bar,
                    "cp.async.bulk.tensor load at store.cute:9");
      break;
    }
  }
}

const KernelDescriptor kStoreKernel{"tma_store", storeBody, sizeof(StoreParams),
                                    /*usesBarriers=*/false, /*staticSharedBytes=*/8};

constexpr uint8_t kUntouched = 0x5A;

/// The tensor of `b`, every byte kUntouched.
Global untouchedGlobal(const Box &b) {
  Global g = makeGlobal(b);
  std::fill(g.bytes.begin(), g.bytes.end(), kUntouched);
  return g;
}

/// The region bytes the box spans, rounded to the region alignment.
uint32_t regionBytes(const Box &b, uint32_t srcOffset) {
  uint32_t extent = srcOffset + boxBytes(b) / (b.box[0] * tmaElementBytes(b.type)) * rowPitch(b);
  return (extent + kRegionAlign - 1) / kRegionAlign * kRegionAlign;
}

/// The global bytes after storing the box from a region filled with
/// pattern(), element by element: in-bounds elements get the bytes at their
/// (swizzled) shared address, everything else stays kUntouched.
std::vector<uint8_t> expectedGlobal(const Box &b, const Global &g, uint32_t srcOffset) {
  std::vector<uint8_t> want = g.bytes;
  uint32_t e = tmaElementBytes(b.type);
  test::forEachBoxElement(
      b, g, [&](const uint32_t *, uint32_t linear, bool inside, uint64_t offset) {
        for (uint32_t byte = 0; inside && byte < e; ++byte) {
          uint32_t row = linear / b.box[0], column = linear % b.box[0] * e + byte;
          uint32_t address = srcOffset + row * rowPitch(b) + column; // region-relative
          want[offset + byte] = pattern(test::swizzled(address, b.swizzle));
        }
      });
  return want;
}

/// Launches `steps` (on threads 0..threads-1) with the map of `b` over `g`.
Status run(const Box &b, Global &g, std::vector<Step> steps, uint32_t srcOffset = 0,
           unsigned threads = 1, unsigned workers = 1) {
  StoreParams p{};
  const uint32_t ones[5] = {1, 1, 1, 1, 1};
  std::string problem =
      encodeTensorMapTiled(p.tmap, b.type, b.rank, g.bytes.data(), b.dim, g.stride + 1, b.box, ones,
                           TmaInterleave::None, b.swizzle, TmaL2Promotion::None, TmaOobFill::None);
  EXPECT_EQ(problem, "");
  p.global = addressOf(g.bytes);
  p.regionBytes = regionBytes(b, srcOffset);
  p.rank = b.rank;
  std::memcpy(p.coords, b.coord, sizeof p.coords);
  EXPECT_LE(steps.size(), kMaxSteps);
  p.steps = uint32_t(steps.size());
  std::copy(steps.begin(), steps.end(), p.step);
  MemoryMap map;
  addBuffer(map, g.bytes, "tensor");
  LaunchConfig c = config({1, 1, 1}, {threads, 1, 1}, workers);
  c.dynamicSharedBytes = p.regionBytes + kRegionAlign;
  return launch(kStoreKernel, c, &p, map);
}

std::string error(const Box &b, std::vector<Step> steps, unsigned threads = 1,
                  uint32_t regionOffset = 0) {
  Global g = untouchedGlobal(b);
  Status status = run(b, g, std::move(steps), regionOffset, threads);
  EXPECT_FALSE(bool(status)) << "the kernel ran without an error";
  return status ? std::string() : status.error();
}

void expectStored(const Box &b, const char *label, std::vector<Step> steps,
                  uint32_t srcOffset = 0) {
  Global g = untouchedGlobal(b);
  std::vector<uint8_t> want = expectedGlobal(b, g, srcOffset);
  Status status = run(b, g, std::move(steps), srcOffset);
  ASSERT_TRUE(bool(status)) << label << ": " << status.error();
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (g.bytes[i] != want[i] && differ++ == 0)
      first = i;
  EXPECT_EQ(differ, 0u) << label << ": first difference at global byte " << first;
}

const std::vector<Step> kStoreAndWait = {
    {Op::FillShared}, {Op::Store}, {Op::Commit}, {Op::Wait, 0, 0}};

TEST(TmaStore, EverySwizzleAndElementSizeClippedAtEveryEdge) {
  for (TmaSwizzle s : {TmaSwizzle::None, TmaSwizzle::B32, TmaSwizzle::B64, TmaSwizzle::B128})
    for (TmaDataType type : {TmaDataType::Uint8, TmaDataType::Float16, TmaDataType::Float32}) {
      uint32_t e = tmaElementBytes(type);
      uint32_t inner = s == TmaSwizzle::None ? 64 / e : (16u << uint32_t(s)) / e;
      int32_t step = int32_t(16 / e); // box starts on 16-byte boundaries
      int32_t rightEdge = (int32_t(inner) * 3 + 5 - int32_t(inner) / 2) / step * step;
      for (int32_t c0 : {-2 * step, 0, 3 * step, rightEdge})
        for (int32_t c1 : {-3, 0, 40}) {
          Box b = box2d(type, s, inner, 8, c0, c1);
          std::string label = "swizzle " + std::to_string(uint32_t(s)) + ", " + std::to_string(e) +
                              "-byte elements, box at (" + std::to_string(c0) + ", " +
                              std::to_string(c1) + ")";
          expectStored(b, label.c_str(), kStoreAndWait);
        }
    }
}

TEST(TmaStore, Ranks3To5AndASourceAtAnOffset) {
  Box b = box2d(TmaDataType::Float16, TmaSwizzle::B64, 32, 4, 16, 2);
  b.rank = 5;
  uint64_t dims[] = {101, 9, 3, 4, 2};
  uint32_t boxes[] = {32, 4, 2, 3, 2};
  int32_t coords[] = {16, 7, 2, -1, 1};
  for (uint32_t d = 0; d < 5; ++d) {
    b.dim[d] = dims[d];
    b.box[d] = boxes[d];
    b.coord[d] = coords[d];
  }
  for (uint32_t rank : {3u, 4u, 5u}) {
    b.rank = rank;
    expectStored(b, ("rank " + std::to_string(rank)).c_str(),
                 {{Op::FillShared}, {Op::Store, 0, 256}, {Op::Commit}, {Op::Wait, 0, 0}}, 256);
  }
}

TEST(TmaStore, TheSourceIsReadAtIssueAndWrittenAtTheCtasEnd) {
  // After wait_group.read the source may change: the store keeps what it
  // read, and the CTA's end completes it.
  Box b = box2d(TmaDataType::Float32, TmaSwizzle::B128, 32, 8, 8, 3);
  expectStored(
      b, "read retired, completed at the end",
      {{Op::FillShared}, {Op::Store}, {Op::Commit}, {Op::WaitRead, 0, 0}, {Op::ZeroShared}});
}

TEST(TmaStore, WaitGroupLeavesTheNMostRecentGroupsPending) {
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::None, 64, 4, 0, 0);
  // Two stores in two groups; wait_group.read 1 retires the older one only.
  Global g = untouchedGlobal(b);
  Status ok = run(b, g,
                  {{Op::FillShared},
                   {Op::Store, 0, 0},
                   {Op::Commit},
                   {Op::Store, 0, 1024},
                   {Op::Commit},
                   {Op::WaitRead, 0, 1},
                   {Op::StoreShared, 0, 0},
                   {Op::WaitRead, 0, 0},
                   {Op::StoreShared, 0, 1024}},
                  /*srcOffset=*/1024);
  EXPECT_TRUE(bool(ok)) << ok.error();
  std::string e = error(b,
                        {{Op::FillShared},
                         {Op::Store, 0, 0},
                         {Op::Commit},
                         {Op::Store, 0, 1024},
                         {Op::Commit},
                         {Op::WaitRead, 0, 1},
                         {Op::StoreShared, 0, 1024}},
                        1, /*regionOffset=*/1024);
  // The region starts at 0x800: the dynamic shared memory (0x410) aligned.
  EXPECT_NE(e.find("st.shared.u32 at store.cute:6: 4-byte shared store at 0xc00 overwrites "
                   "shared memory that the TMA store 'cp.async.bulk.tensor at store.cute:2' "
                   "(issued by thread (0,0,0), warp 0 lane 0; reads shared [0xc00, 0xd00)"),
            std::string::npos)
      << e;
}

TEST(TmaStore, AnEmptyGroupCountsAsAGroup) {
  // commit_group with nothing to commit makes an empty group, which is the
  // most recent one: wait_group.read 1 then retires the store's group.
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::None, 64, 4, 0, 0);
  Global g = untouchedGlobal(b);
  Status ok = run(b, g,
                  {{Op::FillShared},
                   {Op::Store},
                   {Op::Commit},
                   {Op::Commit},
                   {Op::WaitRead, 0, 1},
                   {Op::StoreShared, 0, 0}});
  EXPECT_TRUE(bool(ok)) << ok.error();
  // Without the empty group the store's group is the most recent one.
  std::string e = error(
      b,
      {{Op::FillShared}, {Op::Store}, {Op::Commit}, {Op::WaitRead, 0, 1}, {Op::StoreShared, 0, 0}});
  EXPECT_NE(e.find("its bulk async-group is not retired yet) may still be reading: retire its "
                   "bulk async-group with cp.async.bulk.wait_group.read before reusing the "
                   "buffer"),
            std::string::npos)
      << e;
}

TEST(TmaStore, UncommittedStoresAreNotWaitedFor) {
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::None, 64, 4, 0, 0);
  std::string e =
      error(b, {{Op::FillShared}, {Op::Store}, {Op::Wait, 0, 0}, {Op::StoreShared, 0, 64}});
  EXPECT_NE(e.find("no cp.async.bulk.commit_group of its thread has followed it"),
            std::string::npos)
      << e;
}

TEST(TmaStore, AnotherThreadsWaitRetiresNothing) {
  // Thread 0 issues and commits; thread 1's wait_group covers only its own
  // (no) groups, so its store to the source races with thread 0's store.
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::None, 64, 4, 0, 0);
  std::string e = error(b,
                        {{Op::FillShared, 0},
                         {Op::Store, 0},
                         {Op::Commit, 0},
                         {Op::Wait, 1, 0},
                         {Op::StoreShared, 1, 0}},
                        /*threads=*/2);
  EXPECT_NE(e.find("thread (1,0,0) (warp 0, lane 1): st.shared.u32 at store.cute:6"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("(issued by thread (0,0,0), warp 0 lane 0;"), std::string::npos) << e;
}

TEST(TmaStore, ATmaLoadIntoTheSourceIsReported) {
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::None, 64, 4, 0, 0);
  std::string e = error(b, {{Op::FillShared}, {Op::Store}, {Op::Commit}, {Op::LoadInto, 0, 0}});
  EXPECT_NE(e.find("cp.async.bulk.tensor load at store.cute:9: the box writes shared byte 0x800, "
                   "which the TMA store 'cp.async.bulk.tensor at store.cute:2'"),
            std::string::npos)
      << e;
}

TEST(TmaStore, ReadingTheDestinationBeforeTheStoreCompletesIsReported) {
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::None, 64, 4, 0, 0);
  Global g = untouchedGlobal(b);
  uint32_t inside = uint32_t(g.stride[1] + 5); // element (5, 1)
  std::string e = error(b, {{Op::FillShared},
                            {Op::Store},
                            {Op::Commit},
                            {Op::WaitRead, 0, 0},
                            {Op::LoadGlobal, 0, inside}});
  EXPECT_NE(e.find("ld.global.u8 at store.cute:7: 1-byte global load at"), std::string::npos) << e;
  EXPECT_NE(e.find("its group is retired by a wait_group.read only) writes when it completes: "
                   "retire its bulk async-group with cp.async.bulk.wait_group (without .read) "
                   "first"),
            std::string::npos)
      << e;
  // Bytes the box does not write, and the completed store's, may be read.
  Status ok = run(b, g,
                  {{Op::FillShared},
                   {Op::Store},
                   {Op::Commit},
                   {Op::WaitRead, 0, 0},
                   {Op::LoadGlobal, 0, uint32_t(g.stride[1] * 4)},
                   {Op::Wait, 0, 0},
                   {Op::LoadGlobal, 0, inside}});
  EXPECT_TRUE(bool(ok)) << ok.error();
}

TEST(TmaStore, ACtaEndingWhileASourceMayBeReadIsReported) {
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::None, 64, 4, 0, 0);
  std::string e = error(b, {{Op::FillShared}, {Op::Store}, {Op::Commit}});
  EXPECT_NE(e.find("kernel 'tma_store', CTA (0,0,0): the CTA ended while 1 TMA store(s) may still "
                   "read their shared source"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("\n  'cp.async.bulk.tensor at store.cute:2' (issued by thread (0,0,0)"),
            std::string::npos)
      << e;
}

TEST(TmaStore, MisusesOfTheInstructionItself) {
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::None, 64, 4, 0, 0);
  std::string e = error(b, {{Op::FillShared}, {Op::Store, 0, 16}});
  EXPECT_NE(e.find("shared source 0x810 is not 128-byte aligned"), std::string::npos) << e;
  b.coord[0] = 3;
  e = error(b, {{Op::FillShared}, {Op::Store}});
  EXPECT_NE(e.find("the box starts at element 3 of dimension 0"), std::string::npos) << e;
}

TEST(TmaStore, ResultsDoNotDependOnWorkerCount) {
  Box b = box2d(TmaDataType::Float16, TmaSwizzle::B64, 32, 19, -8, 40);
  Global one = untouchedGlobal(b), four = untouchedGlobal(b);
  ASSERT_TRUE(bool(run(b, one, kStoreAndWait, 0, 1, 1)));
  ASSERT_TRUE(bool(run(b, four, kStoreAndWait, 0, 1, 4)));
  EXPECT_EQ(one.bytes, four.bytes);
}

} // namespace
} // namespace cutec::rt
