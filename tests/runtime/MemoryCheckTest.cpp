// Checked memory: out-of-bounds and misaligned global and shared accesses
// stop the launch with a message naming the access, the nearest buffer, the
// thread and the instruction; the memory map's own rules.
#include "LaunchTestSupport.h"

#include "runtime/base/DiagnosticText.h"

#include <array>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::config;
using test::launchError;

struct CopyParams {
  uint64_t in, out;
  uint32_t shift; // elements added to the read index: 1 is an off-by-one bug
  uint32_t byteOffset;
};

// out[i] = in[i + shift], reading 4-byte elements at in + byteOffset.
void shiftedCopyBody(Thread &t, const void *params) {
  auto &p = *static_cast<const CopyParams *>(params);
  uint32_t r1 = t.ctaid.x * t.ntid.x + t.tid.x;
  uint64_t rd1 = p.in + p.byteOffset + uint64_t(r1 + p.shift) * 4;
  uint32_t r2 = t.loadGlobal<uint32_t>(rd1, "ld.global.b32 at copy.cute:7");
  t.storeGlobal<uint32_t>(p.out + uint64_t(r1) * 4, r2, "st.global.b32 at copy.cute:8");
}
const KernelDescriptor shiftedCopyKernel{"shifted_copy", shiftedCopyBody, sizeof(CopyParams), false,
                                         0};

TEST(MemoryCheck, OutOfBoundsGlobalRead) {
  std::vector<uint32_t> in(256), out(256);
  MemoryMap map;
  addBuffer(map, in, "in");
  addBuffer(map, out, "out");
  CopyParams params{addressOf(in), addressOf(out), 1, 0};
  std::string error = launchError(shiftedCopyKernel, config({2, 1, 1}, {128, 1, 1}), &params, map);
  EXPECT_EQ(error, "kernel 'shifted_copy', CTA (1,0,0), thread (127,0,0) (warp 3, lane 31): "
                   "ld.global.b32 at copy.cute:7: out-of-bounds 4-byte global load at " +
                       hex(addressOf(in) + 1024) +
                       ": it starts 0 bytes past the end of buffer 'in' (1024 bytes at " +
                       hex(addressOf(in)) + ")");
}

TEST(MemoryCheck, MisalignedGlobalRead) {
  std::vector<uint32_t> in(257), out(256);
  MemoryMap map;
  addBuffer(map, in, "in");
  addBuffer(map, out, "out");
  CopyParams params{addressOf(in), addressOf(out), 0, 2};
  std::string error = launchError(shiftedCopyKernel, config({2, 1, 1}, {128, 1, 1}), &params, map);
  EXPECT_EQ(error, "kernel 'shifted_copy', CTA (0,0,0), thread (0,0,0) (warp 0, lane 0): "
                   "ld.global.b32 at copy.cute:7: misaligned 4-byte global load at " +
                       hex(addressOf(in) + 2) +
                       ": the address must be a multiple of 4 (offset 2 in buffer 'in')");
}

TEST(MemoryCheck, TheLowestFailingCtaIsReportedWhateverTheWorkers) {
  // Every CTA reads out of bounds; all workers must agree on CTA 0.
  std::vector<uint32_t> in(64), out(64 * 64);
  MemoryMap map;
  addBuffer(map, in, "in");
  addBuffer(map, out, "out");
  CopyParams params{addressOf(in), addressOf(out), 64, 0};
  std::string single =
      launchError(shiftedCopyKernel, config({64, 1, 1}, {64, 1, 1}, 1), &params, map);
  EXPECT_NE(single.find("CTA (0,0,0), thread (0,0,0)"), std::string::npos) << single;
  for (unsigned workers : {2u, 4u, 16u})
    EXPECT_EQ(launchError(shiftedCopyKernel, config({64, 1, 1}, {64, 1, 1}, workers), &params, map),
              single);
}

// A 16-byte vector load and store (ld.global.v4.b32): one access, 16-aligned.
void vectorCopyBody(Thread &t, const void *params) {
  auto &p = *static_cast<const CopyParams *>(params);
  uint64_t rd1 = uint64_t(t.tid.x) * 16 + p.byteOffset;
  auto v = t.loadGlobal<std::array<uint32_t, 4>>(p.in + rd1, "ld.global.v4.b32 at v.cute:3");
  t.storeGlobal(p.out + rd1, v, "st.global.v4.b32 at v.cute:4");
}
const KernelDescriptor vectorCopyKernel{"vector_copy", vectorCopyBody, sizeof(CopyParams), false,
                                        0};

