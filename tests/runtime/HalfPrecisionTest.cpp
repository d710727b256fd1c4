// Tests of the 16- and 19-bit formats against independent references: f16
// against GCC's _Float16 (all 2^16 codes, a dense sweep of f32 inputs and every
// f16 boundary's neighbours), bf16 and tf32 against rounding done in double
// arithmetic from the formats' definitions.
#include "runtime/numerics/FloatFormat.h"
#include "runtime/numerics/PtxCvt.h"

#include <gtest/gtest.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <vector>

namespace cutec::rt {
namespace {

/// f32 patterns to test: a scrambled sweep of every 2^12-th pattern, plus the
/// neighbours of every value the 16-bit format can represent and of the
/// midpoints between them (where rounding decides).
std::vector<uint32_t> sweepPatterns(const FloatFormat &format) {
  std::vector<uint32_t> patterns;
  for (uint32_t k = 0; k < (1u << 20); ++k)
    patterns.push_back(k << 12 | ((k * 2654435761u) >> 20));
  for (uint32_t code = 0; code < (1u << format.codeBits()); ++code) {
    float v = decode(format, code);
    float next = decode(format, code + 1);
    if (!std::isfinite(v))
      continue;
    std::vector<float> anchors = {v};
    if (std::isfinite(next) && std::signbit(v) == std::signbit(next))
      anchors.push_back(float((double(v) + double(next)) / 2));
    for (float a : anchors) {
      uint32_t bits = std::bit_cast<uint32_t>(a);
      for (uint32_t d : {0u, 1u, 2u})
        for (uint32_t b : {bits + d, bits - d})
          patterns.push_back(b);
    }
  }
  return patterns;
}

/// Round `x` to `manBits` fraction bits with exponents from `minExp` to
/// `maxExp`, ties to even or away, in double arithmetic; ±Inf on overflow.
double roundToFormat(double x, int manBits, int minExp, int maxExp, bool tiesAway) {
  if (x == 0 || !std::isfinite(x))
    return x;
  int exponent;
  std::frexp(x, &exponent); // |x| = m * 2^exponent, m in [0.5, 1)
  int quantumExp = std::max(exponent - 1, minExp) - manBits;
  double scaled = std::ldexp(x, -quantumExp); // exact: at most 24 significant bits
  double rounded = tiesAway ? std::round(scaled) : std::nearbyint(scaled);
  double result = std::ldexp(rounded, quantumExp);
  double maxValue = std::ldexp(2.0 - std::ldexp(1.0, -manBits), maxExp);
  if (std::fabs(result) > maxValue)
    return std::copysign(HUGE_VAL, x);
  return result;
}

TEST(HalfPrecision, F16DecodesEveryCodeLikeFloat16) {
  for (uint32_t code = 0; code < 0x10000; ++code) {
    float expected = float(std::bit_cast<_Float16>(uint16_t(code)));
    float got = decode(kF16, code);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(got)) << code;
      continue;
    }
    ASSERT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(expected)) << code;
  }
}

TEST(HalfPrecision, F16EncodesLikeFloat16) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  for (uint32_t bits : sweepPatterns(kF16)) {
    float x = std::bit_cast<float>(bits);
    uint16_t got = ptx::cvtF16F32(x);
    if (std::isnan(x)) {
      ASSERT_EQ(got, 0x7FFFu) << "canonical NaN";
      continue;
    }
    uint16_t expected = std::bit_cast<uint16_t>(static_cast<_Float16>(x));
    ASSERT_EQ(got, expected) << std::hexfloat << x;
  }
}

TEST(HalfPrecision, F16KnownBoundaries) {
  EXPECT_EQ(ptx::cvtF16F32(65504.0f), 0x7BFFu);
  EXPECT_EQ(ptx::cvtF16F32(65519.996f), 0x7BFFu);
  EXPECT_EQ(ptx::cvtF16F32(65520.0f), 0x7C00u) << "the tie above the maximum goes to Inf";
  EXPECT_EQ(ptx::cvtF16F32(std::ldexp(1.0f, -24)), 0x0001u);
  EXPECT_EQ(ptx::cvtF16F32(std::ldexp(1.0f, -25)), 0x0000u) << "tie with zero";
  EXPECT_EQ(ptx::cvtF16F32(-std::ldexp(1.0f, -26)), 0x8000u);
  EXPECT_EQ(ptx::cvtF16F32(std::ldexp(1023.5f, -24)), 0x0400u) << "rounds into the normals";
}

TEST(HalfPrecision, Bf16EncodesLikeDoubleRounding) {
  for (uint32_t bits : sweepPatterns(kBF16)) {
    float x = std::bit_cast<float>(bits);
    uint16_t got = ptx::cvtBf16F32(x);
    if (std::isnan(x)) {
      ASSERT_EQ(got, 0x7FFFu);
      continue;
    }
    double expected = roundToFormat(x, 7, -126, 127, false);
    float decoded = decode(kBF16, got);
    ASSERT_EQ(double(decoded), expected) << std::hexfloat << x;
    ASSERT_EQ(std::signbit(decoded), std::signbit(x)) << std::hexfloat << x;
  }
}

TEST(HalfPrecision, Bf16DecodeIsTheTopHalfOfF32) {
  for (uint32_t code = 0; code < 0x10000; ++code) {
    float expected = std::bit_cast<float>(code << 16);
    float got = decode(kBF16, code);
    if (std::isnan(expected))
      EXPECT_TRUE(std::isnan(got)) << code;
    else
      ASSERT_EQ(std::bit_cast<uint32_t>(got), code << 16) << code;
  }
}

