// wgmma.mma_async (sm_90a) in the emulator: the accumulator fragment against
// CUTLASS's CLayout_64xN written out here, the GMMA descriptor fields, whole
// instructions issued by 128 fiber threads on shared-memory images placed in
// the canonical layouts by the tests' own CuTe-form address function
// (UmmaTestLayouts.h) and compared with a naive reference (each element of
// D from its row of A and column of B through the measured numerics,
// runtime/numerics/WgmmaNumerics.h, which WgmmaNumericsTest checks against an H100),
// and the reports of the warpgroup collective and of its asynchrony.
#include "LaunchTestSupport.h"
#include "UmmaTestLayouts.h"

#include "runtime/tensorcore/GmmaDescriptor.h"
#include "runtime/numerics/PtxCvt.h"
#include "runtime/tensorcore/Wgmma.h"

#include <cstring>
#include <random>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::canonicalUnitAddress;
using test::config;
using test::launchError;

// ---------------------------------------------------------------------------
// The fragment and the descriptor.

/// CUTLASS CLayout_64xN (mma_traits_sm90_gmma.hpp):
/// ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)) from (thread, value) to the
/// column-major index m + 64 n of D.
WgmmaPosition cutlassPosition(uint32_t t, uint32_t v) {
  uint32_t index = 128 * (t % 4) + (t / 4) % 8 + 16 * (t / 32) + 64 * (v % 2) + 8 * ((v / 2) % 2) +
                   512 * (v / 4);
  return {index % 64, index / 64};
}

TEST(WgmmaFragment, MatchesCutlassAndCoversD) {
  for (uint32_t n : {8u, 24u, 64u, 256u}) {
    std::vector<int> hits(64 * n, 0);
    for (uint32_t t = 0; t < 128; ++t)
      for (uint32_t e = 0; e < n / 2; ++e) {
        WgmmaPosition p = wgmmaAccumulatorPosition(t, e), q = cutlassPosition(t, e);
        ASSERT_EQ(p.row, q.row) << "thread " << t << " element " << e;
        ASSERT_EQ(p.column, q.column) << "thread " << t << " element " << e;
        ++hits[p.row * n + p.column];
      }
    for (int h : hits)
      ASSERT_EQ(h, 1);
  }
  // The ISA figure's corners: thread 0 holds D(0,0), D(0,1), D(8,0), D(8,1),
  // D(0,8), ...; thread 127 (warp 3, lane 31) ends at row 63.
  EXPECT_EQ(wgmmaAccumulatorPosition(0, 2).row, 8u);
  EXPECT_EQ(wgmmaAccumulatorPosition(0, 4).column, 8u);
  EXPECT_EQ(wgmmaAccumulatorPosition(127, 3).row, 63u);
  EXPECT_EQ(wgmmaAccumulatorPosition(127, 3).column, 7u);
}

TEST(WgmmaShapes, RegistersAndRules) {
  WgmmaShape s{64, WgmmaElement::F16, WgmmaElement::F16, WgmmaAccum::F32};
  EXPECT_EQ(wgmmaAccumulatorRegisters(s), 32u);
  s.d = WgmmaAccum::F16;
  EXPECT_EQ(wgmmaAccumulatorRegisters(s), 16u);
  EXPECT_EQ(checkWgmmaShape(s), "");
  s.a = s.b = WgmmaElement::BF16;
  EXPECT_NE(checkWgmmaShape(s).find("a .f16 accumulator is not valid with .bf16.bf16"),
            std::string::npos);
  WgmmaShape i8{40, WgmmaElement::S8, WgmmaElement::U8, WgmmaAccum::S32};
  EXPECT_NE(checkWgmmaShape(i8).find("N=40 is not a shape for s8/u8"), std::string::npos);
  i8.n = 48;
  EXPECT_EQ(checkWgmmaShape(i8), "");
  i8.transposeA = true;
  EXPECT_NE(checkWgmmaShape(i8).find("only valid for f16 and bf16"), std::string::npos);
  WgmmaShape mixed{64, WgmmaElement::F16, WgmmaElement::E4M3, WgmmaAccum::F32};
  EXPECT_NE(checkWgmmaShape(mixed).find("do not combine"), std::string::npos);
  WgmmaShape tf32{8, WgmmaElement::TF32, WgmmaElement::TF32, WgmmaAccum::F32};
  EXPECT_EQ(wgmmaK(tf32), 8u);
  tf32.scaleB = 2;
  EXPECT_NE(checkWgmmaShape(tf32).find("must be 1 or -1"), std::string::npos);
}

