// TMA tile loads in the emulator: encodeTensorMapTiled's validity rules, and
// the shared-memory image of boxes (every swizzle, 1/2/4-byte elements,
// ranks 1-5, edges, negative coordinates, element strides, NaN fill, packed
// fp4, rows narrower than the swizzle span) against an independent
// element-by-element formulation written here, and what the hardware
// refuses (unaligned box starts and destinations). The rules were measured
// on an H100 by tests/hardware/TmaModelCheck.cpp (docs/emulator.md).
#include "LaunchTestSupport.h"
#include "TmaImageKernel.h"
#include "TmaTestBoxes.h"

#include "runtime/numerics/Fp4Packing.h"

#include <cstring>
#include <numeric>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::Box;
using test::box2d;
using test::boxBytes;
using test::Global;
using test::makeGlobal;
using test::rowPitch;
using test::sharedExtent;
using test::addressOf;
using test::config;
using test::launchError;

// ---------------------------------------------------------------------------
// Encoding rules: one test per rule the driver enforces.

struct EncodeArgs {
  TmaDataType type = TmaDataType::Float16;
  uint32_t rank = 2;
  uint64_t addressOffset = 0;
  uint64_t dim[5] = {64, 32, 1, 1, 1};
  uint64_t stride[4] = {128, 4096, 4096, 4096};
  uint32_t box[5] = {64, 16, 1, 1, 1};
  uint32_t estride[5] = {1, 1, 1, 1, 1};
  TmaInterleave interleave = TmaInterleave::None;
  TmaSwizzle swizzle = TmaSwizzle::B128;
  TmaOobFill oob = TmaOobFill::None;

  std::string encode() const {
    alignas(256) static uint8_t storage[512];
    TensorMap map;
    return encodeTensorMapTiled(map, type, rank, storage + addressOffset, dim, stride, box,
                                estride, interleave, swizzle, TmaL2Promotion::None, oob);
  }
};

