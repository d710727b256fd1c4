// Tests of the PTX cvt forms in runtime/numerics/PtxCvt.h: operand order and packing of
// the x2 forms, .satfinite on NaN and Inf for each destination, .relu, and the
// up-conversions over every packed input.
#include "runtime/numerics/PtxCvt.h"
#include "runtime/numerics/Fp4Packing.h"

#include "MinifloatReference.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

namespace cutec::rt::ptx {
namespace {

float inf() { return std::numeric_limits<float>::infinity(); }
float nan() { return std::numeric_limits<float>::quiet_NaN(); }
float negativeNaN() { return std::bit_cast<float>(0xFFC00000u); }

uint16_t f16Bits(double exactValue) {
  return std::bit_cast<uint16_t>(static_cast<_Float16>(exactValue));
}

TEST(PtxCvt, OperandAGoesToTheUpperField) {
  // e4m3: 1.0 = 0x38, -2.0 = 0xC0.
  EXPECT_EQ(cvtRnSatfiniteE4m3x2F32(1.0f, -2.0f), 0x38C0u);
  // e5m2: 1.0 = 0x3C, -2.0 = 0xC0.
  EXPECT_EQ(cvtRnSatfiniteE5m2x2F32(1.0f, -2.0f), 0x3CC0u);
  // e2m1: 6.0 = 0x7, 0.5 = 0x1, in one byte.
  EXPECT_EQ(cvtRnSatfiniteE2m1x2F32(6.0f, 0.5f), 0x71u);
  // fp6 values sit in the low 6 bits of each byte: e2m3 1.0 = 0x08, -7.5 = 0x3F;
  // e3m2 1.0 = 0x0C, 28 = 0x1F.
  EXPECT_EQ(cvtRnSatfiniteE2m3x2F32(1.0f, -7.5f), 0x083Fu);
  EXPECT_EQ(cvtRnSatfiniteE3m2x2F32(1.0f, 28.0f), 0x0C1Fu);
  // ue8m0: 1.0 = 0x7F; 3.0 rounds up to 4.0 = 0x81.
  EXPECT_EQ(cvtUe8m0x2F32(Rounding::TowardPositive, Satfinite::On, 1.0f, 3.0f), 0x7F81u);
  EXPECT_EQ(cvtUe8m0x2F32(Rounding::TowardZero, Satfinite::On, 1.0f, 3.0f), 0x7F80u);
  EXPECT_EQ(cvtF16x2F32(1.0f, -2.0f), 0x3C00C000u);
  EXPECT_EQ(cvtBf16x2F32(1.0f, -2.0f), 0x3F80C000u);
}

TEST(PtxCvt, NegativeValuesNeverLeakIntoTheOtherField) {
  EXPECT_EQ(cvtRnSatfiniteE2m1x2F32(-0.0f, 0.0f), 0x80u);
  EXPECT_EQ(cvtRnSatfiniteE2m1x2F32(0.0f, -0.0f), 0x08u);
  EXPECT_EQ(cvtRnSatfiniteE2m3x2F32(-0.0f, -0.0f), 0x2020u) << "2 MSBs of each byte stay 0";
  EXPECT_EQ(cvtRnSatfiniteE3m2x2F32(-28.0f, -28.0f), 0x3F3Fu);
}

TEST(PtxCvt, SatfiniteNaNIsNaNWhereTheFormatHasOneElsePositiveMax) {
  for (float x : {nan(), negativeNaN()}) {
    EXPECT_EQ(cvtRnSatfiniteE4m3x2F32(x, x), 0x7F7Fu);
    EXPECT_EQ(cvtRnSatfiniteE5m2x2F32(x, x), 0x7F7Fu);
    EXPECT_EQ(cvtUe8m0x2F32(Rounding::TowardPositive, Satfinite::On, x, x), 0xFFFFu);
    EXPECT_EQ(cvtUe8m0x2F32(Rounding::TowardZero, Satfinite::On, x, x), 0xFFFFu);
    EXPECT_EQ(cvtF16F32(x, Rounding::NearestEven, Relu::Off, Satfinite::On), 0x7FFFu);
    EXPECT_EQ(cvtBf16F32(x, Rounding::NearestEven, Relu::Off, Satfinite::On), 0x7FFFu);
    // e2m1, e2m3, e3m2 have no NaN: positive MAX_NORM.
    EXPECT_EQ(cvtRnSatfiniteE2m1x2F32(x, x), 0x77u);
    EXPECT_EQ(cvtRnSatfiniteE2m3x2F32(x, x), 0x1F1Fu);
    EXPECT_EQ(cvtRnSatfiniteE3m2x2F32(x, x), 0x1F1Fu);
  }
}

TEST(PtxCvt, SatfiniteInfIsSignPreservedMax) {
  EXPECT_EQ(cvtRnSatfiniteE4m3x2F32(inf(), -inf()), 0x7EFEu);
  EXPECT_EQ(cvtRnSatfiniteE5m2x2F32(inf(), -inf()), 0x7BFBu);
  EXPECT_EQ(cvtRnSatfiniteE2m1x2F32(inf(), -inf()), 0x7Fu);
  EXPECT_EQ(cvtRnSatfiniteE2m3x2F32(inf(), -inf()), 0x1F3Fu);
  EXPECT_EQ(cvtRnSatfiniteE3m2x2F32(inf(), -inf()), 0x1F3Fu);
  EXPECT_EQ(cvtUe8m0x2F32(Rounding::TowardZero, Satfinite::On, inf(), -inf()), 0xFEFEu)
      << "ue8m0 has no sign: positive MAX_NORM";
  EXPECT_EQ(cvtUe8m0x2F32(Rounding::TowardZero, Satfinite::Off, inf(), 1.0f), 0xFF7Fu);
  EXPECT_EQ(cvtF16F32(inf(), Rounding::NearestEven, Relu::Off, Satfinite::On), 0x7BFFu);
  EXPECT_EQ(cvtF16F32(-inf(), Rounding::NearestEven, Relu::Off, Satfinite::On), 0xFBFFu);
  EXPECT_EQ(cvtF16F32(1e6f, Rounding::NearestEven, Relu::Off, Satfinite::On), 0x7BFFu);
  EXPECT_EQ(cvtF16F32(1e6f), 0x7C00u) << "without satfinite: Inf";
  EXPECT_EQ(cvtF16F32(1e6f, Rounding::TowardZero), 0x7BFFu) << ".rz stops at the maximum";
  EXPECT_EQ(cvtBf16F32(inf(), Rounding::NearestEven, Relu::Off, Satfinite::On), 0x7F7Fu);
  EXPECT_EQ(cvtRnaTf32F32(inf(), Satfinite::On), 0x7F7FE000u);
  EXPECT_EQ(cvtRnaTf32F32(inf()), 0x7F800000u);
  EXPECT_EQ(cvtRnaTf32F32(std::numeric_limits<float>::max()), 0x7F800000u)
      << "rna rounds FLT_MAX up, past the tf32 maximum";
  EXPECT_EQ(cvtRnaTf32F32(std::numeric_limits<float>::max(), Satfinite::On), 0x7F7FE000u);
}

TEST(PtxCvt, ReluOnDownConversions) {
  EXPECT_EQ(cvtRnSatfiniteE4m3x2F32(-1.0f, 2.0f, Relu::On), 0x0040u);
  EXPECT_EQ(cvtRnSatfiniteE5m2x2F32(-0.0f, -inf(), Relu::On), 0x0000u);
  EXPECT_EQ(cvtRnSatfiniteE4m3x2F32(negativeNaN(), 1.0f, Relu::On), 0x7F38u);
  EXPECT_EQ(cvtRnSatfiniteE2m1x2F32(-1.0f, 3.0f, Relu::On), 0x05u);
  EXPECT_EQ(cvtRnSatfiniteE2m3x2F32(-1.0f, 1.0f, Relu::On), 0x0008u);
  EXPECT_EQ(cvtF16F32(-5.0f, Rounding::NearestEven, Relu::On), 0x0000u);
  EXPECT_EQ(cvtF16F32(negativeNaN(), Rounding::NearestEven, Relu::On), 0x7FFFu);
  EXPECT_EQ(cvtBf16x2F32(-1.0f, 1.0f, Rounding::NearestEven, Relu::On), 0x00003F80u);
}

TEST(PtxCvt, Tf32RoundsToNearestTiesAway) {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(cvtRnaTf32F32(1.0f + std::ldexp(1.0f, -11)), 0x3F802000u);
  EXPECT_EQ(cvtRnaTf32F32(-(1.0f + std::ldexp(1.0f, -11))), 0xBF802000u);
  EXPECT_EQ(cvtRnaTf32F32(std::nextafter(1.0f + std::ldexp(1.0f, -11), 0.0f)), 0x3F800000u);
  EXPECT_EQ(cvtRnaTf32F32(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3F804000u) << "away, not even";
}

TEST(PtxCvt, Tf32NaNInputsBehaveAsOnTheH100) {
  // Input, cvt.rna.tf32.f32, cvt.rna.satfinite.tf32.f32, as read on an H100.
  const uint32_t measured[][3] = {
      {0x7f800001, 0x7f800000, 0x7f7fe000}, {0xff800fff, 0xff800000, 0xff7fe000},
      {0x7f801000, 0x7f800000, 0x7f7fe000}, {0x7f802000, 0x7f802000, 0x7f800000},
      {0xffbfefff, 0xffbfe000, 0xffbfc000}, {0x7fbff000, 0x7fbfe000, 0x7fbfc000},
      {0x7fc00000, 0x7fc00000, 0x7fbfe000}, {0xffc01000, 0xffc00000, 0xffbfe000},
      {0x7ffff000, 0x7fffe000, 0x7fffc000}, {0xfffffffe, 0xffffe000, 0xffffc000}};
  for (const auto &row : measured) {
    float x = std::bit_cast<float>(row[0]);
    EXPECT_EQ(cvtRnaTf32F32(x), row[1]) << std::hex << row[0];
    EXPECT_EQ(cvtRnaTf32F32(x, Satfinite::On), row[2]) << std::hex << row[0];
  }
}

TEST(PtxCvt, F16x2FromE4m3x2AndE5m2x2CoverEveryInput) {
  for (const test::RefFormat *f : {&test::kRefE4M3, &test::kRefE5M2}) {
    for (uint32_t a = 0; a < 0x10000; ++a) {
      uint32_t got =
          f == &test::kRefE4M3 ? cvtRnF16x2E4m3x2(uint16_t(a)) : cvtRnF16x2E5m2x2(uint16_t(a));
      for (unsigned half : {0u, 1u}) {
        double v = test::refValue(*f, (a >> (8 * half)) & 0xFF);
        uint32_t expected = std::isnan(v) ? 0x7FFFu : f16Bits(v);
        ASSERT_EQ((got >> (16 * half)) & 0xFFFF, expected) << f->name << " input " << a;
      }
    }
  }
}

TEST(PtxCvt, F16x2FromE2m1x2CoversEveryByte) {
  for (uint32_t a = 0; a < 0x100; ++a) {
    uint32_t got = cvtRnF16x2E2m1x2(uint8_t(a));
    EXPECT_EQ(got >> 16, f16Bits(test::refValue(test::kRefE2M1, a >> 4))) << a;
    EXPECT_EQ(got & 0xFFFF, f16Bits(test::refValue(test::kRefE2M1, a & 0xF))) << a;
  }
}

TEST(PtxCvt, F16x2FromFp6x2CoversEveryInputAndIgnoresThePaddingBits) {
  for (const test::RefFormat *f : {&test::kRefE2M3, &test::kRefE3M2}) {
    for (uint32_t a = 0; a < 0x10000; ++a) {
      uint32_t got =
          f == &test::kRefE2M3 ? cvtRnF16x2E2m3x2(uint16_t(a)) : cvtRnF16x2E3m2x2(uint16_t(a));
      EXPECT_EQ(got >> 16, f16Bits(test::refValue(*f, (a >> 8) & 0x3F))) << f->name << a;
      EXPECT_EQ(got & 0xFFFF, f16Bits(test::refValue(*f, a & 0x3F))) << f->name << a;
    }
  }
}

TEST(PtxCvt, ReluOnUpConversions) {
  // e4m3 0x38 = 1.0 (upper), 0xB8 = -1.0 (lower).
  EXPECT_EQ(cvtRnF16x2E4m3x2(0x38B8, Relu::On), 0x3C000000u);
  EXPECT_EQ(cvtRnF16x2E4m3x2(0xFF80, Relu::On), 0x7FFF0000u) << "NaN stays NaN, -0 becomes +0";
  EXPECT_EQ(cvtRnF16x2E2m1x2(0xF7, Relu::On), 0x00004600u) << "-6 -> 0, 6 -> 0x4600";
  EXPECT_EQ(cvtRnF16x2E5m2x2(0xFC7C, Relu::On), 0x00007C00u) << "-Inf -> 0, Inf kept";
}

TEST(PtxCvt, Bf16x2FromUe8m0x2CoversEveryInput) {
  for (uint32_t a = 0; a < 0x10000; ++a) {
    uint32_t got = cvtRnBf16x2Ue8m0x2(uint16_t(a));
    for (unsigned half : {0u, 1u}) {
      uint32_t code = (a >> (8 * half)) & 0xFF;
      // A power of two is exact in bf16: the top half of its f32 pattern.
      uint32_t expected =
          code == 0xFF ? 0x7FFFu : std::bit_cast<uint32_t>(std::ldexp(1.0f, int(code) - 127)) >> 16;
      ASSERT_EQ((got >> (16 * half)) & 0xFFFF, expected) << a;
    }
  }
  EXPECT_EQ(cvtRnBf16x2Ue8m0x2(0x7F00), 0x3F800040u) << "1.0 and 2^-127";
}

TEST(Fp4Packing, ElementZeroIsTheLowNibble) {
  EXPECT_EQ(unpackFp4(0x71)[0], 0x1u);
  EXPECT_EQ(unpackFp4(0x71)[1], 0x7u);
  EXPECT_EQ(packFp4(0x1, 0x7), 0x71u);
  for (uint32_t byte = 0; byte < 0x100; ++byte)
    EXPECT_EQ(packFp4(unpackFp4(uint8_t(byte))[0], unpackFp4(uint8_t(byte))[1]), byte);
}

TEST(Fp4Packing, CvtOperandsAreInReverseMemoryOrder) {
  // Elements x0 = 0.5 (code 1), x1 = 6 (code 7): memory byte 0x71.
  EXPECT_EQ(cvtRnSatfiniteE2m1x2F32(6.0f, 0.5f), packFp4(0x1, 0x7));
  // Widening that byte puts element 0 in the low half, as in an f16 array.
  EXPECT_EQ(cvtRnF16x2E2m1x2(packFp4(0x1, 0x7)), 0x46003800u);
}

} // namespace
} // namespace cutec::rt::ptx
