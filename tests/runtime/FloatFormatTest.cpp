// Tests of the generic codec in runtime/numerics/FloatFormat.h over every code point of
// the 4-, 6- and 8-bit formats, against the independent reference in
// MinifloatReference.h: decode, round trips, ties and rounding directions,
// subnormals, signed zeros, saturation and overflow.
#include "runtime/numerics/FloatFormat.h"

#include "MinifloatReference.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

namespace cutec::rt {
namespace {

using test::kAllRefFormats;
using test::RefFormat;
using test::refValue;

constexpr EncodeMode kRn{Rounding::NearestEven, false, false};
constexpr EncodeMode kRnSat{Rounding::NearestEven, true, false};
constexpr EncodeMode kRna{Rounding::NearestAway, false, false};
constexpr EncodeMode kRz{Rounding::TowardZero, false, false};
constexpr EncodeMode kRp{Rounding::TowardPositive, false, false};

float inf() { return std::numeric_limits<float>::infinity(); }
float nan() { return std::numeric_limits<float>::quiet_NaN(); }

/// The formats whose codes are ordered sign-magnitude with round-to-nearest
/// defined (ue8m0 has no mantissa, so "ties to even" does not apply).
const RefFormat *const kRoundingFormats[] = {&test::kRefE2M1, &test::kRefE3M2, &test::kRefE2M3,
                                             &test::kRefE4M3, &test::kRefE5M2, &test::kRefUE4M3};

uint32_t signBit(const RefFormat &f) { return f.hasSign ? 1u << (f.bits - 1) : 0; }

TEST(FloatFormat, DecodesEveryCodePointLikeTheReference) {
  for (const RefFormat *f : kAllRefFormats) {
    for (uint32_t code = 0; code < (1u << f->bits); ++code) {
      double expected = refValue(*f, code);
      float got = decode(f->format, code);
      SCOPED_TRACE(std::string(f->name) + " code " + std::to_string(code));
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(got));
        EXPECT_TRUE(isNaNCode(f->format, code));
        continue;
      }
      EXPECT_FALSE(isNaNCode(f->format, code));
      EXPECT_EQ(double(got), expected);
      EXPECT_EQ(std::signbit(got), std::signbit(expected));
    }
  }
}

