// The block-scaled tcgen05.mma's vectorised paths (f32 products where
// runtime/numerics/ScaledOperands.h finds them exact, f64 otherwise; B scaled once
// when the lane quarters' factors agree) against its one-output-at-a-time
// loop, bit for bit. The same instruction runs twice on the same operands,
// factors and D: once as is, and once with a NaN in D's first cell, which
// sends every row to the one-output-at-a-time loop (the vectorised loop
// stops at the first row whose D holds a NaN). Every other cell must come
// out the same. The inputs are random and adversarial: factors that make
// products overflow f32 or land among its subnormals, infinities, zeros,
// negation, NaNs. Also f32ExactFactors against hand-derived boundaries.
#include "UmmaTestLayouts.h"

#include "runtime/numerics/ScaledOperands.h"
#include "runtime/tensorcore/Tcgen05Mma.h"
#include "runtime/engine/Thread.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace cutec::rt {
namespace {

// ---------------------------------------------------------------------------
// f32ExactFactors, with the values written out here.

std::vector<float> e2m1Values() {
  const float magnitudes[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  std::vector<float> v(16);
  for (uint32_t c = 0; c < 16; ++c)
    v[c] = (c & 8 ? -1 : 1) * magnitudes[c & 7];
  return v;
}

std::vector<float> ue8m0Values() {
  std::vector<float> v(256);
  for (uint32_t c = 0; c < 255; ++c)
    v[c] = std::ldexp(1.0f, int(c) - 127);
  v[255] = std::numeric_limits<float>::quiet_NaN();
  return v;
}

TEST(ScaledOperands, E2m1TimesUe8m0IsExactInF32FromCode2To252) {
  // 0.5 * 2^(c-127) is an f32 normal from c = 2 on; 6 * 2^(c-127) overflows
  // from c = 253 on; 255 is NaN.
  std::vector<float> values = e2m1Values(), factors = ue8m0Values();
  std::array<bool, 256> exact = f32ExactFactors(values.data(), 16, factors.data());
  for (uint32_t c = 0; c < 256; ++c)
    EXPECT_EQ(exact[c], c >= 2 && c <= 252) << "code " << c;
}

TEST(ScaledOperands, E2m1TimesUe4m3IsAlwaysExactInF32) {
  // ue4m3 lies in [2^-9, 448]: e2m1 times it in [2^-10, 2688] with at most 6
  // significant bits. Bit 7 is ignored, so 0x7F and 0xFF are both NaN.
  std::vector<float> values = e2m1Values(), factors(256);
  for (uint32_t c = 0; c < 256; ++c) {
    uint32_t exp = (c >> 3) & 0xF, man = c & 7;
    factors[c] = (c & 0x7F) == 0x7F ? std::numeric_limits<float>::quiet_NaN()
                 : exp == 0         ? std::ldexp(float(man), -9)
                                    : std::ldexp(1.0f + float(man) / 8, int(exp) - 7);
  }
  std::array<bool, 256> exact = f32ExactFactors(values.data(), 16, factors.data());
  for (uint32_t c = 0; c < 256; ++c)
    EXPECT_EQ(exact[c], (c & 0x7F) != 0x7F) << "code " << c;
}

TEST(ScaledOperands, NaNElementsDoNotDecideAndInfinitiesStayExact) {
  std::vector<float> values = {1.0f, std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN()};
  std::vector<float> factors = ue8m0Values();
  std::array<bool, 256> exact = f32ExactFactors(values.data(), 3, factors.data());
  EXPECT_FALSE(exact[0]); // 2^-127: an f32 subnormal
  EXPECT_TRUE(exact[1]);
  EXPECT_TRUE(exact[254]);
  EXPECT_FALSE(exact[255]);
}

TEST(ScaledOperands, OneCopyOfBWhenTheQuartersAgree) {
  const uint32_t M = 128, N = 8, K = 4, V = 2;
  std::vector<float> a(M * K, 1.5f), bT(K * N), sfa(M * V, 2.0f), sfb(4 * N * V);
  for (uint32_t i = 0; i < bT.size(); ++i)
    bT[i] = float(i);
  for (uint32_t i = 0; i < sfb.size(); ++i)
    sfb[i] = float(1 + i % (N * V)); // quarter q repeats quarter 0
  ScaledOperands<float> out;
  scaleOperands(a.data(), bT.data(), sfa.data(), sfb.data(), M, N, K, V, -1.0f, 1.0f, out);
  EXPECT_EQ(out.quarters, 1u);
  EXPECT_EQ(out.quarterStride(N, K), 0u);
  EXPECT_EQ(out.a[0], -3.0f);
  // B(n=3, k=2) = bT[2*N + 3] = 19 with factor j = k / (K/V) = 1: sfb[3*V + 1] = 8.
  EXPECT_EQ(out.bT[2 * N + 3], 19.0f * 8.0f);
  sfb[3 * N * V + 5] = 100; // quarter 3 differs
  scaleOperands(a.data(), bT.data(), sfa.data(), sfb.data(), M, N, K, V, -1.0f, 1.0f, out);
  EXPECT_EQ(out.quarters, 4u);
  EXPECT_EQ(out.quarterStride(N, K), size_t(K) * N);
}

// ---------------------------------------------------------------------------
// The vectorised paths against the one-output-at-a-time loop.

struct Format {
  uint32_t idescCode, bits, perChunk;
  bool (*isNaN)(uint32_t code);
};

bool neverNaN(uint32_t) { return false; }
bool e4m3NaN(uint32_t c) { return (c & 0x7F) == 0x7F; }
bool e5m2NaN(uint32_t c) { return (c & 0x7C) == 0x7C && (c & 3); } // 0x7C/0xFC: ±inf

const Format kE4M3{0, 8, 16, e4m3NaN}, kE5M2{1, 8, 16, e5m2NaN}, kE2M3{3, 6, 16, neverNaN},
    kE3M2{4, 6, 16, neverNaN}, kE2M1{5, 4, 16, neverNaN}, kE2M1Packed{1, 4, 32, neverNaN};

struct Case {
  const char *name;
  Tcgen05Kind kind;
  Format a, b;
  Tcgen05ScaleVec vec;
  bool ue8m0;
  uint32_t sfLow, sfHigh; // factor codes drawn from [sfLow, sfHigh]
  bool sameQuarters = false;
  uint32_t n = 256;
  bool negateA = false, negateB = false;
  bool nanCodes = false; // keep the formats' NaN codes among the random ones
  uint32_t aSfId = 0, bSfId = 0;
  float dRange = 64;                // D starts uniform in [-dRange, dRange]
  uint32_t bSfLow = 0, bSfHigh = 0; // B's own factor range, where not both 0
};

constexpr uint32_t kSfaColumn = 256, kSfbColumn = 264;

void setBits(std::vector<std::byte> &bytes, uint32_t at, uint32_t bitOffset, uint32_t bits,
             uint32_t code) {
  for (uint32_t i = 0; i < bits; ++i) {
    uint32_t bit = bitOffset + i;
    std::byte mask{uint8_t(1u << (bit % 8))};
    bytes[at + bit / 8] =
        (code >> i & 1) ? (bytes[at + bit / 8] | mask) : (bytes[at + bit / 8] & ~mask);
  }
}

/// `rows` x K random codes of `f`, K-major without swizzle at shared offset
/// `offset`; returns the descriptor.
uint64_t placeOperand(std::vector<std::byte> &shared, uint32_t offset, const Format &f,
                      uint32_t rows, bool nanCodes, std::mt19937 &rng) {
  const uint32_t lbo = 128 * ((rows + 7) / 8), sbo = 128, k = 2 * f.perChunk;
  const uint32_t start = kSharedWindowBase + offset;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t kk = 0; kk < k; ++kk) {
      uint32_t code;
      do
        code = rng() % (1u << f.bits);
      while (!nanCodes && f.isNaN(code));
      uint32_t unit =
          test::canonicalUnitAddress(start, UmmaLayout::None, false, lbo, sbo, r, kk / f.perChunk);
      setBits(shared, unit - kSharedWindowBase, (kk % f.perChunk) * f.bits, f.bits, code);
    }
  return uint64_t(start >> 4) | uint64_t(lbo >> 4) << 16 | uint64_t(sbo >> 4) << 32 |
         uint64_t(1) << 46;
}

/// D after the instruction, 128 x N cells; with `scalar`, D(0, 0) starts as
/// NaN, which sends every row through the one-output-at-a-time loop.
std::vector<uint32_t> runCase(const Case &c, uint32_t seed, bool scalar) {
  std::mt19937 rng(seed);
  const uint32_t M = 128, N = c.n;
  std::vector<std::byte> shared(32 * 1024);
  for (std::byte &b : shared)
    b = std::byte(rng()); // padding holds garbage
  const uint64_t aDesc = placeOperand(shared, 0, c.a, M, c.nanCodes, rng);
  const uint64_t bDesc = placeOperand(shared, 8 * 1024, c.b, N, c.nanCodes, rng);

  TensorMemory tmem;
  uint32_t column = 0;
  EXPECT_EQ(tmem.allocate(512, 0, "tcgen05.alloc", column), "");
  auto factorCell = [&](uint32_t low, uint32_t high) {
    uint32_t cell = 0;
    for (uint32_t byte = 0; byte < 4; ++byte)
      cell |= (low + rng() % (high - low + 1)) << (8 * byte);
    return cell;
  };
  const bool bOwn = c.bSfLow || c.bSfHigh;
  for (uint32_t lane = 0; lane < M; ++lane)
    for (uint32_t col = 0; col < M / 32; ++col)
      tmem.cell(lane, kSfaColumn + col) = factorCell(c.sfLow, c.sfHigh);
  for (uint32_t lane = 0; lane < M; ++lane)
    for (uint32_t col = 0; col < (N + 31) / 32; ++col)
      tmem.cell(lane, kSfbColumn + col) =
          c.sameQuarters && lane >= 32
              ? tmem.cell(lane % 32, kSfbColumn + col)
              : factorCell(bOwn ? c.bSfLow : c.sfLow, bOwn ? c.bSfHigh : c.sfHigh);
  std::uniform_real_distribution<float> dValue(-1.0f, 1.0f);
  for (uint32_t lane = 0; lane < M; ++lane)
    for (uint32_t n = 0; n < N; ++n) {
      float v = c.dRange * dValue(rng);
      std::memcpy(&tmem.cell(lane, n), &v, 4);
    }
  if (scalar)
    tmem.cell(0, 0) = 0x7FC00000;

  const uint32_t idesc = c.a.idescCode << 7 | c.b.idescCode << 10 | uint32_t(c.negateA) << 13 |
                         uint32_t(c.negateB) << 14 | (N >> 3) << 17 | (M >> 4) << 24 |
                         c.bSfId << 4 | uint32_t(c.ue8m0) << 23 | c.aSfId << 29;
  MmaOperands op =
      blockScaledMmaOperands(0, aDesc, bDesc, idesc, kSfaColumn, kSfbColumn, true, c.kind, c.vec);
  SharedView view;
  view.bytes = shared.data();
  view.size = uint32_t(shared.size());
  TmemRegion written;
  MmaProblem p = executeTcgen05Mma(op, Tcgen05Numerics::F32Steps, view, tmem, written);
  EXPECT_FALSE(bool(p)) << p.text;
  std::vector<uint32_t> d(size_t(M) * N);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n)
      d[m * N + n] = tmem.cell(m, n);
  return d;
}

