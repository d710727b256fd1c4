// tcgen05.mma in the emulator against an independent reference written here:
// every kind (f16, tf32, f8f6f4, i8, and the block-scaled mxf8f6f4, mxf4,
// mxf4nvf4), K-major and MN-major operands in every swizzle mode placed in
// shared memory by the tests' own CuTe-form layouts (UmmaTestLayouts.h),
// M = 128 and N in {8, 64, 256}, scale factors copied to TMEM with
// tcgen05.cp 32x128b.warpx4. The reference decodes codes with its own small
// decoders, forms each product exactly, rounds it to f32 and sums in k order,
// which is the order the emulator documents. Then the planted bug of an MMA
// issued before its TMA data landed, and determinism across worker counts.
#include "LaunchTestSupport.h"
#include "UmmaTestLayouts.h"

#include "runtime/numerics/PtxCvt.h"
#include "runtime/tensorcore/Tmem.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace cutec::rt {
namespace {

using test::addBuffer;
using test::addressOf;
using test::canonicalUnitAddress;
using test::config;
using test::launchError;

// ---------------------------------------------------------------------------
// The reference's own decoders.

double minifloat(uint32_t code, unsigned e, unsigned m, int bias, bool hasSign = true) {
  uint32_t man = code & ((1u << m) - 1);
  uint32_t exp = (code >> m) & ((1u << e) - 1);
  double sign = hasSign && (code >> (e + m) & 1) ? -1.0 : 1.0;
  if (exp == 0)
    return sign * std::ldexp(double(man), 1 - bias - int(m));
  return sign * std::ldexp(1.0 + double(man) / double(1u << m), int(exp) - bias);
}

enum class Fmt { F16, BF16, TF32, E4M3, E5M2, E2M3, E3M2, E2M1, E2M1Packed, U8, S8 };

struct FmtInfo {
  uint32_t bits;    // code bits
  uint32_t perUnit; // elements per 16-byte unit in shared memory
};

FmtInfo info(Fmt f) {
  switch (f) {
  case Fmt::F16:
  case Fmt::BF16:
    return {16, 8};
  case Fmt::TF32:
    return {32, 4};
  case Fmt::E4M3:
  case Fmt::E5M2:
  case Fmt::U8:
  case Fmt::S8:
    return {8, 16};
  case Fmt::E2M3:
  case Fmt::E3M2:
    return {6, 16};
  case Fmt::E2M1:
    return {4, 16};
  case Fmt::E2M1Packed:
    return {4, 32};
  }
  return {8, 16};
}

double value(Fmt f, uint32_t code) {
  static const double e2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  switch (f) {
  case Fmt::F16:
    if ((code & 0x7C00) == 0x7C00) // IEEE specials
      return (code & 0x3FF) ? std::numeric_limits<double>::quiet_NaN()
                            : (code & 0x8000 ? -1.0 : 1.0) * std::numeric_limits<double>::infinity();
    return minifloat(code, 5, 10, 15);
  case Fmt::BF16:
    return minifloat(code, 8, 7, 127);
  case Fmt::TF32: {
    uint32_t bits = code & ~0x1FFFu; // the tensor core ignores the low 13 bits
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
  }
  case Fmt::E4M3:
    return minifloat(code, 4, 3, 7);
  case Fmt::E5M2:
    return minifloat(code, 5, 2, 15);
  case Fmt::E2M3:
    return minifloat(code, 2, 3, 1);
  case Fmt::E3M2:
    return minifloat(code, 3, 2, 3);
  case Fmt::E2M1:
  case Fmt::E2M1Packed:
    return (code & 8 ? -1 : 1) * e2m1[code & 7];
  case Fmt::U8:
    return double(code);
  case Fmt::S8:
    return double(int8_t(code));
  }
  return 0;
}

/// A random finite code of moderate magnitude.
uint32_t randomCode(Fmt f, std::mt19937 &rng) {
  auto below = [&](uint32_t n) { return uint32_t(rng() % n); };
  switch (f) {
  case Fmt::F16: // exponent within 2^-6 .. 2^5
    return below(2) << 15 | (9 + below(12)) << 10 | below(1024);
  case Fmt::BF16:
    return below(2) << 15 | (121 + below(12)) << 7 | below(128);
  case Fmt::TF32: // random low 13 bits, which must not matter
    return below(2) << 31 | (121 + below(12)) << 23 | uint32_t(rng() & 0x7FFFFF);
  case Fmt::E4M3: {
    uint32_t c;
    do
      c = below(256);
    while ((c & 0x7F) == 0x7F);
    return c;
  }
  case Fmt::E5M2: {
    uint32_t c;
    do
      c = below(256);
    while (((c >> 2) & 0x1F) == 0x1F);
    return c;
  }
  case Fmt::E2M3:
  case Fmt::E3M2:
    return below(64);
  case Fmt::E2M1:
  case Fmt::E2M1Packed:
    return below(16);
  case Fmt::U8:
  case Fmt::S8:
    return below(256);
  }
  return 0;
}

// ---------------------------------------------------------------------------
// A case, its shared-memory image and its reference.

struct Operand {
  bool mnMajor = false;
  UmmaLayout layout = UmmaLayout::None;
};

struct MmaCase {
  const char *name;
  Tcgen05Kind kind;
  Fmt a, b;
  uint32_t aCode, bCode; // idesc format codes
  uint32_t dFormat;      // 0 f16, 1 f32, 2 s32 (dense kinds)
  uint32_t n;
  Operand opA, opB;
  uint32_t instructions = 1; // >1: D accumulates (enable-input-d) after the first
  bool blockScaled = false;
  Tcgen05ScaleVec vec = Tcgen05ScaleVec::X1;
  bool ue8m0 = true;
  uint32_t aSfId = 0, bSfId = 0;
  bool negateA = false, negateB = false, saturate = false;
  uint32_t m = 128;   // 64 or 128
  uint32_t dLane = 0; // M=64: 0 or 16
  bool infinities = false; // f16 operands: some ±inf and zeros (NaN products and sums)
};

constexpr uint32_t kM = 128; // TMEM lanes the kernel reads back
constexpr uint32_t kSlot = 0, kBar = 8, kFirstRegion = 1024;
constexpr uint32_t kSfaColumn = 256, kSfbColumn = 288;

struct alignas(16) Chunk16 {
  uint8_t b[16];
};

struct MmaParams {
  uint64_t image = 0;
  uint32_t imageBytes = 0;
  uint64_t out = 0;
  uint32_t n = 0;
  uint32_t instructions = 1;
  uint64_t aDesc[2] = {}, bDesc[2] = {};
  uint32_t idesc = 0;
  Tcgen05Kind kind = Tcgen05Kind::F16;
  bool blockScaled = false;
  Tcgen05ScaleVec vec = Tcgen05ScaleVec::X1;
  uint64_t sfaDesc[2] = {};
  uint64_t sfbDesc[2][2] = {};
  uint32_t sfbTiles = 1;
  uint32_t dColumn = 0;
  uint32_t dLane = 0;
  uint32_t overwrite = 0; // 1: store over A before the wait, 2: after it
  Tcgen05CpShape sfaShape = Tcgen05CpShape::S32x128bWarpx4;
};

uint32_t kPerInstruction(Fmt f) { return 2 * info(f).perUnit; }

void setBits(std::vector<uint8_t> &image, uint32_t byteAddress, uint32_t bitOffset, uint32_t bits,
             uint32_t code) {
  for (uint32_t i = 0; i < bits; ++i) {
    uint32_t bit = bitOffset + i;
    uint8_t &byte = image[byteAddress + bit / 8];
    uint8_t mask = uint8_t(1u << (bit % 8));
    byte = (code >> i & 1) ? (byte | mask) : (byte & ~mask);
  }
}

struct Image {
  std::vector<uint8_t> bytes;
  uint32_t cursor = kFirstRegion; // offset from the window base
  uint32_t windowBase = 0x400;    // kSharedWindowBase: the kernel has no static shared