/// Encoded by hand from the PTX ISA's table: layout type 1 128B, 2 64B, 3 32B.
uint64_t handDescriptor(uint32_t start, uint32_t lbo, uint32_t sbo, UmmaLayout l) {
  uint64_t type = l == UmmaLayout::B128 ? 1 : l == UmmaLayout::B64 ? 2 : l == UmmaLayout::B32 ? 3 : 0;
  return uint64_t(start >> 4) | uint64_t(lbo >> 4) << 16 | uint64_t(sbo >> 4) << 32 | type << 62;
}

TEST(GmmaDescriptor, FieldsAndChecks) {
  uint64_t bits = handDescriptor(0x1400, 0x80, 0x400, UmmaLayout::B64);
  SmemMatrixDescriptor d = decodeGmmaDescriptor(bits);
  EXPECT_EQ(d.startAddress, 0x1400u);
  EXPECT_EQ(d.leadingByteOffset, 0x80u);
  EXPECT_EQ(d.strideByteOffset, 0x400u);
  EXPECT_EQ(UmmaLayout(d.layoutCode), UmmaLayout::B64);
  EXPECT_EQ(encodeGmmaDescriptor(0x1400, 0x80, 0x400, UmmaLayout::B64), bits);
  EXPECT_EQ(checkGmmaDescriptor(bits), "");
  for (UmmaLayout l : {UmmaLayout::None, UmmaLayout::B32, UmmaLayout::B128})
    EXPECT_EQ(UmmaLayout(decodeGmmaDescriptor(handDescriptor(0x400, 16, 128, l)).layoutCode), l);
  EXPECT_NE(checkGmmaDescriptor(bits | uint64_t(1) << 46).find("as in an sm_100 tcgen05 descriptor"),
            std::string::npos);
  EXPECT_NE(checkGmmaDescriptor(bits | uint64_t(1) << 55).find("bits without a field are set (0x80000000000000"),
            std::string::npos);
  EXPECT_NE(checkGmmaDescriptor(bits | uint64_t(3) << 49).find("base offset (bits 49-51) is 3"),
            std::string::npos);
}

// ---------------------------------------------------------------------------
// Whole instructions: a case, its image and its reference.

/// An s8 or u8 code's integer.
int64_t integerValue(WgmmaElement t, uint32_t code) {
  return t == WgmmaElement::S8 ? int64_t(int8_t(code)) : int64_t(code & 0xFF);
}

/// A random finite code of moderate magnitude.
uint32_t randomCode(WgmmaElement t, std::mt19937 &rng) {
  auto below = [&](uint32_t n) { return uint32_t(rng() % n); };
  switch (t) {
  case WgmmaElement::F16:
    return below(2) << 15 | (9 + below(12)) << 10 | below(1024);
  case WgmmaElement::BF16:
    return below(2) << 15 | (121 + below(12)) << 7 | below(128);
  case WgmmaElement::TF32:
    return below(2) << 31 | (121 + below(12)) << 23 | uint32_t(rng() & 0x7FFFFF);
  case WgmmaElement::E4M3:
    return below(2) << 7 | (3 + below(8)) << 3 | below(8);
  case WgmmaElement::E5M2:
    return below(2) << 7 | (10 + below(10)) << 2 | below(4);
  default:
    return below(256);
  }
}

struct Placement {
  bool mnMajor = false;
  UmmaLayout layout = UmmaLayout::None;
};

struct WgmmaCase {
  const char *name;
  WgmmaShape shape;
  Placement a, b;
  uint32_t instructions = 1; // the later ones accumulate (scale-d 1)
  bool initialD = false;     // the first one accumulates onto a random D
};

constexpr uint32_t kMaxInstructions = 2;

struct Params {
  uint64_t image = 0, out = 0, initial = 0;
  uint32_t imageBytes = 0;
  WgmmaShape shape{};
  uint32_t instructions = 1;
  bool initialD = false;
  uint64_t aDesc[kMaxInstructions] = {}, bDesc[kMaxInstructions] = {};
  uint32_t mistake = 0; // see body
  uint32_t warpgroups = 1;
};

void setBits(std::vector<uint8_t> &image, uint32_t byte, uint32_t bitOffset, uint32_t bits,
             uint32_t code) {
  for (uint32_t i = 0; i < bits; ++i) {
    uint32_t bit = bitOffset + i;
    uint8_t mask = uint8_t(1u << (bit % 8));
    uint8_t &b = image[byte + bit / 8];
    b = (code >> i & 1) ? (b | mask) : (b & ~mask);
  }
}