void expectRejected(const EncodeArgs &a, const char *words) {
  std::string message = a.encode();
  EXPECT_NE(message.find(words), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
}

TEST(TmaEncode, AcceptsAValidMap) { EXPECT_EQ(EncodeArgs{}.encode(), ""); }

TEST(TmaEncode, RankOutside1To5) {
  EncodeArgs a;
  a.rank = 0;
  expectRejected(a, "tensorRank 0 is outside 1..5");
  a.rank = 6;
  expectRejected(a, "tensorRank 6 is outside 1..5");
}

TEST(TmaEncode, GlobalAddressNot16ByteAligned) {
  EncodeArgs a;
  a.addressOffset = 8;
  expectRejected(a, "is not 16-byte aligned");
}

TEST(TmaEncode, GlobalDimOutside1To2Pow32) {
  EncodeArgs a;
  a.dim[1] = 0;
  expectRejected(a, "globalDim[1] = 0 is outside [1, 2^32]");
  a.dim[1] = (uint64_t(1) << 32) + 1;
  expectRejected(a, "globalDim[1] = 4294967297 is outside");
  a.dim[1] = uint64_t(1) << 32;
  EXPECT_EQ(a.encode(), "");
}

TEST(TmaEncode, GlobalStrideNotMultipleOf16OrTooLarge) {
  EncodeArgs a;
  a.stride[0] = 136;
  expectRejected(a, "globalStrides[0] = 136 is not a multiple of 16 bytes");
  a.stride[0] = uint64_t(1) << 40;
  expectRejected(a, "is not below 2^40");
}

TEST(TmaEncode, BoxDimOutside1To256) {
  EncodeArgs a;
  a.box[1] = 0;
  expectRejected(a, "boxDim[1] = 0 is outside [1, 256]");
  a.box[1] = 257;
  expectRejected(a, "boxDim[1] = 257 is outside [1, 256]");
  a.box[1] = 256;
  EXPECT_EQ(a.encode(), "");
}

TEST(TmaEncode, InnerBoxBytesNotMultipleOf16) {
  EncodeArgs a;
  a.swizzle = TmaSwizzle::None;
  a.box[0] = 12;
  expectRejected(a, "boxDim[0] * 2 = 24 bytes is not a multiple of 16");
}

TEST(TmaEncode, ElementStridesOutside1To8) {
  EncodeArgs a;
  a.estride[1] = 0;
  expectRejected(a, "elementStrides[1] = 0 is outside [1, 8]");
  a.estride[1] = 9;
  expectRejected(a, "elementStrides[1] = 9 is outside [1, 8]");
  a.estride[1] = 8;
  EXPECT_EQ(a.encode(), "");
}

TEST(TmaEncode, InnerBoxWiderThanTheSwizzleSpan) {
  EncodeArgs a; // 64 f16 = 128 bytes
  a.swizzle = TmaSwizzle::B64;
  expectRejected(a, "128 bytes exceeds the 64-byte swizzle span");
  a.box[0] = 32;
  a.swizzle = TmaSwizzle::B32;
  expectRejected(a, "64 bytes exceeds the 32-byte swizzle span");
  a.swizzle = TmaSwizzle::B64;
  EXPECT_EQ(a.encode(), "");
}

TEST(TmaEncode, NanFillNeedsAFloatType) {
  EncodeArgs a;
  a.oob = TmaOobFill::NanRequestZeroFma;
  EXPECT_EQ(a.encode(), "");
  a.type = TmaDataType::Uint16;
  expectRejected(a, "needs a floating-point tensorDataType");
}

TEST(TmaEncode, InterleaveRulesThenNotModelled) {
  EncodeArgs a;
  a.interleave = TmaInterleave::B16;
  expectRejected(a, "an interleaved layout needs tensorRank >= 3");
  a.rank = 3;
  a.swizzle = TmaSwizzle::None;
  expectRejected(a, "not modelled by the emulation");
  a.interleave = TmaInterleave::B32;
  expectRejected(a, "interleave 32B requires swizzle 32B");
}

TEST(TmaEncode, BadEnumsAndPackedTypes) {
  EncodeArgs a;
  a.type = TmaDataType(13);
  expectRejected(a, "not modelled by the emulation; load packed fp4 as Uint8");
  a.type = TmaDataType(16);
  expectRejected(a, "is not a CUtensorMapDataType");
  a.type = TmaDataType::Float16;
  a.swizzle = TmaSwizzle(7);
  expectRejected(a, "is not a CUtensorMapSwizzle");
}

// ---------------------------------------------------------------------------
// Box images, through the kernel of TmaImageKernel.h.

constexpr uint32_t kAlign = test::kTmaRegionAlign;

/// The expected shared region, element by element: for each box index,
/// its global coordinate, its row's and column's shared byte offset, the
/// swizzle of the absolute address.
std::vector<uint8_t> expectedImage(const Box &b, const Global &g, uint32_t total,
                                   uint32_t dstAddress) {
  uint32_t e = tmaElementBytes(b.type);
  uint32_t n[5];
  test::boxCounts(b, n);
  std::vector<uint8_t> image(total, 0xA5);
  test::forEachBoxElement(b, g, [&](const uint32_t *, uint32_t linear, bool inside,
                                    uint64_t offset) {
    for (uint32_t byte = 0; byte < e; ++byte) {
      uint8_t value = 0;
      if (inside)
        value = g.bytes[offset + byte];
      else if (b.oob == TmaOobFill::NanRequestZeroFma)
        value = byte % 2 ? 0x7F : 0xF7; // 0x7ff7 in every 16 bits
      uint32_t row = linear / n[0], column = linear % n[0] * e + byte;
      uint32_t address = dstAddress + row * rowPitch(b) + column;
      image[test::swizzled(address, b.swizzle) - (dstAddress & ~(kAlign - 1))] = value;
    }
  });
  return image;
}

/// Runs the load; returns the shared region (or empty with a test failure).
std::vector<uint8_t> runLoad(const Box &b, Global &g, uint32_t dstOffset = 0,
                             std::string *error = nullptr, unsigned workers = 1,
                             uint32_t txBytes = 0) {
  test::TmaImageParams p{};
  std::string problem = encodeTensorMapTiled(p.tmap, b.type, b.rank, g.bytes.data(), b.dim,
                                             g.stride + 1, b.box, b.estride, TmaInterleave::None,
                                             b.swizzle, TmaL2Promotion::None, b.oob);
  EXPECT_EQ(problem, "");
  uint32_t total = (dstOffset + sharedExtent(b) + kAlign - 1) / kAlign * kAlign;
  std::vector<uint8_t> out(total, 0);
  p.out = addressOf(out);
  p.total = total;
  p.dstOffset = dstOffset;
  p.txBytes = txBytes ? txBytes : boxBytes(b);
  p.rank = b.rank;
  std::memcpy(p.coords, b.coord, sizeof p.coords);
  MemoryMap map;
  addBuffer(map, g.bytes, "tensor");
  addBuffer(map, out, "out");
  LaunchConfig c = config({1, 1, 1}, {1, 1, 1}, workers);
  c.dynamicSharedBytes = total + kAlign;
  Status status = launch(test::kTmaImageKernel, c, &p, map);
  if (error) {
    *error = status ? "" : status.error();
    return out;
  }
  EXPECT_TRUE(bool(status)) << status.error();
  return out;
}

/// The window address the kernel's base gets: static 8 bytes round to 16,
/// dynamic memory starts at 0x410 and aligns up to 0x800.
constexpr uint32_t kBase = 0x800;

void expectImage(const Box &b, const char *label, uint32_t dstOffset = 0) {
  Global g = makeGlobal(b);
  std::vector<uint8_t> got = runLoad(b, g, dstOffset);
  std::vector<uint8_t> want = expectedImage(b, g, uint32_t(got.size()), kBase + dstOffset);
  ASSERT_EQ(got.size(), want.size());
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && differ++ == 0)
      first = i;
  EXPECT_EQ(differ, 0u) << label << ": first difference at byte " << first;
}