  uint32_t take(uint32_t size) {
    uint32_t at = cursor;
    cursor = (cursor + size + 1023) / 1024 * 1024;
    if (bytes.size() < cursor)
      bytes.resize(cursor);
    return at;
  }
};

/// Places `rows` x `k` codes in a canonical layout and returns its
/// descriptor. `kOffset` moves a K-major swizzled operand inside its atom,
/// as a kernel does between the K blocks of one swizzle row.
uint64_t placeOperand(Image &img, std::mt19937 &rng, const Operand &op, Fmt f, uint32_t rows,
                      const std::vector<uint32_t> &codes, uint32_t kOffset) {
  const FmtInfo fi = info(f);
  const uint32_t k = kPerInstruction(f);
  const uint32_t t = test::layoutAtomChunks(op.layout);
  uint32_t lbo, sbo, size;
  if (!op.mnMajor) {
    if (op.layout == UmmaLayout::None) {
      lbo = 128 * ((rows + 7) / 8); // K-adjacent core matrices far apart
      sbo = 128;
      size = 2 * lbo;
    } else {
      lbo = 0x70; // not used by K-major swizzled layouts
      sbo = 8 * 16 * t;
      size = ((rows + 7) / 8) * sbo;
    }
  } else {
    uint32_t units = (rows + fi.perUnit - 1) / fi.perUnit;
    if (op.layout == UmmaLayout::None) {
      sbo = 128;
      lbo = units * 128;
      size = lbo * (k / 8);
    } else {
      uint32_t atoms = (units + t - 1) / t;
      sbo = 8 * 16 * t;
      lbo = (k / 8) * sbo;
      size = atoms * lbo;
    }
  }
  uint32_t offset = img.take(size + kOffset);
  for (uint32_t i = offset; i < offset + size + kOffset; ++i)
    img.bytes[i] = uint8_t(rng()); // padding and unused bytes hold garbage
  uint32_t start = img.windowBase + offset + kOffset;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t kk = 0; kk < k; ++kk) {
      uint32_t unit =
          op.mnMajor ? canonicalUnitAddress(start, op.layout, true, lbo, sbo, r / fi.perUnit, kk)
                     : canonicalUnitAddress(start, op.layout, false, lbo, sbo, r, kk / fi.perUnit);
      uint32_t position = (op.mnMajor ? r : kk) % fi.perUnit;
      setBits(img.bytes, unit - img.windowBase, position * fi.bits, fi.bits, codes[r * k + kk]);
    }
  // Encoded by hand from the bit positions of CUTLASS UMMA::SmemDescriptor.
  return uint64_t(start >> 4) | uint64_t(lbo >> 4) << 16 | uint64_t(sbo >> 4) << 32 |
         uint64_t(1) << 46 | uint64_t(op.layout) << 61;
}

/// A 512-byte scale-factor tile: row r (0..31) holds, in bytes 4c..4c+3,
/// the four SF bytes of M/N index 32c + r.
uint64_t placeSfTile(Image &img, const std::vector<uint8_t> &sf, uint32_t first) {
  uint32_t offset = img.take(512);
  for (uint32_t i = 0; i < 128; ++i)
    for (uint32_t b = 0; b < 4; ++b) {
      uint32_t idx = first + i;
      img.bytes[offset + 16 * (i % 32) + 4 * (i / 32) + b] =
          idx * 4 + b < sf.size() ? sf[idx * 4 + b] : 0x7F;
    }
  uint32_t start = img.windowBase + offset;
  return uint64_t(start >> 4) | uint64_t(1) << 16 | uint64_t(128 >> 4) << 32 | uint64_t(1) << 46;
}

uint32_t instrDescriptor(const MmaCase &c) {
  uint32_t d = c.aCode << 7 | c.bCode << 10 | uint32_t(c.negateA) << 13 |
               uint32_t(c.negateB) << 14 | uint32_t(c.opA.mnMajor) << 15 |
               uint32_t(c.opB.mnMajor) << 16 | (c.n >> 3) << 17 | (c.m >> 4) << 24;
  if (c.blockScaled)
    return d | c.bSfId << 4 | uint32_t(c.ue8m0) << 23 | c.aSfId << 29;
  return d | uint32_t(c.saturate) << 3 | c.dFormat << 4;
}

double sfValue(const MmaCase &c, uint8_t code) {
  return c.ue8m0 ? std::ldexp(1.0, int(code) - 127) : minifloat(code, 4, 3, 7, false);
}

struct Prepared {
  Image img;
  MmaParams params;
  std::vector<uint32_t> expected; // 128 x n cells
};