TEST(FloatFormat, E2M1ValuesAreTheEightKnownMagnitudes) {
  const float magnitudes[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (uint32_t code = 0; code < 8; ++code) {
    EXPECT_EQ(decode(kE2M1, code), magnitudes[code]);
    EXPECT_EQ(decode(kE2M1, code | 8), -magnitudes[code]);
  }
}

TEST(FloatFormat, ExtremesOfEachFormat) {
  EXPECT_EQ(decode(kE4M3, maxFiniteCode(kE4M3)), 448.0f);
  EXPECT_EQ(maxFiniteCode(kE4M3), 0x7Eu);
  EXPECT_EQ(decode(kE4M3, 0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(decode(kE4M3, 0x08), std::ldexp(1.0f, -6));
  EXPECT_EQ(maxFiniteCode(kE5M2), 0x7Bu);
  EXPECT_EQ(decode(kE5M2, 0x7B), 57344.0f);
  EXPECT_EQ(decode(kE5M2, 0x01), std::ldexp(1.0f, -16));
  EXPECT_EQ(decode(kE5M2, 0x7C), inf());
  EXPECT_EQ(decode(kE5M2, 0xFC), -inf());
  EXPECT_EQ(maxFiniteCode(kE3M2), 0x1Fu);
  EXPECT_EQ(decode(kE3M2, 0x1F), 28.0f);
  EXPECT_EQ(decode(kE3M2, 0x01), 0.0625f);
  EXPECT_EQ(maxFiniteCode(kE2M3), 0x1Fu);
  EXPECT_EQ(decode(kE2M3, 0x1F), 7.5f);
  EXPECT_EQ(decode(kE2M3, 0x01), 0.125f);
  EXPECT_EQ(maxFiniteCode(kE2M1), 0x7u);
  EXPECT_EQ(maxFiniteCode(kUE4M3), 0x7Eu);
  EXPECT_EQ(decode(kUE4M3, 0x7E), 448.0f);
  EXPECT_EQ(decode(kUE8M0, 0x7F), 1.0f);
  EXPECT_EQ(decode(kUE8M0, 0x00), std::ldexp(1.0f, -127));
  EXPECT_EQ(std::bit_cast<uint32_t>(decode(kUE8M0, 0x00)), 0x00400000u);
  EXPECT_EQ(decode(kUE8M0, 0xFE), std::ldexp(1.0f, 127));
  EXPECT_EQ(maxFiniteCode(kUE8M0), 0xFEu);
}

TEST(FloatFormat, CanonicalNaNCodes) {
  EXPECT_EQ(canonicalNaNCode(kE4M3), 0x7Fu);
  EXPECT_EQ(canonicalNaNCode(kE5M2), 0x7Fu);
  EXPECT_EQ(canonicalNaNCode(kUE4M3), 0x7Fu);
  EXPECT_EQ(canonicalNaNCode(kUE8M0), 0xFFu);
  EXPECT_EQ(canonicalNaNCode(kF16), 0x7FFFu);
  EXPECT_EQ(canonicalNaNCode(kBF16), 0x7FFFu);
  EXPECT_EQ(std::bit_cast<uint32_t>(decode(kE4M3, 0xFF)), 0x7FFFFFFFu);
}

TEST(FloatFormat, UE4M3IgnoresBit7OfTheByte) {
  for (uint32_t code = 0; code < 0x80; ++code) {
    float low = decode(kUE4M3, code), high = decode(kUE4M3, code | 0x80);
    EXPECT_EQ(std::bit_cast<uint32_t>(low), std::bit_cast<uint32_t>(high)) << code;
  }
}

TEST(FloatFormat, RoundTripsEveryCodePoint) {
  for (const RefFormat *f : kAllRefFormats) {
    for (uint32_t code = 0; code < (1u << f->bits); ++code) {
      float value = decode(f->format, code);
      uint32_t expected = isNaNCode(f->format, code) ? canonicalNaNCode(f->format) : code;
      SCOPED_TRACE(std::string(f->name) + " code " + std::to_string(code));
      EXPECT_EQ(encode(f->format, value, kRn), expected);
      uint32_t saturated = (code & signBit(*f)) | maxFiniteCode(f->format);
      EXPECT_EQ(encode(f->format, value, kRnSat), std::isinf(value) ? saturated : expected);
      if (f->specials == RefFormat::PowerOfTwo && code != 0xFF) {
        EXPECT_EQ(encode(f->format, value, kRz), code);
        EXPECT_EQ(encode(f->format, value, kRp), code);
      }
    }
  }
}

TEST(FloatFormat, TiesAtEveryMidpointGoToTheEvenCode) {
  for (const RefFormat *f : kRoundingFormats) {
    std::vector<test::RefPoint> points = test::refNonNegativePoints(*f);
    for (size_t i = 0; i + 1 < points.size(); ++i) {
      const test::RefPoint &lo = points[i], &hi = points[i + 1];
      float mid = float((lo.value + hi.value) / 2); // exact: narrow formats
      ASSERT_EQ(double(mid), (lo.value + hi.value) / 2);
      uint32_t even = lo.code % 2 == 0 ? lo.code : hi.code;
      SCOPED_TRACE(std::string(f->name) + " between " + std::to_string(lo.value) + " and " +
                   std::to_string(hi.value));
      EXPECT_EQ(encode(f->format, mid, kRn), even);
      EXPECT_EQ(encode(f->format, mid, kRna), hi.code);
      EXPECT_EQ(encode(f->format, std::nextafter(mid, inf()), kRn), hi.code);
      EXPECT_EQ(encode(f->format, std::nextafter(mid, 0.0f), kRn), lo.code);
      EXPECT_EQ(encode(f->format, std::nextafter(mid, 0.0f), kRna), lo.code);
      EXPECT_EQ(encode(f->format, mid, kRz), lo.code);
      EXPECT_EQ(encode(f->format, mid, kRp), hi.code);
      EXPECT_EQ(encode(f->format, std::nextafter(float(lo.value), inf()), kRp), hi.code);
      EXPECT_EQ(encode(f->format, std::nextafter(float(hi.value), 0.0f), kRz), lo.code);
      if (f->hasSign) {
        EXPECT_EQ(encode(f->format, -mid, kRn), even | signBit(*f));
        EXPECT_EQ(encode(f->format, -mid, kRna), hi.code | signBit(*f));
        // Toward +infinity is toward zero for negative values.
        EXPECT_EQ(encode(f->format, -mid, kRp), lo.code | signBit(*f));
      }
    }
  }
}

TEST(FloatFormat, SignedZerosAndUnderflowKeepTheSign) {
  for (const RefFormat *f : kRoundingFormats) {
    SCOPED_TRACE(f->name);
    EXPECT_EQ(encode(f->format, 0.0f, kRnSat), 0u);
    float tiny = std::numeric_limits<float>::denorm_min();
    EXPECT_EQ(encode(f->format, tiny, kRnSat), 0u);
    EXPECT_EQ(encode(f->format, tiny, kRp), 1u) << "rounds up to the smallest subnormal";
    if (f->hasSign) {
      EXPECT_EQ(encode(f->format, -0.0f, kRnSat), signBit(*f));
      EXPECT_EQ(encode(f->format, -tiny, kRnSat), signBit(*f));
      EXPECT_EQ(encode(f->format, -1e-30f, kRz), signBit(*f));
    } else {
      EXPECT_EQ(encode(f->format, -0.0f, kRnSat), 0u) << "unsigned: the magnitude";
    }
  }
}

TEST(FloatFormat, SubnormalRangeAndTheStepToNormals) {
  // e4m3: subnormals are k * 2^-9; the smallest normal is 2^-6 = 8 * 2^-9.
  for (uint32_t k = 1; k < 8; ++k)
    EXPECT_EQ(encode(kE4M3, std::ldexp(float(k), -9), kRnSat), k);
  EXPECT_EQ(encode(kE4M3, std::ldexp(7.5f, -9), kRnSat), 0x08u) << "rounds up into the normals";
  EXPECT_EQ(encode(kE4M3, std::ldexp(0.5f, -9), kRnSat), 0x00u) << "tie with 0 goes to 0";
  EXPECT_EQ(encode(kE4M3, std::ldexp(1.5f, -9), kRnSat), 0x02u) << "tie between 1 and 2 -> 2";
  // f32 subnormal inputs are honoured (no flush to zero) where they matter.
  EXPECT_EQ(encode(kBF16, std::ldexp(1.0f, -133), kRn), 0x0001u);
  EXPECT_EQ(encode(kBF16, std::ldexp(1.0f, -134), kRn), 0x0000u) << "tie with 0";
  EXPECT_EQ(encode(kBF16, std::ldexp(3.0f, -134), kRn), 0x0002u) << "tie 1|2 -> 2";
}

TEST(FloatFormat, SatfiniteSaturatesAboveTheMaximum) {
  for (const RefFormat *f : kRoundingFormats) {
    std::vector<test::RefPoint> points = test::refNonNegativePoints(*f);
    float maxValue = float(points.back().value);
    uint32_t maxCode = points.back().code;
    SCOPED_TRACE(f->name);
    for (float x : {std::nextafter(maxValue, inf()), maxValue * 1.1f, maxValue * 2, 1e30f,
                    std::numeric_limits<float>::max(), inf()}) {
      EXPECT_EQ(encode(f->format, x, kRnSat), maxCode) << x;
      if (f->hasSign) {
        EXPECT_EQ(encode(f->format, -x, kRnSat), maxCode | signBit(*f)) << -x;
      }
    }
  }
}

TEST(FloatFormat, OverflowWithoutSatfiniteFollowsTheFormat) {
  // e5m2 is IEEE-like: the midpoint above the maximum ties to Inf (57344 has
  // an odd mantissa), just below it rounds to the maximum.
  EXPECT_EQ(encode(kE5M2, 61440.0f, kRn), 0x7Cu);
  EXPECT_EQ(encode(kE5M2, std::nextafter(61440.0f, 0.0f), kRn), 0x7Bu);
  EXPECT_EQ(encode(kE5M2, -1e9f, kRn), 0xFCu);
  EXPECT_EQ(encode(kE5M2, 1e9f, kRz), 0x7Bu) << "toward zero stops at the maximum";
  EXPECT_EQ(encode(kE5M2, -1e9f, kRp), 0xFBu);
  EXPECT_EQ(encode(kE5M2, 1e9f, kRp), 0x7Cu);
  EXPECT_EQ(encode(kE5M2, inf(), kRn), 0x7Cu);
  EXPECT_EQ(encode(kE5M2, -inf(), kRz), 0xFCu) << "Inf is exact, not an overflow";
  // e4m3 has no Inf: 464 ties to 448 (even), anything above overflows to NaN.
  EXPECT_EQ(encode(kE4M3, 464.0f, kRn), 0x7Eu);
  EXPECT_EQ(encode(kE4M3, std::nextafter(464.0f, inf()), kRn), 0x7Fu);
  EXPECT_EQ(encode(kE4M3, -inf(), kRn), 0x7Fu);
  EXPECT_EQ(encode(kE4M3, std::nextafter(464.0f, inf()), kRnSat), 0x7Eu);
  // Formats without NaN have nothing but the maximum.
  EXPECT_EQ(encode(kE2M1, 100.0f, kRn), 0x7u);
  EXPECT_EQ(encode(kE2M1, -100.0f, kRn), 0xFu);
}

TEST(FloatFormat, NaNInputs) {
  uint32_t negativeNaN = 0xFFC00001u;
  for (float x : {nan(), std::bit_cast<float>(negativeNaN), std::bit_cast<float>(0x7F800001u)}) {
    EXPECT_EQ(encode(kE4M3, x, kRnSat), 0x7Fu);
    EXPECT_EQ(encode(kE5M2, x, kRnSat), 0x7Fu);
    EXPECT_EQ(encode(kF16, x, kRn), 0x7FFFu);
    EXPECT_EQ(encode(kBF16, x, kRn), 0x7FFFu);
    EXPECT_EQ(encode(kUE8M0, x, kRp), 0xFFu);
    // Formats without NaN: positive maximum, whatever the NaN's sign.
    EXPECT_EQ(encode(kE2M1, x, kRnSat), 0x7u);
    EXPECT_EQ(encode(kE2M3, x, kRnSat), 0x1Fu);
    EXPECT_EQ(encode(kE3M2, x, kRnSat), 0x1Fu);
  }
}

TEST(FloatFormat, ReluClampsNegativeResultsToPositiveZero) {
  EncodeMode relu{Rounding::NearestEven, true, true};
  EXPECT_EQ(encode(kE4M3, -3.0f, relu), 0x00u);
  EXPECT_EQ(encode(kE4M3, -0.0f, relu), 0x00u);
  EXPECT_EQ(encode(kE4M3, -1e-30f, relu), 0x00u);
  EXPECT_EQ(encode(kE4M3, -inf(), relu), 0x00u);
  EXPECT_EQ(encode(kE4M3, 3.0f, relu), 0x44u);
  EXPECT_EQ(encode(kE4M3, std::bit_cast<float>(0xFFC00000u), relu), 0x7Fu);
  EXPECT_EQ(encode(kE2M1, -nan(), relu), 0x7u) << "NaN is +max first, and +max is kept";
}

TEST(FloatFormat, UE8M0RoundsMagnitudesToPowersOfTwo) {
  EncodeMode rz{Rounding::TowardZero, false, false}, rp{Rounding::TowardPositive, false, false};
  EncodeMode rzSat{Rounding::TowardZero, true, false}, rpSat{Rounding::TowardPositive, true, false};
  for (uint32_t code = 0; code < 0xFE; ++code) {
    float v = std::ldexp(1.0f, int(code) - 127);
    float between = v * 1.5f;
    EXPECT_EQ(encode(kUE8M0, between, rz), code);
    EXPECT_EQ(encode(kUE8M0, between, rp), code + 1);
    EXPECT_EQ(encode(kUE8M0, -between, rp), code + 1) << "unsigned: the magnitude";
    EXPECT_EQ(encode(kUE8M0, std::nextafter(v, inf()), rp), code + 1);
  }
  // At and below 2^-127 there is nothing smaller than code 0.
  EXPECT_EQ(encode(kUE8M0, 0.0f, rz), 0x00u);
  EXPECT_EQ(encode(kUE8M0, 0.0f, rp), 0x00u);
  EXPECT_EQ(encode(kUE8M0, std::numeric_limits<float>::denorm_min(), rz), 0x00u);
  EXPECT_EQ(encode(kUE8M0, std::numeric_limits<float>::denorm_min(), rp), 0x00u);
  EXPECT_EQ(encode(kUE8M0, std::bit_cast<float>(0x00400001u), rp), 0x01u);
  // Above 2^127.
  float big = std::numeric_limits<float>::max();
  EXPECT_EQ(encode(kUE8M0, big, rz), 0xFEu);
  EXPECT_EQ(encode(kUE8M0, big, rp), 0xFFu) << "no satfinite: overflow is NaN";
  EXPECT_EQ(encode(kUE8M0, big, rpSat), 0xFEu);
  EXPECT_EQ(encode(kUE8M0, inf(), rz), 0xFFu);
  EXPECT_EQ(encode(kUE8M0, inf(), rzSat), 0xFEu);
  EXPECT_EQ(encode(kUE8M0, -inf(), rpSat), 0xFEu) << "positive MAX_NORM";
}

TEST(FloatFormat, RoundToNearestSweepMatchesTheReference) {
  // About a million f32 patterns over the whole range, with scrambled low
  // bits so that guard and sticky bits vary.
  for (const RefFormat *f : kRoundingFormats) {
    std::vector<test::RefPoint> points = test::refNonNegativePoints(*f);
    size_t mismatches = 0;
    for (uint32_t k = 0; k < (1u << 20); ++k) {
      uint32_t bits = k << 12 | ((k * 2654435761u) >> 20);
      float x = std::bit_cast<float>(bits);
      if (std::isnan(x) || std::isinf(x))
        continue;
      uint32_t expected = test::refEncodeRnSatfinite(*f, points, x);
      if (encode(f->format, x, kRnSat) != expected && ++mismatches < 5)
        ADD_FAILURE() << f->name << " " << std::hexfloat << x;
    }
    EXPECT_EQ(mismatches, 0u) << f->name;
  }
}

} // namespace
} // namespace cutec::rt