/// Places `rows` x k codes in a canonical layout at the next 1 KiB boundary
/// (plus `kOffset`, a K step inside a swizzle atom) and returns the
/// descriptor.
uint64_t place(std::vector<uint8_t> &image, std::mt19937 &rng, const Placement &p, WgmmaElement t,
               uint32_t rows, uint32_t k, const std::vector<uint32_t> &codes, uint32_t kOffset) {
  const uint32_t bits = 8 * wgmmaElementBytes(t), perUnit = 128 / bits, atom = test::layoutAtomChunks(p.layout);
  uint32_t lbo, sbo, size;
  if (!p.mnMajor) {
    if (p.layout == UmmaLayout::None) {
      lbo = 128 * ((rows + 7) / 8);
      sbo = 128;
      size = 2 * lbo;
    } else {
      lbo = 0; // unused
      sbo = 128 * atom;
      size = ((rows + 7) / 8) * sbo;
    }
  } else {
    uint32_t units = (rows + perUnit - 1) / perUnit;
    if (p.layout == UmmaLayout::None) {
      sbo = 128;
      lbo = units * 128;
      size = lbo * (k / 8);
    } else {
      sbo = 128 * atom;
      lbo = (k / 8) * sbo;
      size = ((units + atom - 1) / atom) * lbo;
    }
  }
  uint32_t offset = uint32_t(image.size());
  image.resize(offset + (size + kOffset + 1023) / 1024 * 1024);
  for (uint32_t i = offset; i < image.size(); ++i)
    image[i] = uint8_t(rng()); // padding holds garbage
  const uint32_t start = kSharedWindowBase + offset + kOffset;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t kk = 0; kk < k; ++kk) {
      uint32_t unit = p.mnMajor
                          ? canonicalUnitAddress(start, p.layout, true, lbo, sbo, r / perUnit, kk)
                          : canonicalUnitAddress(start, p.layout, false, lbo, sbo, r, kk / perUnit);
      uint32_t position = (p.mnMajor ? r : kk) % perUnit;
      setBits(image, unit - kSharedWindowBase, position * bits, bits, codes[r * k + kk]);
    }
  return handDescriptor(start, lbo, sbo, p.layout);
}

struct Prepared {
  std::vector<uint8_t> image;
  std::vector<uint32_t> initial; // per thread, per register
  Params params;
  std::vector<uint32_t> expected; // D, 64 x N row-major, raw element bits
};

bool integerShape(const WgmmaShape &s) { return s.d == WgmmaAccum::S32; }

Prepared prepare(const WgmmaCase &c, uint32_t seed = 7) {
  Prepared p;
  std::mt19937 rng(seed);
  const WgmmaShape &s = c.shape;
  const uint32_t n = s.n, k = wgmmaK(s), regs = wgmmaAccumulatorRegisters(s);
  const bool f16 = s.d == WgmmaAccum::F16;
  std::vector<uint32_t> d(64 * n, 0);
  if (c.initialD)
    for (uint32_t &x : d)
      x = integerShape(s) ? uint32_t(rng() % 2001) - 1000
          : f16           ? randomCode(WgmmaElement::F16, rng)
                          : [&] {
                              float v = float(int(rng() % 2001) - 1000) / 64;
                              uint32_t b;
                              std::memcpy(&b, &v, 4);
                              return b;
                            }();
  // The initial registers, placed with CUTLASS's layout.
  p.initial.assign(128 * regs, 0);
  for (uint32_t t = 0; t < 128; ++t)
    for (uint32_t e = 0; e < n / 2; ++e) {
      WgmmaPosition q = cutlassPosition(t, e);
      uint32_t v = d[q.row * n + q.column];
      if (f16)
        p.initial[t * regs + e / 2] |= (v & 0xFFFF) << (16 * (e % 2));
      else
        p.initial[t * regs + e] = v;
    }
  p.image.resize(1024); // the first KiB stays free
  for (uint32_t i = 0; i < c.instructions; ++i) {
    std::vector<uint32_t> a(64 * k), b(n * k);
    for (auto &x : a)
      x = randomCode(s.a, rng);
    for (auto &x : b)
      x = randomCode(s.b, rng);
    auto kOffset = [&](const Placement &pl) { // the second instruction's K block
      uint32_t width = 16 * test::layoutAtomChunks(pl.layout);
      return i % 2 && !pl.mnMajor && pl.layout != UmmaLayout::None && width > 32 ? 32u : 0u;
    };
    p.params.aDesc[i] = place(p.image, rng, c.a, s.a, 64, k, a, kOffset(c.a));
    p.params.bDesc[i] = place(p.image, rng, c.b, s.b, n, k, b, kOffset(c.b));
    const bool accumulate = i > 0 || c.initialD;
    for (uint32_t m = 0; m < 64; ++m)
      for (uint32_t j = 0; j < n; ++j) {
        uint32_t &cell = d[m * n + j];
        if (integerShape(s)) {
          int64_t sum = accumulate ? int64_t(int32_t(cell)) : 0;
          for (uint32_t kk = 0; kk < k; ++kk)
            sum += integerValue(s.a, a[m * k + kk]) * integerValue(s.b, b[j * k + kk]);
          cell = uint32_t(sum);
          continue;
        }
        // imm-scale -1 flips the operand's sign bit.
        auto withScale = [](WgmmaElement t, uint32_t code, int scale) {
          uint32_t sign = t == WgmmaElement::TF32                                ? 0x80000000u
                          : t == WgmmaElement::F16 || t == WgmmaElement::BF16 ? 0x8000u
                                                                              : 0x80u;
          return scale < 0 ? code ^ sign : code;
        };
        std::vector<uint32_t> rowA(k), columnB(k);
        for (uint32_t kk = 0; kk < k; ++kk) {
          rowA[kk] = withScale(s.a, a[m * k + kk], s.scaleA);
          columnB[kk] = withScale(s.b, b[j * k + kk], s.scaleB);
        }
        uint32_t start = accumulate ? (f16 ? cell & 0xFFFF : cell) : 0u;
        cell = wgmmaDot(WgmmaKind{s.a, s.b, s.d}, rowA.data(), columnB.data(), start);
      }
  }
  p.expected = d;
  p.params.shape = s;
  p.params.instructions = c.instructions;
  p.params.initialD = c.initialD;
  p.params.imageBytes = uint32_t(p.image.size());
  return p;
}