Prepared prepare(const MmaCase &c, uint32_t seed = 1) {
  Prepared p;
  std::mt19937 rng(seed);
  const uint32_t k = kPerInstruction(c.a), n = c.n;
  p.img.bytes.resize(kFirstRegion);
  // D by row; placed in TMEM lanes below. M=64 rows take lanes
  // dLane + m%16 + 32*(m/16) (CUTLASS's M=64 TMEM atom).
  std::vector<uint32_t> d(size_t(c.m) * n, 0);
  const uint32_t vec = uint32_t(c.vec);
  for (uint32_t i = 0; i < c.instructions; ++i) {
    std::vector<uint32_t> a(c.m * k), b(n * k);
    for (auto &x : a)
      x = randomCode(c.a, rng);
    for (auto &x : b)
      x = randomCode(c.b, rng);
    if (c.infinities) {
      for (std::vector<uint32_t> *codes : {&a, &b})
        for (size_t e = 0; e < codes->size(); ++e) {
          if (e % 13 == 0)
            (*codes)[e] = 0x7C00 | uint32_t(rng() % 2) << 15;
          else if (e % 7 == 0)
            (*codes)[e] = 0;
        }
    }
    auto kOffset = [&](const Operand &op) {
      uint32_t width = 16 * test::layoutAtomChunks(op.layout);
      return !op.mnMajor && op.layout != UmmaLayout::None && width > 32 ? width - 32 : 0u;
    };
    p.params.aDesc[i] = placeOperand(p.img, rng, c.opA, c.a, c.m, a, (i % 2) * kOffset(c.opA));
    p.params.bDesc[i] = placeOperand(p.img, rng, c.opB, c.b, n, b, (i % 2) * kOffset(c.opB));
    std::vector<uint8_t> sfa(kM * 4), sfb(256 * 4);
    if (c.blockScaled) {
      for (auto &x : sfa)
        x = uint8_t(c.ue8m0 ? 120 + rng() % 15 : 1 + rng() % 0x7E);
      for (auto &x : sfb)
        x = uint8_t(c.ue8m0 ? 120 + rng() % 15 : 1 + rng() % 0x7E);
      p.params.sfaDesc[i] = placeSfTile(p.img, sfa, 0);
      p.params.sfbTiles = (n + 127) / 128;
      for (uint32_t tile = 0; tile < p.params.sfbTiles; ++tile)
        p.params.sfbDesc[i][tile] = placeSfTile(p.img, sfb, 128 * tile);
    }
    // The reference: exact products rounded to f32, summed in k order.
    for (uint32_t m = 0; m < c.m; ++m)
      for (uint32_t j = 0; j < n; ++j) {
        uint32_t &cell = d[m * n + j];
        bool accumulate = i > 0;
        if (c.kind == Tcgen05Kind::I8) {
          int64_t sum = accumulate ? int64_t(int32_t(cell)) : 0;
          for (uint32_t kk = 0; kk < k; ++kk)
            sum += int64_t(value(c.a, a[m * k + kk])) * int64_t(value(c.b, b[j * k + kk]));
          if (c.saturate)
            sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
          cell = uint32_t(sum);
          continue;
        }
        float acc = 0;
        if (accumulate) {
          if (c.dFormat == 0)
            acc = float(minifloat(cell & 0xFFFF, 5, 10, 15));
          else
            std::memcpy(&acc, &cell, 4);
        }
        for (uint32_t kk = 0; kk < k; ++kk) {
          double product = value(c.a, a[m * k + kk]) * value(c.b, b[j * k + kk]);
          if (c.negateA)
            product = -product;
          if (c.negateB)
            product = -product;
          if (c.blockScaled) {
            uint32_t block = kk / (k / vec);
            product *=
                sfValue(c, sfa[m * 4 + c.aSfId + block]) * sfValue(c, sfb[j * 4 + c.bSfId + block]);
          }
          acc += float(product);
        }
        if (c.dFormat == 0)
          cell = ptx::cvtF16F32(acc);
        else
          std::memcpy(&cell, &acc, 4);
      }
  }
  p.expected.assign(size_t(kM) * n, TensorMemory::kUnwritten);
  for (uint32_t m = 0; m < c.m; ++m) {
    uint32_t lane = c.m == 128 ? m : c.dLane + m % 16 + 32 * (m / 16);
    std::copy_n(&d[m * n], n, &p.expected[lane * n]);
  }
  p.params.dLane = c.dLane;
  p.params.imageBytes = uint32_t(p.img.bytes.size());
  p.params.n = n;
  p.params.instructions = c.instructions;
  p.params.idesc = instrDescriptor(c);
  p.params.kind = c.kind;
  p.params.blockScaled = c.blockScaled;
  p.params.vec = c.vec;
  return p;
}

void mmaBody(Thread &t, const void *raw) {
  const auto &p = *static_cast<const MmaParams *>(raw);
  const uint32_t base = t.dynamicSharedBase(), tid = t.tid.x, warp = t.warpid;
  for (uint32_t i = tid * 16; i < p.imageBytes; i += 128 * 16)
    t.storeShared<Chunk16>(base + i, t.loadGlobal<Chunk16>(p.image + i, "ld.global.v4"),
                           "st.shared.v4");
  t.fenceProxyAsync("fence.proxy.async.shared::cta at mma.cute:2");
  t.barrierSync(0, 0, "bar.sync at mma.cute:3");
  if (warp == 0)
    warpSyncTcgen05Alloc(t, base + kSlot, 512, "tcgen05.alloc at mma.cute:5"); // as emitted
  if (tid == 0)
    t.mbarrierInit(base + kBar, 1, "mbarrier.init at mma.cute:6");
  t.tcgen05FenceBeforeThreadSync("tcgen05.fence::before_thread_sync");
  t.barrierSync(0, 0, "bar.sync at mma.cute:8");
  t.tcgen05FenceAfterThreadSync("tcgen05.fence::after_thread_sync");
  const uint32_t tmem = t.loadShared<uint32_t>(base + kSlot, "ld.shared at mma.cute:10");
  if (tid == 0) {
    for (uint32_t i = 0; i < p.instructions; ++i) {
      if (!p.blockScaled) {
        t.tcgen05Mma(tmem + (p.dLane << 16) + p.dColumn, p.aDesc[i], p.bDesc[i], p.idesc, i > 0,
                     p.kind, "tcgen05.mma at mma.cute:14");
        continue;
      }
      uint32_t sfa = tmem + kSfaColumn + 4 * i, sfb = tmem + kSfbColumn + 8 * i;
      t.tcgen05Cp(sfa, p.sfaDesc[i], p.sfaShape, "tcgen05.cp.32x128b.warpx4 at mma.cute:17");
      for (uint32_t tile = 0; tile < p.sfbTiles; ++tile)
        t.tcgen05Cp(sfb + 4 * tile, p.sfbDesc[i][tile], Tcgen05CpShape::S32x128bWarpx4,
                    "tcgen05.cp.32x128b.warpx4 at mma.cute:19");
      t.tcgen05MmaBlockScaled(tmem + p.dColumn, p.aDesc[i], p.bDesc[i], p.idesc, sfa, sfb, i > 0,
                              p.kind, p.vec, "tcgen05.mma.block_scale at mma.cute:20");
    }
    t.tcgen05Commit(base + kBar, "tcgen05.commit at mma.cute:22");
    if (p.overwrite == 1)
      t.storeShared<uint32_t>(uint32_t(p.aDesc[0] & 0x3FFF) << 4, 0, "st.shared at mma.cute:23");
  }
  t.mbarrierWaitParity(base + kBar, 0, "mbarrier.try_wait.parity at mma.cute:24");
  if (p.overwrite == 2 && tid == 0)
    t.storeShared<uint32_t>(uint32_t(p.aDesc[0] & 0x3FFF) << 4, 0, "st.shared at mma.cute:25");
  t.tcgen05FenceAfterThreadSync("tcgen05.fence::after_thread_sync");
  const uint32_t step = std::min(p.n & -p.n, 32u); // a power of two that divides N
  uint64_t out = p.out + 4 * uint64_t(t.ctaid.x) * kM * p.n;
  for (uint32_t c = 0; c < p.n; c += step) {
    uint32_t regs[32];
    warpSyncTcgen05Ld32x32b(t, tmem + ((32 * (warp % 4)) << 16) + c, regs, step,
                            "tcgen05.ld.32x32b at mma.cute:28");
    t.tcgen05WaitLd("tcgen05.wait::ld");
    for (uint32_t i = 0; i < step; ++i)
      t.storeGlobal<uint32_t>(out + 4 * (uint64_t(tid) * p.n + c + i), regs[i], "st.global");
  }
  t.tcgen05FenceBeforeThreadSync("tcgen05.fence::before_thread_sync");
  t.barrierSync(0, 0, "bar.sync at mma.cute:33");
  if (warp == 0)
    warpSyncTcgen05Dealloc(t, tmem, 512, "tcgen05.dealloc at mma.cute:35");
}