TEST(TmaImage, EverySwizzleAndElementSizeAtEveryEdge) {
  for (TmaSwizzle s : {TmaSwizzle::None, TmaSwizzle::B32, TmaSwizzle::B64, TmaSwizzle::B128})
    for (TmaDataType type : {TmaDataType::Uint8, TmaDataType::Float16, TmaDataType::Float32})
      for (uint32_t rows : {8u, 19u}) {
        uint32_t e = tmaElementBytes(type);
        uint32_t span = s == TmaSwizzle::None ? 64 : 16u << uint32_t(s);
        uint32_t inner = span / e;
        int32_t dim0 = int32_t(inner * 3 + 5);
        // Starts on 16-byte boundaries, as the hardware requires.
        int32_t chunk = int32_t(16 / e);
        auto whole = [&](int32_t c) { return c / chunk * chunk; };
        const int32_t where[][2] = {{int32_t(inner), 3},
                                    {whole(dim0 - int32_t(inner / 2)), 45 - int32_t(rows / 2)},
                                    {-whole(int32_t(inner / 2)) - chunk, -3},
                                    {whole(dim0) + chunk, -40},
                                    {-int32_t(inner) - chunk, 50}};
        for (auto &w : where) {
          Box b = box2d(type, s, inner, rows, w[0], w[1]);
          std::string label = "swizzle " + std::to_string(uint32_t(s)) + " type " +
                              std::to_string(uint32_t(type)) + " rows " + std::to_string(rows) +
                              " at (" + std::to_string(w[0]) + "," + std::to_string(w[1]) + ")";
          expectImage(b, label.c_str());
        }
      }
}