struct alignas(16) Chunk16 {
  uint8_t b[16];
};

// The kernel, as the emitted code would run it. `mistake` plants one bug:
// 1 no fence, 2 no fence after a wait before the next wgmma, 3 warp 3 passes
// another B descriptor, 4 warp 3 exits first, 5 no wait before the exit,
// 6 warp 2 executes a commit where the others execute the mma, 7 reads the
// accumulators before the wait, 8 gives each mma accumulators of their own
// (register webs 0 and 1) and a group of its own, waits with N = 1 and
// reads both, 9 stores into the first A's first bytes (after the image's
// free KiB) before the commit, 10 after the wait; with 11 and 12 warpgroup 0
// hands A to warpgroup 1 through an mbarrier (in the free KiB), which then
// rewrites it: 11 arrives before the wait, 12 after. As the emitted code does, each mma names the register web it uses
// and the final stores ask whether the accumulators may be read.
void wgmmaBody(Thread &t, const void *raw) {
  const auto &p = *static_cast<const Params *>(raw);
  const uint32_t base = t.dynamicSharedBase(), tid = t.tid.x;
  for (uint32_t i = tid * 16; i < p.imageBytes; i += 128 * p.warpgroups * 16)
    t.storeShared<Chunk16>(base + i, t.loadGlobal<Chunk16>(p.image + i, "ld.global.v4"),
                           "st.shared.v4");
  t.fenceProxyAsync("fence.proxy.async.shared::cta at wgmma.cute:1");
  const bool handOver = p.mistake == 11 || p.mistake == 12;
  if (handOver && tid == 0)
    t.mbarrierInit(base, 128, "mbarrier.init at wgmma.cute:1");
  t.barrierSync(0, 0, "bar.sync at wgmma.cute:2");
  if (p.mistake == 4 && t.warpid == 3)
    return;
  if (handOver && tid >= 128) {
    t.mbarrierWaitParity(base, 0, "mbarrier.wait at wgmma.cute:3");
    for (int round = 0; round < 8; ++round) // after warpgroup 0's wait, here
      t.yieldThread("nanosleep at wgmma.cute:4");
    t.storeShared<uint32_t>(base + 1024, 0, "st.shared.b32 at wgmma.cute:4");
    return;
  }
  const uint32_t regs = wgmmaAccumulatorRegisters(p.shape), thread = tid % 128;
  uint32_t d[128];
  for (uint32_t r = 0; r < regs; ++r)
    d[r] = t.loadGlobal<uint32_t>(p.initial + 4 * (thread * regs + r), "ld.global");
  if (p.mistake != 1)
    t.wgmmaFence("wgmma.fence at wgmma.cute:5");
  for (uint32_t i = 0; i < p.instructions; ++i) {
    uint64_t bDesc = p.bDesc[i];
    if (p.mistake == 3 && t.warpid == 3)
      bDesc += 16 >> 4;
    if (p.mistake == 6 && t.warpid == 2) {
      t.wgmmaCommitGroup("wgmma.commit_group at wgmma.cute:6");
      continue;
    }
    t.wgmmaMmaAsync(p.shape, d, p.aDesc[i], bDesc, i > 0 || p.initialD,
                    "wgmma.mma_async at wgmma.cute:7");
    t.wgmmaRegistersInUse(p.mistake == 8 ? i : 0, "wgmma.mma_async at wgmma.cute:7");
    if (p.mistake == 8)
      t.wgmmaCommitGroup("wgmma.commit_group at wgmma.cute:8");
    if (p.mistake == 2) {
      t.wgmmaCommitGroup("wgmma.commit_group at wgmma.cute:8");
      t.wgmmaWaitGroup(0, "wgmma.wait_group at wgmma.cute:9");
    }
  }
  if (p.mistake == 5)
    return;
  if (p.mistake == 7)
    t.wgmmaRegisterAccess(0, false, "cvt.rn.f16x2.f32 at wgmma.cute:9");
  if (p.mistake == 9)
    t.storeShared<uint32_t>(base + 1024, 0, "st.shared.b32 at wgmma.cute:9");
  if (p.mistake == 8) {
    t.wgmmaWaitGroup(1, "wgmma.wait_group at wgmma.cute:10");
    t.wgmmaRegisterAccess(0, false, "mov.b32 at wgmma.cute:11");
    t.wgmmaRegisterAccess(1, true, "mov.b32 at wgmma.cute:12");
  }
  if (p.mistake == 11)
    t.mbarrierArrive(base, "mbarrier.arrive at wgmma.cute:12");
  t.wgmmaCommitGroup("wgmma.commit_group at wgmma.cute:13");
  t.wgmmaWaitGroup(0, "wgmma.wait_group at wgmma.cute:14");
  if (p.mistake == 12)
    t.mbarrierArrive(base, "mbarrier.arrive at wgmma.cute:14");
  if (p.mistake == 10)
    t.storeShared<uint32_t>(base + 1024, t.loadShared<uint32_t>(base + 1024, "ld.shared.b32"),
                            "st.shared.b32 at wgmma.cute:15");
  t.wgmmaRegisterAccess(0, false, "st.global at wgmma.cute:16");
  for (uint32_t r = 0; r < regs; ++r)
    t.storeGlobal<uint32_t>(p.out + 4 * (uint64_t(tid) * regs + r), d[r], "st.global");
}