const KernelDescriptor kMmaKernel{"mma_test", mmaBody, sizeof(MmaParams), /*usesBarriers=*/true,
                                  /*staticSharedBytes=*/0};

Result<std::vector<uint32_t>> runMma(Prepared &p, uint32_t ctas = 1, unsigned workers = 1) {
  std::vector<uint8_t> image = p.img.bytes;
  image.resize((image.size() + 15) / 16 * 16);
  std::vector<uint32_t> out(size_t(ctas) * kM * p.params.n, 0xDEADBEEF);
  MemoryMap map;
  addBuffer(map, image, "image");
  addBuffer(map, out, "out");
  MmaParams params = p.params;
  params.image = addressOf(image);
  params.out = addressOf(out);
  LaunchConfig cfg = config({ctas, 1, 1}, {128, 1, 1}, workers);
  cfg.dynamicSharedBytes = uint32_t(image.size());
  Status s = launch(kMmaKernel, cfg, &params, map);
  if (!s)
    return Error{s.error()};
  return out;
}

void expectMatches(const MmaCase &c) {
  SCOPED_TRACE(c.name);
  Prepared p = prepare(c);
  Result<std::vector<uint32_t>> out = runMma(p);
  ASSERT_TRUE(bool(out)) << out.error();
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < p.expected.size(); ++i)
    if (out.value()[i] != p.expected[i] && mismatches++ < 5)
      ADD_FAILURE() << "D(" << i / c.n << "," << i % c.n << ") = " << std::hex << out.value()[i]
                    << ", expected " << p.expected[i];
  EXPECT_EQ(mismatches, 0u);
}

constexpr Operand K_NONE{false, UmmaLayout::None}, K_32{false, UmmaLayout::B32},
    K_64{false, UmmaLayout::B64}, K_128{false, UmmaLayout::B128};
constexpr Operand MN_NONE{true, UmmaLayout::None}, MN_32{true, UmmaLayout::B32},
    MN_64{true, UmmaLayout::B64}, MN_128{true, UmmaLayout::B128},
    MN_128_32B{true, UmmaLayout::B128Base32B};

MmaCase f16(const char *name, uint32_t n, Operand a, Operand b, uint32_t dFormat = 1,
            bool bf16 = false) {
  Fmt f = bf16 ? Fmt::BF16 : Fmt::F16;
  uint32_t code = bf16 ? 1 : 0;
  return {name, Tcgen05Kind::F16, f, f, code, code, dFormat, n, a, b};
}

// ---------------------------------------------------------------------------
// Dense kinds.

// Infinities and zeros make NaN products (inf x 0) and sums (inf - inf) in
// the vectorised accumulation. With no NaN going in, each is the default NaN,
// whatever the order of an add's operands, so D equals the element-by-element
// reference bit for bit.
TEST(Tcgen05Mma, InfinitiesAndTheNaNsTheyMake) {
  MmaCase c = f16("f16 K 128B N=64 with infinities", 64, K_128, K_128);
  c.infinities = true;
  // Not vacuous: the reference has NaN cells as well as infinities.
  std::vector<uint32_t> cells = prepare(c).expected;
  auto count = [&](auto &&isSpecial) { return std::count_if(cells.begin(), cells.end(), isSpecial); };
  EXPECT_GT(count([](uint32_t v) { return (v & 0x7FFFFFFF) > 0x7F800000; }), 0);  // NaN
  EXPECT_GT(count([](uint32_t v) { return (v & 0x7FFFFFFF) == 0x7F800000; }), 0); // ±inf
  expectMatches(c);
  c.instructions = 2;
  expectMatches(c);
}

TEST(Tcgen05Mma, F16EverySwizzleKMajor) {
  expectMatches(f16("f16 K none N=8", 8, K_NONE, K_NONE));
  expectMatches(f16("f16 K 32B N=64", 64, K_32, K_32));
  expectMatches(f16("f16 K 64B N=256", 256, K_64, K_64));
  expectMatches(f16("f16 K 128B N=64", 64, K_128, K_128));
}

TEST(Tcgen05Mma, F16EverySwizzleMnMajor) {
  expectMatches(f16("f16 MN none N=64", 64, MN_NONE, MN_NONE));
  expectMatches(f16("f16 MN 32B N=8", 8, MN_32, MN_32));
  expectMatches(f16("f16 MN 64B N=64", 64, MN_64, MN_64));
  expectMatches(f16("f16 MN 128B N=256", 256, MN_128, MN_128));
}

