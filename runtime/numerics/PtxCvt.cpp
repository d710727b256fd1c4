// PTX cvt forms as compositions of the generic codec: each form picks a
// format, modifiers and the packing of its x2 fields.
#include "runtime/numerics/PtxCvt.h"

#include <bit>

namespace cutec::rt::ptx {
namespace {

constexpr EncodeMode satfiniteRn(Relu relu) {
  return {Rounding::NearestEven, /*satfinite=*/true, relu == Relu::On};
}

/// cvt...x2 d, a, b: `a` in the upper field of `fieldBits`, `b` in the lower.
uint32_t packPair(const FloatFormat &format, unsigned fieldBits, float a, float b,
                  EncodeMode mode) {
  return encode(format, a, mode) << fieldBits | encode(format, b, mode);
}

/// Converts both `fieldBits`-wide fields of `a` from `from` to `to`, keeping
/// their positions; each result is 16 bits wide.
uint32_t widenPair(const FloatFormat &from, const FloatFormat &to, unsigned fieldBits, uint32_t a,
                   EncodeMode mode) {
  uint32_t fieldMask = (uint32_t(1) << fieldBits) - 1;
  uint32_t upper = encode(to, decode(from, (a >> fieldBits) & fieldMask), mode);
  uint32_t lower = encode(to, decode(from, a & fieldMask), mode);
  return upper << 16 | lower;
}

EncodeMode halfMode(Rounding rounding, Relu relu, Satfinite satfinite) {
  return {rounding, satfinite == Satfinite::On, relu == Relu::On};
}

/// cvt.rn.f16.f32 of a value that is not NaN, in integer arithmetic: what
/// encode() gives, without its generality (GEMM epilogues convert every
/// output this way).
uint16_t f16NearestEven(float a) {
  uint32_t x = std::bit_cast<uint32_t>(a);
  const auto sign = uint16_t(x >> 16 & 0x8000);
  x &= 0x7FFFFFFF;
  const uint32_t exponent = x >> 23;
  if (x >= 0x477FF000) // 65520 and up (the midpoint above 65504) round to infinity
    return sign | 0x7C00;
  if (exponent >= 113) { // normal in f16: drop 13 mantissa bits, ties to even
    x += 0xFFF + (x >> 13 & 1);
    return uint16_t(sign | (x - (112u << 23)) >> 13);
  }
  if (exponent < 102) // below 2^-25, half the smallest subnormal: rounds to 0
    return sign;
  // Subnormal: the 24-bit significand in units of 2^-24, ties to even (a
  // carry into bit 10 gives the smallest normal's code, as it should).
  const uint32_t significand = (x & 0x7FFFFF) | 0x800000, shift = 126 - exponent;
  const uint32_t quotient = significand >> shift, rest = significand & ((1u << shift) - 1),
                 half = 1u << (shift - 1);
  return uint16_t(sign | (quotient + (rest > half || (rest == half && (quotient & 1)))));
}

} // namespace

uint16_t cvtRnSatfiniteE4m3x2F32(float a, float b, Relu relu) {
  return uint16_t(packPair(kE4M3, 8, a, b, satfiniteRn(relu)));
}

uint16_t cvtRnSatfiniteE5m2x2F32(float a, float b, Relu relu) {
  return uint16_t(packPair(kE5M2, 8, a, b, satfiniteRn(relu)));
}

uint8_t cvtRnSatfiniteE2m1x2F32(float a, float b, Relu relu) {
  return uint8_t(packPair(kE2M1, 4, a, b, satfiniteRn(relu)));
}

uint16_t cvtRnSatfiniteE2m3x2F32(float a, float b, Relu relu) {
  return uint16_t(packPair(kE2M3, 8, a, b, satfiniteRn(relu)));
}

uint16_t cvtRnSatfiniteE3m2x2F32(float a, float b, Relu relu) {
  return uint16_t(packPair(kE3M2, 8, a, b, satfiniteRn(relu)));
}

uint16_t cvtUe8m0x2F32(Rounding rounding, Satfinite satfinite, float a, float b) {
  return uint16_t(packPair(kUE8M0, 8, a, b, {rounding, satfinite == Satfinite::On, false}));
}

uint16_t cvtF16F32(float a, Rounding rounding, Relu relu, Satfinite satfinite) {
  if (rounding == Rounding::NearestEven && relu == Relu::Off && satfinite == Satfinite::Off &&
      a == a)
    return f16NearestEven(a);
  return uint16_t(encode(kF16, a, halfMode(rounding, relu, satfinite)));
}

// The x2 forms are two scalar conversions (the ISA defines them so), `a` in
// the upper half; the scalar ones have the fast path GEMM epilogues use.
uint32_t cvtF16x2F32(float a, float b, Rounding rounding, Relu relu, Satfinite satfinite) {
  return uint32_t(cvtF16F32(a, rounding, relu, satfinite)) << 16 |
         cvtF16F32(b, rounding, relu, satfinite);
}

uint32_t mulRnF16x2(uint32_t a, uint32_t b) {
  auto lane = [](uint32_t x, uint32_t y) {
    return cvtF16F32(decode(kF16, uint16_t(x)) * decode(kF16, uint16_t(y)));
  };
  return uint32_t(lane(a >> 16, b >> 16)) << 16 | lane(a & 0xFFFF, b & 0xFFFF);
}

uint16_t cvtBf16F32(float a, Rounding rounding, Relu relu, Satfinite satfinite) {
  return uint16_t(encode(kBF16, a, halfMode(rounding, relu, satfinite)));
}

uint32_t cvtBf16x2F32(float a, float b, Rounding rounding, Relu relu, Satfinite satfinite) {
  return uint32_t(cvtBf16F32(a, rounding, relu, satfinite)) << 16 |
         cvtBf16F32(b, rounding, relu, satfinite);
}

uint32_t cvtRnaTf32F32(float a, Satfinite satfinite) {
  uint32_t bits = std::bit_cast<uint32_t>(a);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {
    // NaN, as the H100 does it (PtxCvt.h): the low 13 bits are cut off and
    // .satfinite takes one ulp off a result whose exponent is all ones.
    uint32_t truncated = bits & ~0x1FFFu;
    return satfinite == Satfinite::On ? truncated - 0x2000u : truncated;
  }
  // The tf32 code is the top 19 bits of the f32 register.
  return encode(kTF32, a, {Rounding::NearestAway, satfinite == Satfinite::On, false}) << 13;
}

uint32_t cvtRnF16x2E4m3x2(uint16_t a, Relu relu) {
  return widenPair(kE4M3, kF16, 8, a, halfMode(Rounding::NearestEven, relu, Satfinite::Off));
}

uint32_t cvtRnF16x2E5m2x2(uint16_t a, Relu relu) {
  return widenPair(kE5M2, kF16, 8, a, halfMode(Rounding::NearestEven, relu, Satfinite::Off));
}

uint32_t cvtRnF16x2E2m1x2(uint8_t a, Relu relu) {
  return widenPair(kE2M1, kF16, 4, a, halfMode(Rounding::NearestEven, relu, Satfinite::Off));
}

uint32_t cvtRnF16x2E2m3x2(uint16_t a, Relu relu) {
  return widenPair(kE2M3, kF16, 8, a, halfMode(Rounding::NearestEven, relu, Satfinite::Off));
}

uint32_t cvtRnF16x2E3m2x2(uint16_t a, Relu relu) {
  return widenPair(kE3M2, kF16, 8, a, halfMode(Rounding::NearestEven, relu, Satfinite::Off));
}

uint32_t cvtRnBf16x2Ue8m0x2(uint16_t a) {
  return widenPair(kUE8M0, kBF16, 8, a, halfMode(Rounding::NearestEven, Relu::Off, Satfinite::Off));
}

} // namespace cutec::rt::ptx