const KernelDescriptor kWgmmaKernel{"wgmma_test", wgmmaBody, sizeof(Params),
                                    /*usesBarriers=*/true, /*staticSharedBytes=*/0};

Status run(Prepared &p, std::vector<uint32_t> &out, uint32_t threads = 128) {
  std::vector<uint8_t> image = p.image;
  std::vector<uint32_t> initial = p.initial;
  initial.resize(std::max<size_t>(initial.size(), 1));
  out.assign(size_t(std::max(threads, 128u)) * wgmmaAccumulatorRegisters(p.params.shape),
             0xDEADBEEF);
  MemoryMap map;
  addBuffer(map, image, "image");
  addBuffer(map, out, "out");
  addBuffer(map, initial, "initial");
  Params params = p.params;
  params.image = addressOf(image);
  params.out = addressOf(out);
  params.initial = addressOf(initial);
  params.warpgroups = std::max(threads / 128, 1u);
  LaunchConfig cfg = config({1, 1, 1}, {threads, 1, 1}, 1);
  cfg.dynamicSharedBytes = uint32_t(image.size());
  return launch(kWgmmaKernel, cfg, &params, map);
}

/// D from the threads' registers, read through CUTLASS's layout.
std::vector<uint32_t> assemble(const std::vector<uint32_t> &out, const WgmmaShape &s,
                               uint32_t warpgroup = 0) {
  const uint32_t n = s.n, regs = wgmmaAccumulatorRegisters(s);
  std::vector<uint32_t> d(64 * n);
  for (uint32_t t = 0; t < 128; ++t)
    for (uint32_t e = 0; e < n / 2; ++e) {
      WgmmaPosition q = cutlassPosition(t, e);
      uint32_t reg = out[(128 * warpgroup + t) * regs + (s.d == WgmmaAccum::F16 ? e / 2 : e)];
      d[q.row * n + q.column] =
          s.d == WgmmaAccum::F16 ? (reg >> (16 * (e % 2))) & 0xFFFF : reg;
    }
  return d;
}