TEST(TmaImage, RowsNarrowerThanTheSwizzleSpanArePadded) {
  // Each box row starts a new span-wide row; its tail keeps the pattern.
  for (TmaSwizzle s : {TmaSwizzle::B32, TmaSwizzle::B64, TmaSwizzle::B128})
    expectImage(box2d(TmaDataType::Uint16, s, 8, 21, -8, 40), "16-byte rows");
  expectImage(box2d(TmaDataType::Uint16, TmaSwizzle::B64, 16, 21, -8, 40), "half span");
  expectImage(box2d(TmaDataType::Uint8, TmaSwizzle::B128, 48, 9, 16, 1), "48-byte rows");
  expectImage(box2d(TmaDataType::Uint8, TmaSwizzle::B128, 112, 9, 16, 1), "112-byte rows");
  // Directly: 32B swizzle, 16-byte rows: row r at 32r, its chunk swizzled.
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::B32, 16, 8, 0, 0);
  Global g = makeGlobal(b);
  std::vector<uint8_t> got = runLoad(b, g);
  for (uint32_t r = 0; r < 8; ++r) {
    uint32_t at = r * 32 + ((r >> 2) & 1) * 16, gap = at ^ 16;
    EXPECT_EQ(got[at], g.bytes[r * g.stride[1]]) << "row " << r;
    EXPECT_EQ(got[gap], 0xA5) << "row " << r << "'s padding";
  }
}

TEST(TmaImage, TransactionBytesExcludeRowPadding) {
  // Expecting the padded extent never completes, as on the H100.
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::B32, 16, 8, 16, 3);
  Global g = makeGlobal(b);
  std::string error;
  runLoad(b, g, 0, &error, 1, sharedExtent(b));
  EXPECT_NE(error.find("deadlock"), std::string::npos) << error;
  runLoad(b, g, 0, &error, 1, boxBytes(b));
  EXPECT_EQ(error, "");
}

TEST(TmaImage, Ranks1To5) {
  Box b{};
  b.type = TmaDataType::Uint8;
  b.swizzle = TmaSwizzle::B128;
  uint64_t dims[5] = {100, 5, 4, 3, 3};
  uint32_t boxes[5] = {64, 3, 2, 2, 2};
  int32_t coords[5] = {48, 3, -1, 2, 1};
  for (uint32_t rank = 1; rank <= 5; ++rank) {
    b.rank = rank;
    for (uint32_t d = 0; d < 5; ++d) {
      b.dim[d] = dims[d];
      b.box[d] = boxes[d];
      b.estride[d] = 1;
      b.coord[d] = coords[d];
    }
    expectImage(b, ("rank " + std::to_string(rank)).c_str());
  }
}

TEST(TmaImage, ElementStridesSkipAndIgnoreDimension0) {
  Box b{};
  b.type = TmaDataType::Uint16;
  b.rank = 3;
  b.dim[0] = 40, b.dim[1] = 30, b.dim[2] = 7;
  b.box[0] = 16, b.box[1] = 9, b.box[2] = 5;
  b.estride[0] = 2, b.estride[1] = 3, b.estride[2] = 2; // dimension 0's is ignored
  b.coord[0] = -8, b.coord[1] = 20, b.coord[2] = 3;
  for (TmaSwizzle s : {TmaSwizzle::None, TmaSwizzle::B32}) {
    b.swizzle = s;
    expectImage(b, "element strides");
  }
  EXPECT_EQ(boxBytes(b), 16u * 3 * 3 * 2); // ceil(9/3) rows, ceil(5/2) planes
}

TEST(TmaImage, NanFillForFloatTypes) {
  for (TmaDataType type : {TmaDataType::Float16, TmaDataType::Bfloat16, TmaDataType::Float32}) {
    Box b = box2d(type, TmaSwizzle::None, 32 / tmaElementBytes(type), 4, 16, 43);
    b.oob = TmaOobFill::NanRequestZeroFma;
    expectImage(b, "NaN fill");
  }
}

// Packed fp4 (two e2m1 per byte) loaded as Uint8: a kernel decodes nibbles
// of the landed box; they must be the source's elements in order.
struct alignas(64) Fp4Params {
  TensorMap tmap;
  uint64_t out; // one byte per fp4 element of the box
};