/// What the results hold, so that a case can show it is not vacuous.
struct Census {
  uint32_t nan = 0, inf = 0, subnormal = 0, zero = 0, normal = 0;
};

Census census(const std::vector<uint32_t> &cells) {
  Census s;
  for (uint32_t bits : cells) {
    uint32_t magnitude = bits & 0x7FFFFFFF;
    if (magnitude > 0x7F800000)
      ++s.nan;
    else if (magnitude == 0x7F800000)
      ++s.inf;
    else if (magnitude == 0)
      ++s.zero;
    else if (magnitude < 0x00800000)
      ++s.subnormal;
    else
      ++s.normal;
  }
  return s;
}

/// Runs the case on a few seeds; returns the census of the vectorised runs.
Census expectPathsAgree(const Case &c) {
  SCOPED_TRACE(c.name);
  Census total;
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    std::vector<uint32_t> fast = runCase(c, seed, false), slow = runCase(c, seed, true);
    uint32_t mismatches = 0;
    for (size_t i = 1; i < fast.size(); ++i) // cell 0 is the planted NaN
      if (fast[i] != slow[i] && mismatches++ < 5)
        ADD_FAILURE() << "seed " << seed << " D(" << i / c.n << "," << i % c.n << ") = " << std::hex
                      << fast[i] << ", one output at a time " << slow[i];
    EXPECT_EQ(mismatches, 0u) << "seed " << seed;
    Census s = census(fast);
    total.nan += s.nan;
    total.inf += s.inf;
    total.subnormal += s.subnormal;
    total.zero += s.zero;
    total.normal += s.normal;
  }
  return total;
}