void expectMatches(const WgmmaCase &c) {
  SCOPED_TRACE(c.name);
  Prepared p = prepare(c);
  std::vector<uint32_t> out;
  Status s = run(p, out);
  ASSERT_TRUE(bool(s)) << s.error();
  std::vector<uint32_t> d = assemble(out, c.shape);
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < d.size(); ++i)
    if (d[i] != p.expected[i] && mismatches++ < 5)
      ADD_FAILURE() << "D(" << i / c.shape.n << "," << i % c.shape.n << ") = " << std::hex << d[i]
                    << ", expected " << p.expected[i];
  EXPECT_EQ(mismatches, 0u);
}

constexpr Placement K_NONE{false, UmmaLayout::None}, K_32{false, UmmaLayout::B32},
    K_64{false, UmmaLayout::B64}, K_128{false, UmmaLayout::B128};
constexpr Placement MN_NONE{true, UmmaLayout::None}, MN_32{true, UmmaLayout::B32},
    MN_64{true, UmmaLayout::B64}, MN_128{true, UmmaLayout::B128};

WgmmaShape shape(uint32_t n, WgmmaElement a, WgmmaElement b, WgmmaAccum d, bool ta = false,
                 bool tb = false) {
  return {n, a, b, d, ta, tb};
}

TEST(Wgmma, F16AndBf16EverySwizzleBothMajors) {
  auto F16 = WgmmaElement::F16, BF16 = WgmmaElement::BF16;
  auto F32 = WgmmaAccum::F32;
  expectMatches({"f16 K 128B N=64 f32", shape(64, F16, F16, F32), K_128, K_128, 2});
  expectMatches({"f16 K none N=8 f32", shape(8, F16, F16, F32), K_NONE, K_NONE});
  expectMatches({"f16 K 32B x 64B N=256", shape(256, F16, F16, F32), K_32, K_64, 2});
  expectMatches({"bf16 MN 128B N=128 trans", shape(128, BF16, BF16, F32, true, true), MN_128, MN_128});
  expectMatches({"bf16 MN none x MN 64B N=72", shape(72, BF16, BF16, F32, true, true), MN_NONE, MN_64});
  expectMatches({"f16 MN 32B x K 128B N=16", shape(16, F16, F16, F32, true, false), MN_32, K_128, 2});
}

TEST(Wgmma, F16AccumulatorAndScaleD) {
  auto F16 = WgmmaElement::F16;
  expectMatches({"f16 -> f16 N=64, onto D", shape(64, F16, F16, WgmmaAccum::F16), K_128,
                 K_128, 2, true});
  expectMatches({"f16 -> f16 N=8", shape(8, F16, F16, WgmmaAccum::F16), K_64, K_NONE});
  expectMatches({"f16 -> f32 N=32, onto D", shape(32, F16, F16, WgmmaAccum::F32), K_128,
                 K_32, 1, true});
}

TEST(Wgmma, Tf32Fp8AndIntegers) {
  auto F32 = WgmmaAccum::F32;
  expectMatches({"tf32 K 128B N=256", shape(256, WgmmaElement::TF32, WgmmaElement::TF32, F32), K_128,
                 K_128, 2});
  expectMatches({"e4m3 x e5m2 K 64B N=24 f16", shape(24, WgmmaElement::E4M3, WgmmaElement::E5M2,
                                                      WgmmaAccum::F16),
                 K_64, K_64, 2, true});
  expectMatches({"e5m2 K none N=96 f32", shape(96, WgmmaElement::E5M2, WgmmaElement::E5M2, F32), K_NONE,
                 K_128});
  expectMatches({"s8 x u8 K 128B N=48", shape(48, WgmmaElement::S8, WgmmaElement::U8,
                                              WgmmaAccum::S32),
                 K_128, K_128, 2, true});
  expectMatches({"u8 K 32B N=24", shape(24, WgmmaElement::U8, WgmmaElement::U8, WgmmaAccum::S32),
                 K_32, K_NONE});
}

TEST(Wgmma, NegatedOperands) {
  WgmmaShape s = shape(64, WgmmaElement::BF16, WgmmaElement::BF16, WgmmaAccum::F32);
  s.scaleA = -1;
  expectMatches({"bf16 scale-a -1", s, K_128, K_128, 2, true});
  s.scaleA = 1;
  s.scaleB = -1;
  expectMatches({"bf16 scale-b -1", s, K_64, K_64});
}