void fp4Body(Thread &t, const void *raw) {
  auto &p = *static_cast<const Fp4Params *>(raw);
  uint32_t bar = t.staticSharedBase();
  uint32_t dst = (t.dynamicSharedBase() + 127) & ~127u;
  if (t.tid.x == 0) {
    t.mbarrierInit(bar, 1, "mbarrier.init at fp4.cute:2");
    t.fenceMbarrierInit("fence.mbarrier_init at fp4.cute:2");
  }
  t.barrierSync(0, 0, "bar.sync at fp4.cute:3");
  if (t.tid.x == 0) {
    int32_t coords[2] = {16, 2}; // bytes 16.. = fp4 elements 32..
    t.mbarrierArriveExpectTx(bar, 32 * 4, "mbarrier.arrive.expect_tx at fp4.cute:5");
    t.tmaLoadTile(dst, reinterpret_cast<uint64_t>(&p.tmap), coords, 2, bar,
                  "cp.async.bulk.tensor.2d at fp4.cute:6");
  }
  t.mbarrierWaitParity(bar, 0, "mbarrier.try_wait.parity at fp4.cute:7");
  // Thread i decodes byte i of the 4x32-byte box: elements 2i and 2i+1.
  for (uint32_t i = t.tid.x; i < 128; i += t.ntid.x) {
    uint8_t byte = t.loadShared<uint8_t>(dst + i, "ld.shared.b8 at fp4.cute:9");
    t.storeGlobal<uint8_t>(p.out + 2 * i, uint8_t(byte & 0xF), "st.global at fp4.cute:10");
    t.storeGlobal<uint8_t>(p.out + 2 * i + 1, uint8_t(byte >> 4), "st.global at fp4.cute:10");
  }
}
const KernelDescriptor fp4Kernel{"tma_fp4", fp4Body, sizeof(Fp4Params), true, 8};

TEST(TmaImage, PackedFp4AsUint8) {
  const uint32_t rows = 6, elementsPerRow = 96; // 48 bytes per row
  std::vector<uint8_t> codes(rows * elementsPerRow);
  for (size_t i = 0; i < codes.size(); ++i)
    codes[i] = uint8_t((i * 5 + i / 7) & 0xF);
  std::vector<uint8_t> packed(rows * 48);
  for (size_t i = 0; i < packed.size(); ++i)
    packed[i] = packFp4(codes[2 * i], codes[2 * i + 1]);
  Fp4Params p{};
  uint64_t dim[2] = {48, rows}, stride[1] = {48};
  uint32_t box[2] = {32, 4}, estride[2] = {1, 1};
  ASSERT_EQ(encodeTensorMapTiled(p.tmap, TmaDataType::Uint8, 2, packed.data(), dim, stride, box,
                                 estride, TmaInterleave::None, TmaSwizzle::None,
                                 TmaL2Promotion::None, TmaOobFill::None),
            "");
  std::vector<uint8_t> out(256, 0xEE);
  p.out = addressOf(out);
  MemoryMap map;
  addBuffer(map, packed, "packed");
  addBuffer(map, out, "out");
  LaunchConfig c = config({1, 1, 1}, {64, 1, 1});
  c.dynamicSharedBytes = 512;
  Status status = launch(fp4Kernel, c, &p, map);
  ASSERT_TRUE(bool(status)) << status.error();
  for (uint32_t r = 0; r < 4; ++r)
    for (uint32_t k = 0; k < 64; ++k) {
      uint32_t row = 2 + r, element = 32 + k; // byte 16 holds elements 32, 33
      uint8_t want = row < rows && element < elementsPerRow ? codes[row * elementsPerRow + element]
                                                            : 0; // zero fill past the edges
      EXPECT_EQ(out[r * 64 + k], want) << "row " << row << " element " << element;
    }
}

// ---------------------------------------------------------------------------
// Misuse of the load itself.

TEST(TmaLoad, DestinationMustBe128ByteAlignedForEverySwizzle) {
  // 128 bytes suffice with a swizzle too; it takes the absolute address bits.
  for (TmaSwizzle s : {TmaSwizzle::B32, TmaSwizzle::B64, TmaSwizzle::B128})
    for (uint32_t offset : {128u, 256u, 512u})
      expectImage(box2d(TmaDataType::Uint8, s, 16u << uint32_t(s), 16, 16, 2), "offset", offset);
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::B128, 128, 8, 0, 0);
  Global g = makeGlobal(b);
  std::string error;
  runLoad(b, g, 64, &error);
  EXPECT_NE(error.find("cp.async.bulk.tensor at img.cute:6: shared destination 0x840 is not "
                       "128-byte aligned: cp.async.bulk.tensor needs 128 bytes"),
            std::string::npos)
      << error;
  b.swizzle = TmaSwizzle::None;
  runLoad(b, g, 16, &error);
  EXPECT_NE(error.find("is not 128-byte aligned"), std::string::npos) << error;
}