TEST(MemoryCheck, VectorAccessesAreOneAlignedAccess) {
  alignas(16) static std::array<uint32_t, 68> in, out; // 16-byte aligned on purpose
  for (uint32_t i = 0; i < in.size(); ++i)
    in[i] = i * 3;
  MemoryMap map;
  ASSERT_TRUE(bool(map.add(in.data(), 64 * 4, "in")));
  ASSERT_TRUE(bool(map.add(out.data(), 64 * 4, "out")));
  CopyParams params{reinterpret_cast<uintptr_t>(in.data()), reinterpret_cast<uintptr_t>(out.data()),
                    0, 0};
  Status status = launch(vectorCopyKernel, config({1, 1, 1}, {16, 1, 1}), &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  EXPECT_TRUE(std::equal(in.begin(), in.begin() + 64, out.begin()));
  params.byteOffset = 8; // v4.b32 needs 16-byte alignment, not 4
  std::string error = launchError(vectorCopyKernel, config({1, 1, 1}, {16, 1, 1}), &params, map);
  EXPECT_NE(error.find("ld.global.v4.b32 at v.cute:3: misaligned 16-byte global load"),
            std::string::npos)
      << error;
}

// Each thread stores its index to shared word tid and reads its neighbour's.
struct SharedParams {
  uint32_t stride;
};
void sharedBody(Thread &t, const void *params) {
  auto &p = *static_cast<const SharedParams *>(params);
  uint32_t r1 = t.dynamicSharedBase() + t.tid.x * p.stride;
  t.storeShared<uint32_t>(r1, t.tid.x, "st.shared.b32 at smem.cute:4");
}
const KernelDescriptor sharedKernel{"smem", sharedBody, sizeof(SharedParams), false, 16};

TEST(MemoryCheck, OutOfBoundsSharedStore) {
  LaunchConfig c = config({1, 1, 1}, {65, 1, 1});
  c.dynamicSharedBytes = 256; // room for 64 words after 16 static bytes
  SharedParams params{4};
  MemoryMap map;
  EXPECT_EQ(launchError(sharedKernel, c, &params, map),
            "kernel 'smem', CTA (0,0,0), thread (64,0,0) (warp 2, lane 0): st.shared.b32 at "
            "smem.cute:4: out-of-bounds 4-byte shared store at 0x510: it starts 0 bytes past the "
            "end of the CTA's shared memory [0x400, 0x510) (16 static + 256 dynamic bytes)");
}

TEST(MemoryCheck, MisalignedSharedStore) {
  LaunchConfig c = config({1, 1, 1}, {4, 1, 1});
  c.dynamicSharedBytes = 256;
  SharedParams params{6};
  MemoryMap map;
  EXPECT_EQ(launchError(sharedKernel, c, &params, map),
            "kernel 'smem', CTA (0,0,0), thread (1,0,0) (warp 0, lane 1): st.shared.b32 at "
            "smem.cute:4: misaligned 4-byte shared store at 0x416: the address must be a "
            "multiple of 4");
}

// Reads a shared word nobody wrote (what a kernel forgetting to initialise
// its accumulators does): it must not silently be zero.
void unwrittenSharedBody(Thread &t, const void *params) {
  auto &p = *static_cast<const CopyParams *>(params);
  uint32_t r1 = t.loadShared<uint32_t>(t.dynamicSharedBase(), "ld.shared.u32 at u.cute:2");
  t.storeGlobal<uint32_t>(p.out, r1, "st.global.u32 at u.cute:3");
}
const KernelDescriptor unwrittenSharedKernel{"unwritten_shared", unwrittenSharedBody,
                                             sizeof(CopyParams), false, 0};

TEST(MemoryCheck, UnwrittenSharedMemoryReadsAsAllOnes) {
  std::vector<uint32_t> out(1, 0);
  MemoryMap map;
  addBuffer(map, out, "out");
  CopyParams params{0, addressOf(out), 0, 0};
  LaunchConfig c = config({1, 1, 1}, {1, 1, 1});
  c.dynamicSharedBytes = 4;
  Status status = launch(unwrittenSharedKernel, c, &params, map);
  ASSERT_TRUE(bool(status)) << status.error();
  EXPECT_EQ(out[0], 0xFFFFFFFFu);
}

TEST(MemoryMap, RefusesOverlapsAndDescribesMisses) {
  std::vector<uint8_t> bytes(300);
  MemoryMap map;
  ASSERT_TRUE(bool(map.add(bytes.data() + 100, 100, "mid")));
  Status overlap = map.add(bytes.data() + 150, 100, "late");
  ASSERT_FALSE(bool(overlap));
  EXPECT_NE(overlap.error().find("overlaps buffer 'mid'"), std::string::npos);
  ASSERT_TRUE(bool(map.add(bytes.data() + 200, 100, "high")));
  auto at = [&](size_t offset) { return reinterpret_cast<uintptr_t>(bytes.data()) + offset; };
  EXPECT_EQ(map.find(at(196), 4)->name, "mid");
  EXPECT_EQ(map.find(at(198), 4), nullptr);
  std::string straddling = map.describeMiss(at(198), 4);
  EXPECT_TRUE(straddling.starts_with(
      "it starts at offset 98 and runs 2 bytes past the end of buffer 'mid' (100 bytes at"))
      << straddling;
  std::string below = map.describeMiss(at(90), 4);
  EXPECT_TRUE(below.starts_with("it ends 6 bytes before the start of buffer 'mid'")) << below;
  EXPECT_EQ(MemoryMap().describeMiss(at(0), 4), "no global buffer is registered");
}

} // namespace
} // namespace cutec::rt