TEST(Wgmma, TwoWarpgroupsMeetSeparately) {
  Prepared p = prepare({"f16 N=64", shape(64, WgmmaElement::F16, WgmmaElement::F16,
                                          WgmmaAccum::F32),
                        K_128, K_128, 2});
  std::vector<uint32_t> out;
  Status s = run(p, out, 256);
  ASSERT_TRUE(bool(s)) << s.error();
  EXPECT_EQ(assemble(out, p.params.shape, 0), p.expected);
  EXPECT_EQ(assemble(out, p.params.shape, 1), p.expected);
}

TEST(Wgmma, AWrongDescriptorGivesWrongNumbers) {
  Prepared p = prepare({"f16 K 128B N=64", shape(64, WgmmaElement::F16, WgmmaElement::F16,
                                                 WgmmaAccum::F32),
                        K_128, K_128});
  p.params.aDesc[0] = (p.params.aDesc[0] & ~(uint64_t(3) << 62)) | uint64_t(2) << 62; // 64B
  std::vector<uint32_t> out;
  Status s = run(p, out);
  ASSERT_TRUE(bool(s)) << s.error();
  EXPECT_NE(assemble(out, p.params.shape), p.expected);
}

// ---------------------------------------------------------------------------
// Reports.

void expectContains(const std::string &text, const std::string &part) {
  EXPECT_NE(text.find(part), std::string::npos) << "missing: " << part << "\nin: " << text;
}

/// The f16 kernel of `instructions` wgmmas with `mistake` (or its correct
/// variant), run on `threads` threads.
Status runVariant(uint32_t mistake, uint32_t threads, uint32_t instructions,
                  void (*edit)(Params &), Prepared &p, std::vector<uint32_t> &out) {
  p = prepare({"f16", shape(64, WgmmaElement::F16, WgmmaElement::F16, WgmmaAccum::F32), K_128,
               K_128, instructions});
  p.params.mistake = mistake;
  if (edit)
    edit(p.params);
  return run(p, out, threads);
}

std::string errorOf(uint32_t mistake, uint32_t threads = 128, uint32_t instructions = 2,
                    void (*edit)(Params &) = nullptr) {
  Prepared p;
  std::vector<uint32_t> out;
  Status s = runVariant(mistake, threads, instructions, edit, p, out);
  EXPECT_FALSE(bool(s));
  return s ? "" : s.error();
}

/// A correct variant runs without a report and computes the product.
void expectClean(uint32_t variant, uint32_t threads = 128) {
  Prepared p;
  std::vector<uint32_t> out;
  Status s = runVariant(variant, threads, 2, nullptr, p, out);
  ASSERT_TRUE(bool(s)) << s.error();
  EXPECT_EQ(assemble(out, p.params.shape), p.expected);
}

TEST(WgmmaDiagnostics, MissingFenceBeforeTheFirstMma) {
  // The last thread to arrive performs the instruction and reports it.
  expectContains(errorOf(1), "(warp 3, lane 30): wgmma.mma_async at wgmma.cute:7: "
                             "no wgmma.fence of the warpgroup precedes its first wgmma.mma_async");
}

TEST(WgmmaDiagnostics, MissingFenceAfterAWait) {
  expectContains(errorOf(2), "no wgmma.fence of the warpgroup since its wgmma.wait_group at "
                             "'wgmma.wait_group at wgmma.cute:9'");
}

TEST(WgmmaDiagnostics, WarpsWithDifferentOperands) {
  expectContains(errorOf(3), "the warps of warpgroup 0 execute different wgmma instructions "
                             "(.aligned: all four execute the same one): warps 0,1,2 wait at "
                             "'wgmma.mma_async at wgmma.cute:7' (wgmma.mma_async.m64n64k16.f32."
                             "f16.f16 (A descriptor");
}

TEST(WgmmaDiagnostics, WarpsAtDifferentInstructions) {
  expectContains(errorOf(6), "warp 2 came to 'wgmma.commit_group at wgmma.cute:6' "
                             "(wgmma.commit_group)");
}

TEST(WgmmaDiagnostics, PartialWarpgroup) {
  expectContains(errorOf(0, 96), "wgmma instructions are executed by a whole warpgroup of 128 "
                                 "threads, but warpgroup 0 of this CTA of 96 threads has only "
                                 "threads [0,96)");
}