TEST(TmaLoad, BoxStartOffA16ByteBoundaryIsRefused) {
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::None, 64, 4, 3, 0);
  Global g = makeGlobal(b);
  std::string error;
  runLoad(b, g, 0, &error);
  EXPECT_NE(error.find("cp.async.bulk.tensor at img.cute:6: the box starts at element 3 of "
                       "dimension 0, byte 3 of the row, not on a 16-byte boundary"),
            std::string::npos)
      << error;
  // Out of bounds or negative does not matter; the byte offset does.
  Box f = box2d(TmaDataType::Float32, TmaSwizzle::B32, 8, 4, -4, 0);
  Global gf = makeGlobal(f);
  runLoad(f, gf, 0, &error);
  EXPECT_EQ(error, "");
  f.coord[0] = -6;
  runLoad(f, gf, 0, &error);
  EXPECT_NE(error.find("byte -24 of the row"), std::string::npos) << error;
}

/// The error of one load of box `b` from `data` (the map's global address;
/// the launch knows `g`'s buffer) to `dstOffset` from the kernel's region.
std::string loadError(const Box &b, const void *data, Global &g, uint32_t dstOffset,
                      uint32_t txBytes) {
  test::TmaImageParams p{};
  EXPECT_EQ(encodeTensorMapTiled(p.tmap, b.type, 2, data, b.dim, g.stride + 1, b.box, b.estride,
                                 TmaInterleave::None, b.swizzle, TmaL2Promotion::None, b.oob),
            "");
  std::vector<uint8_t> out(1024);
  p.out = addressOf(out);
  p.total = 1024;
  p.dstOffset = dstOffset;
  p.txBytes = txBytes;
  p.rank = 2;
  MemoryMap map;
  addBuffer(map, g.bytes, "tensor");
  addBuffer(map, out, "out");
  LaunchConfig c = config({1, 1, 1}, {1, 1, 1});
  c.dynamicSharedBytes = 2048;
  return launchError(test::kTmaImageKernel, c, &p, map);
}

TEST(TmaLoad, MapOutsideTheLaunchBuffersIsReported) {
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::None, 64, 4, 0, 0);
  Global g = makeGlobal(b);
  Global unregistered = g;
  // Encode against a buffer the launch does not know.
  std::string error = loadError(b, unregistered.bytes.data(), g, 0, 256);
  EXPECT_NE(error.find("cp.async.bulk.tensor at img.cute:6: the box's in-bounds elements from "
                       "global coordinates (0,0)"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("lie outside the launch's buffers"), std::string::npos) << error;
}

TEST(TmaLoad, BoxOverAnMbarrierIsRefused) {
  // The destination 0x400 is the kernel's own mbarrier (static shared memory).
  Box b = box2d(TmaDataType::Uint8, TmaSwizzle::B128, 128, 8, 0, 0);
  Global g = makeGlobal(b);
  std::string error = loadError(b, g.bytes.data(), g, 0x400 - kBase, 1024);
  EXPECT_NE(error.find("cp.async.bulk.tensor at img.cute:6: the box would overwrite the mbarrier "
                       "at 0x400 (destination 0x400, 1024 bytes)"),
            std::string::npos)
      << error;
}

TEST(TmaLoad, ResultsDoNotDependOnWorkerCount) {
  Box b = box2d(TmaDataType::Float16, TmaSwizzle::B64, 32, 19, -8, 40);
  Global g = makeGlobal(b);
  std::vector<uint8_t> one = runLoad(b, g, 0, nullptr, 1);
  EXPECT_EQ(runLoad(b, g, 0, nullptr, 4), one);
  EXPECT_EQ(runLoad(b, g, 0, nullptr, 16), one);
}

} // namespace
} // namespace cutec::rt