TEST(Tcgen05Mma, F16MixedMajorness) {
  expectMatches(f16("f16 A K 128B, B MN 64B N=256", 256, K_128, MN_64));
  expectMatches(f16("f16 A MN 32B, B K none N=8", 8, MN_32, K_NONE));
}

TEST(Tcgen05Mma, Bf16AndF16Accumulators) {
  expectMatches(f16("bf16 f32 K 128B N=64", 64, K_128, K_128, 1, true));
  expectMatches(f16("bf16 f32 MN 128B N=8", 8, MN_128, MN_128, 1, true));
  expectMatches(f16("f16 f16-accumulator K 64B N=256", 256, K_64, MN_128, 0));
  expectMatches(f16("f16 f16-accumulator K 32B N=64", 64, K_32, K_32, 0));
}

TEST(Tcgen05Mma, AccumulatesWithEnableInputDAcrossKBlocks) {
  MmaCase c = f16("f16 two K blocks in one 128B atom", 64, K_128, K_128);
  c.instructions = 2;
  expectMatches(c);
  c = f16("f16 two K blocks, f16 accumulator", 256, K_64, MN_64, 0);
  c.instructions = 2;
  expectMatches(c);
}

TEST(Tcgen05Mma, M64UsesSixteenLanesOfEachQuarter) {
  MmaCase c = f16("f16 M=64 K 128B N=64", 64, K_128, K_128);
  c.m = 64;
  expectMatches(c);
  c = f16("f16 M=64 upper half-quarters, MN 64B N=256, two K blocks", 256, MN_64, MN_64);
  c.m = 64;
  c.dLane = 16;
  c.instructions = 2;
  expectMatches(c);
  c = {"e4m3 M=64 N=8", Tcgen05Kind::F8f6f4, Fmt::E4M3, Fmt::E4M3, 0, 0, 1, 8, K_32, K_NONE};
  c.m = 64;
  expectMatches(c);
}

TEST(Tcgen05Mma, NegateAAndB) {
  MmaCase c = f16("f16 negate A", 64, K_128, K_128);
  c.negateA = true;
  expectMatches(c);
  c.negateB = true;
  c.name = "f16 negate A and B";
  expectMatches(c);
}

TEST(Tcgen05Mma, Tf32) {
  expectMatches(
      {"tf32 K 128B N=64", Tcgen05Kind::Tf32, Fmt::TF32, Fmt::TF32, 2, 2, 1, 64, K_128, K_128});
  expectMatches(
      {"tf32 K none N=8", Tcgen05Kind::Tf32, Fmt::TF32, Fmt::TF32, 2, 2, 1, 8, K_NONE, K_32});
  expectMatches(
      {"tf32 MN 64B N=256", Tcgen05Kind::Tf32, Fmt::TF32, Fmt::TF32, 2, 2, 1, 256, MN_64, MN_NONE});
  expectMatches({"tf32 MN 128B_BASE32B N=64", Tcgen05Kind::Tf32, Fmt::TF32, Fmt::TF32, 2, 2, 1, 64,
                 MN_128_32B, MN_128_32B});
}

TEST(Tcgen05Mma, F8f6f4EveryInputFormat) {
  auto k = Tcgen05Kind::F8f6f4;
  expectMatches({"e4m3 x e5m2 K 128B N=64", k, Fmt::E4M3, Fmt::E5M2, 0, 1, 1, 64, K_128, K_128});
  expectMatches(
      {"e5m2 x e4m3 MN 128B N=256", k, Fmt::E5M2, Fmt::E4M3, 1, 0, 1, 256, MN_128, MN_64});
  expectMatches({"e2m3 x e3m2 K 32B N=8", k, Fmt::E2M3, Fmt::E3M2, 3, 4, 1, 8, K_32, K_32});
  expectMatches({"e3m2 x e2m1 K none N=64", k, Fmt::E3M2, Fmt::E2M1, 4, 5, 1, 64, K_NONE, K_NONE});
  expectMatches({"e2m1 x e2m1 K 64B N=256", k, Fmt::E2M1, Fmt::E2M1, 5, 5, 1, 256, K_64, K_64});
  expectMatches(
      {"e4m3 f16-accumulator MN none N=64", k, Fmt::E4M3, Fmt::E4M3, 0, 0, 0, 64, MN_NONE, MN_32});
}

TEST(Tcgen05Mma, I8SignedUnsignedAndSaturate) {
  auto k = Tcgen05Kind::I8;
  expectMatches({"s8 x u8 K 64B N=256", k, Fmt::S8, Fmt::U8, 1, 0, 2, 256, K_64, K_64});
  expectMatches({"s8 x s8 MN none N=8", k, Fmt::S8, Fmt::S8, 1, 1, 2, 8, MN_NONE, MN_NONE});
  expectMatches({"u8 x u8 MN 128B N=64", k, Fmt::U8, Fmt::U8, 0, 0, 2, 64, MN_128, K_128});
  MmaCase c{"u8 x u8 saturating, 2 blocks", k, Fmt::U8, Fmt::U8, 0, 0, 2, 64, K_128, K_32};
  c.instructions = 2;
  c.saturate = true;
  expectMatches(c);
}

// ---------------------------------------------------------------------------
// Block-scaled kinds, scale factors copied to TMEM with 32x128b.warpx4.

MmaCase scaled(const char *name, Tcgen05Kind kind, Fmt a, Fmt b, uint32_t aCode, uint32_t bCode,
               uint32_t n, Operand opA, Operand opB, Tcgen05ScaleVec vec, bool ue8m0,
               uint32_t aSfId = 0, uint32_t bSfId = 0) {
  MmaCase c{name, kind, a, b, aCode, bCode, 1, n, opA, opB};
  c.blockScaled = true;
  c.vec = vec;
  c.ue8m0 = ue8m0;
  c.aSfId = aSfId;
  c.bSfId = bSfId;
  return c;
}

TEST(Tcgen05Mma, Mxf8f6f4Scale1X) {
  auto k = Tcgen05Kind::Mxf8f6f4;
  auto x1 = Tcgen05ScaleVec::X1;
  expectMatches(scaled("mxf8 e4m3 K 128B N=256 ids 0/0", k, Fmt::E4M3, Fmt::E4M3, 0, 0, 256, K_128,
                       K_128, x1, true));
  expectMatches(scaled("mxf8f6f4 e5m2 x e2m1 N=64 ids 3/1", k, Fmt::E5M2, Fmt::E2M1, 1, 5, 64, K_64,
                       K_32, x1, true, 3, 1));
  expectMatches(scaled("mxf6 e2m3 x e3m2 N=8 ids 2/2", k, Fmt::E2M3, Fmt::E3M2, 3, 4, 8, K_NONE,
                       K_128, x1, true, 2, 2));
  expectMatches(scaled("mxf8 e4m3 MN 128B N=64", k, Fmt::E4M3, Fmt::E5M2, 0, 1, 64, MN_128, MN_64,
                       x1, true, 1, 0));
}