TEST(WgmmaDiagnostics, AWarpThatExitedIsADeadlock) {
  std::string e = errorOf(4);
  expectContains(e, "deadlock");
  expectContains(e, "warp 0 lanes 0-31: wait for the rest of the warpgroup at 'wgmma.fence at "
                    "wgmma.cute:5' (warpgroup 0: warps 0,1,2 arrived at 'wgmma.fence at "
                    "wgmma.cute:5'; warp 3 has exited)");
}

TEST(WgmmaDiagnostics, PendingAtExit) {
  // The first thread to exit reports it.
  expectContains(errorOf(5, 128, 1), "(warp 3, lane 29): wgmma.mma_async at wgmma.cute:7: the "
                                     "thread exits while 1 wgmma.mma_async of its warpgroup (this "
                                     "one the oldest) are pending: 1 not committed");
}

TEST(WgmmaDiagnostics, AccumulatorsReadBeforeTheWait) {
  expectContains(errorOf(7), "cvt.rn.f16x2.f32 at wgmma.cute:9: reads registers "
                             "that 'wgmma.mma_async at wgmma.cute:7' (issued by warpgroup 0; no "
                             "wgmma.commit_group has followed it) still uses: until a "
                             "wgmma.wait_group retires it, the PTX ISA leaves any other access");
}

TEST(WgmmaDiagnostics, AccumulatorsOfTheGroupAWaitLeftPending) {
  // wait_group 1 retires the first mma's group: its accumulators (web 0)
  // may be read, the second's (web 1) not.
  expectContains(errorOf(8), "mov.b32 at wgmma.cute:12: writes registers that "
                             "'wgmma.mma_async at wgmma.cute:7' (issued by warpgroup 0; its "
                             "wgmma-group is pending, with 0 wgmma-group(s) committed after it: "
                             "wgmma.wait_group 0 (or a lower N) retires it) still uses");
}

TEST(WgmmaDiagnostics, OperandOverwrittenBeforeTheWait) {
  expectContains(errorOf(9), "st.shared.b32 at wgmma.cute:9: 4-byte shared "
                             "store at 0x800 overwrites shared memory that 'wgmma.mma_async at "
                             "wgmma.cute:7' (issued by warpgroup 0; no wgmma.commit_group has "
                             "followed it) reads as an operand and may still be reading: retire "
                             "it (wgmma.wait_group) before the buffer is released or reused");
}

TEST(WgmmaDiagnostics, OperandRewrittenAfterTheWaitIsFine) {
  expectClean(10);
}

TEST(WgmmaDiagnostics, OperandReleasedBeforeTheWait) {
  // Warpgroup 1 stores a few rounds after the release, when warpgroup 0's
  // wait has retired the wgmma here; nothing orders the wait before it.
  expectContains(errorOf(11, 256), "(warp 4, lane 0): st.shared.b32 at wgmma.cute:4: 4-byte "
                                   "shared store at 0x800 overwrites shared memory that "
                                   "'wgmma.mma_async at wgmma.cute:7' (issued by warpgroup 0) "
                                   "read as an operand: a wgmma.wait_group of that warpgroup "
                                   "has retired it since, but no mbarrier arrival or bar.sync "
                                   "after that wait orders it before this write");
}

TEST(WgmmaDiagnostics, OperandReleasedAfterTheWaitIsFine) {
  expectClean(12, 256);
}

TEST(WgmmaDiagnostics, InvalidDescriptorsAndShapes) {
  expectContains(errorOf(0, 128, 1, [](Params &p) { p.aDesc[0] |= uint64_t(1) << 46; }),
                 "wgmma.mma_async at wgmma.cute:7: the matrix descriptor of A (0x");
  expectContains(errorOf(0, 128, 1, [](Params &p) { p.aDesc[0] |= uint64_t(1) << 46; }),
                 "is not valid: bit 46 is set, as in an sm_100 tcgen05 descriptor");
  expectContains(errorOf(0, 128, 1,
                         [](Params &p) {
                           p.bDesc[0] = (p.bDesc[0] & ~uint64_t(0x3FFF)) | (0x3FF00 >> 4);
                         }),
                 "B (start 0x3ff00, LBO 0, SBO 1024, 128B swizzle) element (0, k=0) lies at "
                 "shared address 0x3ff60, outside the CTA's shared memory [0x400, 0x4800)");
  expectContains(errorOf(0, 128, 1, [](Params &p) { p.shape.a = p.shape.b = WgmmaElement::BF16;
                                                    p.shape.d = WgmmaAccum::F16; }),
                 "wgmma.mma_async.m64n64k16.f16.bf16.bf16: a .f16 accumulator is not valid");
}

} // namespace
} // namespace cutec::rt