const auto kNvf4 = Tcgen05Kind::Mxf4nvf4, kMxf4 = Tcgen05Kind::Mxf4, kMxf8 = Tcgen05Kind::Mxf8f6f4;
const auto kX1 = Tcgen05ScaleVec::X1, kX2 = Tcgen05ScaleVec::X2, kX4 = Tcgen05ScaleVec::X4;

TEST(ScaledOperandsMma, Nvf4Ue4m3FactorsPerQuarterAndShared) {
  // Every ue4m3 factor but NaN keeps e2m1 exact: the f32 path.
  Case c{"nvf4 ue4m3, four quarters", kNvf4, kE2M1Packed, kE2M1Packed, kX4, false, 0, 0x7E};
  EXPECT_GT(expectPathsAgree(c).normal, 0u);
  c.name = "nvf4 ue4m3, one quarter, N=200";
  c.sameQuarters = true;
  c.n = 200;
  EXPECT_GT(expectPathsAgree(c).normal, 0u);
  c.name = "nvf4 ue4m3 negated A, N=64";
  c.sameQuarters = false;
  c.n = 64;
  c.negateA = true;
  EXPECT_GT(expectPathsAgree(c).normal, 0u);
}

TEST(ScaledOperandsMma, ProductsThatOverflowF32) {
  // Factors 2^33 .. 2^125 keep e2m1 exact in f32 (the f32 path), but most
  // products of two overflow: infinities, and NaNs from inf - inf.
  Case c{"mxf4 ue8m0 large", kMxf4, kE2M1Packed, kE2M1Packed, kX2, true, 160, 252};
  Census s = expectPathsAgree(c);
  EXPECT_GT(s.inf, 0u);
  EXPECT_GT(s.nan, 0u);
  // Codes 253 and 254 overflow the scaled elements themselves: the f64 path.
  c = {"mxf4 ue8m0 huge", kMxf4, kE2M1Packed, kE2M1Packed, kX2, true, 200, 254, true, 128};
  s = expectPathsAgree(c);
  EXPECT_GT(s.inf + s.nan, 0u);
  // A's factors overflow A's elements in f32, B's bring the products back:
  // finite sums only the f64 path gets right.
  c = {"mxf4 ue8m0 huge A, tiny B", kMxf4, kE2M1Packed, kE2M1Packed, kX2, true, 250, 254};
  c.bSfLow = 0;
  c.bSfHigh = 8;
  EXPECT_GT(expectPathsAgree(c).normal, 0u);
}