TEST(Tcgen05Mma, Mxf4Scale2X) {
  auto k = Tcgen05Kind::Mxf4;
  auto x2 = Tcgen05ScaleVec::X2;
  expectMatches(scaled("mxf4 K 128B N=256 ids 0/2", k, Fmt::E2M1Packed, Fmt::E2M1Packed, 1, 1, 256,
                       K_128, K_128, x2, true, 0, 2));
  expectMatches(scaled("mxf4 K none N=8 ids 2/0", k, Fmt::E2M1Packed, Fmt::E2M1Packed, 1, 1, 8,
                       K_NONE, K_64, x2, true, 2, 0));
}

TEST(Tcgen05Mma, Mxf4nvf4Scale4XAnd2X) {
  auto k = Tcgen05Kind::Mxf4nvf4;
  expectMatches(scaled("nvf4 4X ue4m3 K 128B N=256", k, Fmt::E2M1Packed, Fmt::E2M1Packed, 1, 1, 256,
                       K_128, K_128, Tcgen05ScaleVec::X4, false));
  expectMatches(scaled("nvf4 4X ue8m0 K 32B N=8", k, Fmt::E2M1Packed, Fmt::E2M1Packed, 1, 1, 8,
                       K_32, K_32, Tcgen05ScaleVec::X4, true));
  expectMatches(scaled("mxf4nvf4 2X ue8m0 K 64B N=64 ids 2/2", k, Fmt::E2M1Packed, Fmt::E2M1Packed,
                       1, 1, 64, K_64, K_NONE, Tcgen05ScaleVec::X2, true, 2, 2));
  MmaCase c = scaled("nvf4 4X ue4m3, two K blocks", k, Fmt::E2M1Packed, Fmt::E2M1Packed, 1, 1, 64,
                     K_128, K_128, Tcgen05ScaleVec::X4, false);
  c.instructions = 2;
  expectMatches(c);
}

// N = 208 runs the vectorised loop's wide column blocks (64 f32 or 32 f64
// products wide) and then its 8-wide ones; the second instruction's D holds
// NaNs from the infinities, so the loop also stops inside a block of rows.
TEST(Tcgen05Mma, WideAndNarrowColumnBlocks) {
  MmaCase c = f16("f16 K 128B N=208 with infinities, two K blocks", 208, K_128, K_128);
  c.infinities = true;
  c.instructions = 2;
  expectMatches(c);
  c = scaled("mxf8 e4m3 K 64B N=208, two K blocks", Tcgen05Kind::Mxf8f6f4, Fmt::E4M3, Fmt::E4M3, 0,
             0, 208, K_64, K_64, Tcgen05ScaleVec::X1, true);
  c.instructions = 2;
  expectMatches(c);
}

// A wrong descriptor gives wrong numbers: the same data read with another
// swizzle mode or another SBO does not match the reference.
TEST(Tcgen05Mma, AWrongDescriptorGivesWrongNumbers) {
  Prepared p = prepare(f16("f16 K 128B N=64", 64, K_128, K_128));
  p.params.aDesc[0] = (p.params.aDesc[0] & ~(uint64_t(7) << 61)) | uint64_t(4) << 61;
  Result<std::vector<uint32_t>> out = runMma(p);
  ASSERT_TRUE(bool(out)) << out.error();
  EXPECT_NE(out.value(), p.expected);

  p = prepare(f16("f16 K none N=64", 64, K_NONE, K_NONE));
  p.params.aDesc[0] += uint64_t(128 >> 4) << 32; // SBO 128 -> 256
  out = runMma(p);
  ASSERT_TRUE(bool(out)) << out.error();
  EXPECT_NE(out.value(), p.expected);
}

// A wrong scale-factor layout gives wrong numbers: SFA copied to lane
// quarter 0 only (128x128b reads 128 rows where the tile has 32), or read
// from another byte of its column.
TEST(Tcgen05Mma, AWrongScaleFactorLayoutGivesWrongNumbers) {
  MmaCase c = scaled("mxf8 1X", Tcgen05Kind::Mxf8f6f4, Fmt::E4M3, Fmt::E4M3, 0, 0, 64, K_128, K_128,
                     Tcgen05ScaleVec::X1, true);
  Prepared p = prepare(c);
  p.params.sfaShape = Tcgen05CpShape::S128x128b;
  Result<std::vector<uint32_t>> out = runMma(p);
  ASSERT_TRUE(bool(out)) << out.error();
  // Rows 0-31 still match; the other quarters read other bytes.
  EXPECT_TRUE(std::equal(p.expected.begin(), p.expected.begin() + 32 * 64, out.value().begin()));
  EXPECT_FALSE(std::equal(p.expected.begin(), p.expected.end(), out.value().begin()));

  p = prepare(c);
  p.params.idesc |= 1u << 29; // SFA id 1 instead of 0
  out = runMma(p);
  ASSERT_TRUE(bool(out)) << out.error();
  EXPECT_NE(out.value(), p.expected);
}

// ---------------------------------------------------------------------------
// Diagnostics of the instruction itself.

std::string mmaError(MmaCase c, void (*edit)(MmaParams &)) {
  Prepared p = prepare(c);
  edit(p.params);
  Result<std::vector<uint32_t>> out = runMma(p);
  EXPECT_FALSE(bool(out));
  return out ? "" : out.error();
}

void expectContains(const std::string &text, const std::string &part) {
  EXPECT_NE(text.find(part), std::string::npos) << "missing: " << part << "\nin: " << text;
}

TEST(Tcgen05MmaDiagnostics, DescriptorVersionMustBe1) {
  std::string e = mmaError(f16("f16", 64, K_128, K_128),
                           [](MmaParams &p) { p.aDesc[0] &= ~(uint64_t(3) << 46); });
  expectContains(e, "(warp 0, lane 0): tcgen05.mma at mma.cute:14: the shared memory descriptor "
                    "of A");
  expectContains(e, "is not valid: its version field (bits 46-47) is 0; sm_100 descriptors have "
                    "1 there");
}

