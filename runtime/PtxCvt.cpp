// PTX cvt forms as compositions of the generic codec: each form picks a
// format, modifiers and the packing of its x2 fields.
#include "runtime/PtxCvt.h"

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
  return uint16_t(encode(kF16, a, halfMode(rounding, relu, satfinite)));
}

uint32_t cvtF16x2F32(float a, float b, Rounding rounding, Relu relu, Satfinite satfinite) {
  return packPair(kF16, 16, a, b, halfMode(rounding, relu, satfinite));
}

uint16_t cvtBf16F32(float a, Rounding rounding, Relu relu, Satfinite satfinite) {
  return uint16_t(encode(kBF16, a, halfMode(rounding, relu, satfinite)));
}

uint32_t cvtBf16x2F32(float a, float b, Rounding rounding, Relu relu, Satfinite satfinite) {
  return packPair(kBF16, 16, a, b, halfMode(rounding, relu, satfinite));
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