TEST(ScaledOperandsMma, ProductsAmongF32Subnormals) {
  // Factors 2^-70 .. 2^-60 keep e2m1 normal in f32 (the f32 path); products
  // fall among f32's subnormals and below. D starts at zero so that their
  // sums stay there.
  Case c{"nvf4 ue8m0 tiny", kNvf4, kE2M1Packed, kE2M1Packed, kX2, true, 57, 67, false, 64};
  c.negateB = true;
  c.dRange = 0;
  Census s = expectPathsAgree(c);
  EXPECT_GT(s.subnormal, 0u);
  EXPECT_GT(s.zero, 0u);
  // Codes 0 and 1 make scaled elements f32 subnormals: the f64 path.
  c = {"nvf4 ue8m0 tiniest", kNvf4, kE2M1Packed, kE2M1Packed, kX4, true, 0, 10, true, 64};
  c.dRange = 0;
  expectPathsAgree(c);
}

TEST(ScaledOperandsMma, Mxf8f6f4FormatsWithInfinitiesAndZeros) {
  // e5m2 infinities times e4m3 zeros make NaN products; f32 path.
  Case c{"mxf8 e4m3 x e5m2", kMxf8, kE4M3, kE5M2, kX1, true, 100, 154, false, 256};
  c.aSfId = 3;
  c.bSfId = 1;
  Census s = expectPathsAgree(c);
  EXPECT_GT(s.inf + s.nan, 0u);
  c = {"mxf6 e2m3 x e3m2 negated", kMxf8, kE2M3, kE3M2, kX1, true, 90, 170, true, 72, true, true};
  expectPathsAgree(c);
  c = {"mxf8f6f4 e5m2 x e2m1 large", kMxf8, kE5M2, kE2M1, kX1, true, 180, 254, false, 64};
  expectPathsAgree(c);
}

TEST(ScaledOperandsMma, NaNOperandsAndFactorsTakeTheSlowLoopBothTimes) {
  Case c{"mxf8 e4m3 with NaN codes", kMxf8, kE4M3, kE4M3, kX1, true, 120, 135, false, 64};
  c.nanCodes = true;
  EXPECT_GT(expectPathsAgree(c).nan, 0u);
  c = {"mxf4 NaN factors", kMxf4, kE2M1Packed, kE2M1Packed, kX2, true, 250, 255, false, 64};
  EXPECT_GT(expectPathsAgree(c).nan, 0u);
}

} // namespace
} // namespace cutec::rt