TEST(HalfPrecision, Tf32EncodesLikeDoubleRoundingTiesAway) {
  for (uint32_t bits : sweepPatterns(kTF32)) {
    float x = std::bit_cast<float>(bits);
    uint32_t got = ptx::cvtRnaTf32F32(x);
    ASSERT_EQ(got & 0x1FFFu, 0u) << "low 13 bits are zero";
    if (std::isnan(x)) {
      ASSERT_EQ(got, bits & ~0x1FFFu) << "NaN: truncated, as the hardware does";
      continue;
    }
    double expected = roundToFormat(x, 10, -126, 127, true);
    float value = std::bit_cast<float>(got);
    ASSERT_EQ(double(value), expected) << std::hexfloat << x;
    ASSERT_EQ(std::signbit(value), std::signbit(x)) << std::hexfloat << x;
  }
}

/// cvt.rn.f16.f32 by the references: _Float16, and the canonical NaN.
uint16_t f16Reference(float x) {
  return std::isnan(x) ? 0x7FFF : std::bit_cast<uint16_t>(static_cast<_Float16>(x));
}

/// cvt.rn.bf16.f32 by the references: rounding in double, the result's top
/// 16 bits as an f32 (bf16 values are exact f32s), and the canonical NaN.
uint16_t bf16Reference(float x) {
  if (std::isnan(x))
    return 0x7FFF;
  float rounded = float(roundToFormat(x, 7, -126, 127, false));
  return uint16_t(std::bit_cast<uint32_t>(std::copysign(rounded, x)) >> 16);
}

/// The x2 forms of cvt.rn from f32 (`cvt.rn.f16x2.f32 d, a, b`, what
/// lower-indexing uses for f32 fragment pairs): each half is the reference's
/// rounding of its own source, `a` in the upper half, over NaNs, infinities,
/// overflow, subnormals, ties and the sweep, each paired with the pattern
/// before it so that neither half leaks into the other.
TEST(HalfPrecision, X2ConversionsFromF32AreTwoScalarRoundings) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  std::vector<uint32_t> patterns = {
      0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFBFFFFFu, // NaNs (sign, payload)
      0x7F800000u, 0xFF800000u, 0x80000000u, 0u,          // infinities and zeros
      0x477FE000u, 0x477FEFFFu, 0x477FF000u, 0xC77FF000u, // 65504, below/at the f16 tie to Inf
      0x7F7FFFFFu, 0x7F7F8000u, 0xFF7F7FFFu,              // bf16's overflow to Inf and not
      0x33800000u, 0x33000000u, 0x33400000u, 0xB2800000u, // f16 subnormals: 2^-24, ties, 2^-26
      0x00000001u, 0x807FFFFFu, 0x00400000u,              // f32 subnormals
      0x3F801000u, 0x3F803000u, 0x3F808000u, 0x3F818000u, // f16 and bf16 ties to even
  };
  for (const FloatFormat *format : {&kF16, &kBF16}) {
    std::vector<uint32_t> sweep = sweepPatterns(*format);
    patterns.insert(patterns.end(), sweep.begin(), sweep.end());
  }
  for (size_t i = 0; i < patterns.size(); ++i) {
    float a = std::bit_cast<float>(patterns[i]);
    float b = std::bit_cast<float>(patterns[(i + patterns.size() - 1) % patterns.size()]);
    ASSERT_EQ(ptx::cvtF16x2F32(a, b), uint32_t(f16Reference(a)) << 16 | f16Reference(b))
        << std::hexfloat << a << ", " << b;
    ASSERT_EQ(ptx::cvtBf16x2F32(a, b), uint32_t(bf16Reference(a)) << 16 | bf16Reference(b))
        << std::hexfloat << a << ", " << b;
  }
}

} // namespace
} // namespace cutec::rt

namespace cutec::rt::ptx {
namespace {

// mul.rn.f16x2 against _Float16 multiplication (one rounding of the exact
// product) over every pair of a sample of codes in each lane.
TEST(HalfPrecision, MulF16x2RoundsEachLaneOnce) {
  std::vector<uint16_t> codes;
  for (uint32_t c = 0; c < 0x10000; c += 97)
    codes.push_back(uint16_t(c));
  codes.insert(codes.end(), {0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0x7BFF, 0x7C00, 0xFC00});
  for (uint16_t x : codes)
    for (uint16_t y : {uint16_t(0x3C00), uint16_t(0x0200), uint16_t(0x7400), uint16_t(0xC500),
                       uint16_t(0x1234), uint16_t(0x7BFF)}) {
      _Float16 want = std::bit_cast<_Float16>(x) * std::bit_cast<_Float16>(y);
      uint32_t got = mulRnF16x2(uint32_t(x) << 16 | y, uint32_t(y) << 16 | x);
      if (std::isnan(float(want)))
        continue; // NaN payloads are not compared here
      EXPECT_EQ(got >> 16, std::bit_cast<uint16_t>(want)) << std::hex << x << " * " << y;
      EXPECT_EQ(got & 0xFFFF, std::bit_cast<uint16_t>(want)) << std::hex << y << " * " << x;
    }
}

}  // namespace
}  // namespace cutec::rt::ptx