TEST(Tcgen05MmaDiagnostics, OperandOutsideSharedMemory) {
  std::string e = mmaError(f16("f16", 64, K_128, K_128), [](MmaParams &p) {
    p.bDesc[0] = (p.bDesc[0] & ~uint64_t(0x3FFF)) | (0x3FF00 >> 4);
  });
  expectContains(e, "B (start 0x3ff00, LBO 112, SBO 1024, 128B swizzle) element (0, k=0) lies "
                    "at shared address 0x3ff60, outside the CTA's shared memory");
}

TEST(Tcgen05MmaDiagnostics, InvalidFormatAndShape) {
  std::string e = mmaError(f16("f16", 64, K_128, K_128),
                           [](MmaParams &p) { p.idesc = (p.idesc & ~(7u << 7)) | 3u << 7; });
  expectContains(e, "kind::f16 with idesc");
  expectContains(e, "A format code 3 is not valid for this kind");
  e = mmaError(scaled("mxf4", Tcgen05Kind::Mxf4, Fmt::E2M1Packed, Fmt::E2M1Packed, 1, 1, 64, K_128,
                      K_128, Tcgen05ScaleVec::X2, true),
               [](MmaParams &p) { p.idesc = (p.idesc & ~(31u << 24)) | 4u << 24; });
  expectContains(e, "M=64 is not valid with cta_group::1 for block-scaled kinds (M=128 is)");
  e = mmaError(f16("f16", 64, K_128, K_128),
               [](MmaParams &p) { p.idesc = (p.idesc & ~(31u << 24)) | 16u << 24; });
  expectContains(e, "M=256 is not valid with cta_group::1 (M=64 and 128 are)");
  MmaCase m64 = f16("f16 M=64", 64, K_128, K_128);
  m64.m = 64;
  e = mmaError(m64, [](MmaParams &p) { p.dLane = 8; });
  expectContains(e, "D address 0x80000 (lane 8, column 0) must start at lane 0 or 16 for M=64");
}

TEST(Tcgen05MmaDiagnostics, AccumulatorOutsideTheAllocation) {
  std::string e = mmaError(f16("f16", 256, K_128, K_128), [](MmaParams &p) { p.dColumn = 300; });
  expectContains(e, "the accumulator D (N=256) occupies TMEM columns [300,556), which do not "
                    "lie in one live allocation (live: [0,512) by warp 0 at 'tcgen05.alloc at "
                    "mma.cute:5')");
}

TEST(Tcgen05MmaDiagnostics, ScaleVecMustMatchTheKind) {
  MmaCase c = scaled("mxf4", Tcgen05Kind::Mxf4, Fmt::E2M1Packed, Fmt::E2M1Packed, 1, 1, 64, K_128,
                     K_128, Tcgen05ScaleVec::X2, true);
  std::string e = mmaError(c, [](MmaParams &p) { p.vec = Tcgen05ScaleVec::X4; });
  expectContains(e, "tcgen05.mma.block_scale at mma.cute:20: kind::mxf4 with idesc");
  expectContains(e, "kind::mxf4 takes scale_vec::2X (block32)");
  e = mmaError(c, [](MmaParams &p) { p.idesc &= ~(1u << 23); });
  expectContains(e, "scale factors must be ue8m0 (bit 23 set)");
  e = mmaError(c, [](MmaParams &p) { p.idesc |= 1u << 29; });
  expectContains(e, "with scale_vec::2X the SF ids must be multiples of 2 (SFA id 1, SFB id 0)");
}

// ---------------------------------------------------------------------------
// Asynchrony and determinism.

TEST(Tcgen05MmaAsync, SameResultsForAnyWorkerCount) {
  MmaCase c = scaled("nvf4", Tcgen05Kind::Mxf4nvf4, Fmt::E2M1Packed, Fmt::E2M1Packed, 1, 1, 64,
                     K_128, K_128, Tcgen05ScaleVec::X4, false);
  Prepared p = prepare(c);
  Result<std::vector<uint32_t>> one = runMma(p, 5, 1), many = runMma(p, 5, 4);
  ASSERT_TRUE(bool(one)) << one.error();
  ASSERT_TRUE(bool(many)) << many.error();
  EXPECT_EQ(one.value(), many.value());
  for (uint32_t cta = 0; cta < 5; ++cta)
    EXPECT_TRUE(
        std::equal(p.expected.begin(), p.expected.end(), one.value().begin() + cta * kM * 64));
}

// Reusing an operand buffer before the MMA reading it is seen complete (a
// missing wait on the "buffer empty" barrier) is reported; after the wait it
// is fine.
TEST(Tcgen05MmaAsync, OverwritingAnOperandBeforeTheCommitWaitIsReported) {
  Prepared p = prepare(f16("f16 K 128B N=64", 64, K_128, K_128));
  p.params.overwrite = 2;
  Result<std::vector<uint32_t>> out = runMma(p);
  ASSERT_TRUE(bool(out)) << out.error();
  EXPECT_EQ(out.value(), p.expected);
  p.params.overwrite = 1;
  out = runMma(p);
  ASSERT_FALSE(bool(out));
  expectContains(out.error(),
                 "(warp 0, lane 0): st.shared at mma.cute:23: 4-byte shared store at 0x800 "
                 "overwrites shared memory that 'tcgen05.mma at mma.cute:14' (issued by thread "
                 "(0,0,0), warp 0 lane 0) reads and may still be reading: wait on the mbarrier "
                 "phase its tcgen05.commit arrives on before reusing the buffer");
}

// Two MMAs read the same A, each committed to its own mbarrier. Once the
// first is seen complete the second may still read A: a store over it is
// reported, naming the second; after both waits it is fine.
void twoReadersBody(Thread &t, const void *raw) {
  const auto &p = *static_cast<const MmaParams *>(raw);
  const uint32_t base = t.dynamicSharedBase();
  if (t.tid.x == 0)
    for (uint32_t i = 0; i < p.imageBytes; i += 16)
      t.storeShared<Chunk16>(base + i, t.loadGlobal<Chunk16>(p.image + i, "ld.global.v4"),
                             "st.shared.v4");
  t.fenceProxyAsync("fence.proxy.async.shared::cta at two.cute:1");
  t.tcgen05Alloc(base + kSlot, 512, "tcgen05.alloc at two.cute:1");
  const uint32_t tmem = t.loadShared<uint32_t>(base + kSlot, "ld.shared at two.cute:2");
  if (t.tid.x == 0) {
    for (uint32_t i = 0; i < 2; ++i) {
      t.mbarrierInit(base + kBar + 8 * i, 1, "mbarrier.init at two.cute:3");
      t.tcgen05Mma(tmem, p.aDesc[0], p.bDesc[0], p.idesc, i > 0, p.kind,
                   i == 0 ? "tcgen05.mma at two.cute:4" : "tcgen05.mma at two.cute:5");
      t.tcgen05Commit(base + kBar + 8 * i, "tcgen05.commit at two.cute:6");
    }
    for (uint32_t i = 0; i < p.instructions; ++i) // waits for the first or both
      t.mbarrierWaitParity(base + kBar + 8 * i, 0, "mbarrier.try_wait.parity at two.cute:7");
    t.storeShared<uint32_t>(uint32_t(p.aDesc[0] & 0x3FFF) << 4, 0, "st.shared at two.cute:8");
  }
  t.tcgen05Dealloc(tmem, 512, "tcgen05.dealloc at two.cute:9");
}

TEST(Tcgen05MmaAsync, AnOperandStaysReadUntilItsLastReaderCompletes) {
  Prepared p = prepare(f16("f16 K 128B N=64", 64, K_128, K_128));
  std::vector<uint8_t> image = p.img.bytes;
  image.resize((image.size() + 15) / 16 * 16);
  MemoryMap map;
  addBuffer(map, image, "image");
  p.params.image = addressOf(image);
  LaunchConfig cfg = config({1, 1, 1}, {32, 1, 1}, 1);
  cfg.dynamicSharedBytes = uint32_t(image.size());
  KernelDescriptor k{"two_readers", twoReadersBody, sizeof(MmaParams), true, 0};
  p.params.imageBytes = uint32_t(image.size());
  p.params.instructions = 1;
  expectContains(launchError(k, cfg, &p.params, map),
                 "st.shared at two.cute:8: 4-byte shared store at 0x800 overwrites shared "
                 "memory that 'tcgen05.mma at two.cute:5' (issued by thread (0,0,0), warp 0 "
                 "lane 0) reads and may still be reading");
  p.params.instructions = 2;
  Status both = launch(k, cfg, &p.params, map);
  EXPECT_TRUE(bool(both)) << both.error();
}

// An MMA issued before the TMA load of its operand has landed reads shared
// memory that the load is still writing: reported, naming both.
struct alignas(64) EarlyParams {
  TensorMap tmap;
  uint64_t aDesc, bDesc;
  uint32_t idesc;
  bool waitFirst; // wait for the load, issue the MMA, then reload the buffer at once
};

void earlyBody(Thread &t, const void *raw) {
  const auto &p = *static_cast<const EarlyParams *>(raw);
  const uint32_t base = t.dynamicSharedBase();
  if (t.warpid == 0)
    t.tcgen05Alloc(base + kSlot, 64, "tcgen05.alloc at early.cute:1");
  if (t.tid.x == 0) {
    t.mbarrierInit(base + kBar, 1, "mbarrier.init at early.cute:2");
    t.mbarrierInit(base + kBar + 8, 1, "mbarrier.init at early.cute:3");
    int32_t coords[2] = {0, 0};
    t.mbarrierArriveExpectTx(base + kBar, 4096, "mbarrier.arrive.expect_tx at early.cute:4");
    t.tmaLoadTile(base + 1024, reinterpret_cast<uint64_t>(&p.tmap), coords, 2, base + kBar,
                  "cp.async.bulk.tensor.2d at early.cute:5");
    if (p.waitFirst)
      t.mbarrierWaitParity(base + kBar, 0, "mbarrier.try_wait.parity at early.cute:6");
    uint32_t tmem = t.loadShared<uint32_t>(base + kSlot, "ld.shared at early.cute:6");
    t.tcgen05Mma(tmem, p.aDesc, p.bDesc, p.idesc, false, Tcgen05Kind::F16,
                 "tcgen05.mma at early.cute:7");
    if (p.waitFirst) {
      t.mbarrierArriveExpectTx(base + kBar, 4096, "mbarrier.arrive.expect_tx at early.cute:8");
      t.tmaLoadTile(base + 1024, reinterpret_cast<uint64_t>(&p.tmap), coords, 2, base + kBar,
                    "cp.async.bulk.tensor.2d at early.cute:9");
    }
  }
}

TEST(Tcgen05MmaAsync, MmaReadingATmaLoadInFlightIsReported) {
  std::vector<uint16_t> in(64 * 32, 0x3C00);
  EarlyParams p{};
  uint64_t dim[2] = {64, 32}, stride[1] = {128};
  uint32_t box[2] = {64, 32}, estride[2] = {1, 1};
  ASSERT_EQ(encodeTensorMapTiled(p.tmap, TmaDataType::Float16, 2, in.data(), dim, stride, box,
                                 estride, TmaInterleave::None, TmaSwizzle::B128,
                                 TmaL2Promotion::None, TmaOobFill::None),
            "");
  uint32_t a = kSharedWindowBase + 1024;
  p.aDesc = uint64_t(a >> 4) | uint64_t(1) << 16 | uint64_t(1024 >> 4) << 32 | uint64_t(1) << 46 |
            uint64_t(2) << 61;
  p.bDesc = p.aDesc;
  p.idesc = 1u << 4 | (64u >> 3) << 17 | (128u >> 4) << 24;
  MemoryMap map;
  addBuffer(map, in, "in");
  LaunchConfig cfg = config({1, 1, 1}, {32, 1, 1}, 1);
  cfg.dynamicSharedBytes = 1024 + 128 * 128;
  KernelDescriptor k{"early", earlyBody, sizeof(EarlyParams), true, 0};
  std::string e = launchError(k, cfg, &p, map);
  expectContains(e, "tcgen05.mma at early.cute:7: A (start 0x800, LBO 16, SBO 1024, 128B "
                    "swizzle) element (0, k=0) at shared address 0x800 is still being written "
                    "by the TMA load 'cp.async.bulk.tensor.2d at early.cute:5' (issued by thread "
                    "(0,0,0), warp 0 lane 0;");
  expectContains(e, "wait on that mbarrier phase (mbarrier.try_wait.parity) before issuing");

  // The same buffer reloaded by TMA while the MMA may still read it.
  p.waitFirst = true;
  e = launchError(k, cfg, &p, map);
  expectContains(e, "cp.async.bulk.tensor.2d at early.cute:9: the box writes shared byte 0x800, "
                    "which 'tcgen05.mma at early.cute:7' (issued by thread (0,0,0), warp 0 lane "
                    "0) reads and may still be reading");
}

} // namespace
} // namespace cutec::rt
