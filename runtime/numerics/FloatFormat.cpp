// The exact minifloat codec behind every format in FloatFormat.h. Everything is
// integer arithmetic on bit patterns, so results do not depend on the host's
// floating-point environment (rounding mode, flush-to-zero).
#include "runtime/numerics/FloatFormat.h"

#include <algorithm>
#include <bit>
#include <cassert>

namespace cutec::rt {
namespace {

constexpr uint32_t kF32SignBit = 0x80000000u;
constexpr uint32_t kF32ExpMask = 0x7F800000u;
constexpr uint32_t kF32CanonicalNaN = 0x7FFFFFFFu;
constexpr int kF32ManBits = 23;
constexpr int kF32Bias = 127;

uint32_t manMask(const FloatFormat &f) { return (uint32_t(1) << f.manBits) - 1; }
uint32_t expAllOnes(const FloatFormat &f) { return (uint32_t(1) << f.expBits) - 1; }

/// Largest exponent field that holds finite values, and the largest mantissa
/// field allowed with it.
struct TopOfRange {
  uint32_t expField;
  uint32_t manField;
};

TopOfRange topOfRange(const FloatFormat &f) {
  switch (f.specials) {
  case Specials::Ieee:
    return {expAllOnes(f) - 1, manMask(f)};
  case Specials::NanOnly:
    // The all-ones code is NaN; without mantissa bits that takes the whole
    // top exponent (ue8m0).
    if (f.manBits == 0)
      return {expAllOnes(f) - 1, 0};
    return {expAllOnes(f), manMask(f) - 1};
  case Specials::None:
    return {expAllOnes(f), manMask(f)};
  }
  return {0, 0};
}

uint32_t compose(const FloatFormat &f, uint32_t sign, uint32_t expField, uint32_t manField) {
  return (sign ? f.signBit() : 0) | (expField << f.manBits) | manField;
}

/// The f32 bits of n * 2^k, which the caller guarantees to be representable.
uint32_t f32Bits(uint32_t n, int k) {
  if (n == 0)
    return 0;
  int top = std::bit_width(n) - 1;
  int exponent = top + k;
  if (exponent >= 1 - kF32Bias) {
    uint32_t mantissa = (n << (kF32ManBits - top)) & ((1u << kF32ManBits) - 1);
    return uint32_t(exponent + kF32Bias) << kF32ManBits | mantissa;
  }
  // f32 subnormal: its quantum is 2^-149.
  return n << (k + kF32Bias - 1 + kF32ManBits);
}

/// sig / 2^shift rounded to an integer in the given direction; `negative` is
/// the sign of the value being rounded (it matters to TowardPositive only).
uint64_t roundShiftRight(uint64_t sig, int shift, Rounding rounding, bool negative) {
  assert(shift >= 0 && "the target never has more precision than f32");
  if (shift == 0)
    return sig;
  // sig < 2^24, so every shift beyond 40 rounds exactly as 40 does.
  shift = std::min(shift, 40);
  uint64_t kept = sig >> shift;
  uint64_t rest = sig & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  switch (rounding) {
  case Rounding::NearestEven:
    return kept + (rest > half || (rest == half && (kept & 1)));
  case Rounding::NearestAway:
    return kept + (rest >= half);
  case Rounding::TowardZero:
    return kept;
  case Rounding::TowardPositive:
    return kept + (rest != 0 && !negative);
  }
  return kept;
}

/// Result for a finite magnitude that exceeds the format's range.
uint32_t overflow(const FloatFormat &f, uint32_t sign, EncodeMode mode) {
  uint32_t maxCode = compose(f, sign, topOfRange(f).expField, topOfRange(f).manField);
  if (mode.satfinite)
    return maxCode;
  switch (f.specials) {
  case Specials::Ieee: {
    // IEEE 754 overflow: the rounding direction decides between Inf and max.
    bool toInf = mode.rounding == Rounding::NearestEven || mode.rounding == Rounding::NearestAway ||
                 (mode.rounding == Rounding::TowardPositive && !sign);
    return toInf ? compose(f, sign, expAllOnes(f), 0) : maxCode;
  }
  case Specials::NanOnly:
    return canonicalNaNCode(f);
  case Specials::None:
    return maxCode;
  }
  return maxCode;
}

uint32_t encodeBeforeRelu(const FloatFormat &f, uint32_t bits, EncodeMode mode) {
  uint32_t sign = f.hasSign ? bits >> 31 : 0;
  uint32_t magnitude = bits & ~kF32SignBit;

  if (magnitude > kF32ExpMask) // NaN
    return f.hasNaN() ? canonicalNaNCode(f) : maxFiniteCode(f);
  if (magnitude == kF32ExpMask) { // Inf
    if (f.hasInf() && !mode.satfinite)
      return compose(f, sign, expAllOnes(f), 0);
    if (f.hasNaN() && !mode.satfinite)
      return canonicalNaNCode(f);
    return compose(f, sign, topOfRange(f).expField, topOfRange(f).manField);
  }

  // |value| = sig * 2^k exactly.
  uint32_t f32Exp = magnitude >> kF32ManBits;
  uint32_t sig = magnitude & ((1u << kF32ManBits) - 1);
  if (f32Exp != 0)
    sig |= 1u << kF32ManBits;
  int k = int(std::max(f32Exp, 1u)) - kF32Bias - kF32ManBits;

  // Without mantissa bits there are no subnormals: exponent field 0 is normal.
  int minNormalExp = f.manBits > 0 ? 1 - f.bias : -f.bias;
  int exponent = sig ? std::bit_width(sig) - 1 + k : minNormalExp;
  int binade = std::max(exponent, minNormalExp);
  int quantumExp = binade - int(f.manBits);
  uint64_t n = roundShiftRight(sig, quantumExp - k, mode.rounding, sign);

  if (n == 0) {
    // A format without zero (ue8m0) keeps its smallest value.
    if (f.manBits == 0)
      return 0;
    return compose(f, sign, 0, 0);
  }
  if (n == uint64_t(1) << (f.manBits + 1)) { // rounding carried into the next binade
    n >>= 1;
    ++binade;
  }
  bool normal = n >= (uint64_t(1) << f.manBits);
  uint32_t expField = normal ? uint32_t(binade + f.bias) : 0;
  uint32_t manField = uint32_t(n) & manMask(f);
  TopOfRange top = topOfRange(f);
  if (expField > top.expField || (expField == top.expField && manField > top.manField))
    return overflow(f, sign, mode);
  return compose(f, sign, expField, manField);
}

} // namespace

uint32_t maxFiniteCode(const FloatFormat &format) {
  TopOfRange top = topOfRange(format);
  return compose(format, 0, top.expField, top.manField);
}

uint32_t canonicalNaNCode(const FloatFormat &format) {
  return compose(format, 0, expAllOnes(format), manMask(format));
}

bool isNaNCode(const FloatFormat &format, uint32_t code) {
  uint32_t expField = (code >> format.manBits) & expAllOnes(format);
  uint32_t manField = code & manMask(format);
  switch (format.specials) {
  case Specials::Ieee:
    return expField == expAllOnes(format) && manField != 0;
  case Specials::NanOnly:
    return expField == expAllOnes(format) && manField == manMask(format);
  case Specials::None:
    return false;
  }
  return false;
}

float decode(const FloatFormat &format, uint32_t code) {
  code &= format.codeMask();
  uint32_t sign = code & format.signBit() ? kF32SignBit : 0;
  uint32_t expField = (code >> format.manBits) & expAllOnes(format);
  uint32_t manField = code & manMask(format);

  if (isNaNCode(format, code))
    return std::bit_cast<float>(kF32CanonicalNaN);
  if (format.hasInf() && expField == expAllOnes(format))
    return std::bit_cast<float>(sign | kF32ExpMask);

  bool subnormal = expField == 0 && format.manBits > 0;
  uint32_t n = subnormal ? manField : manField | (uint32_t(1) << format.manBits);
  int k = int(subnormal ? 1 : expField) - format.bias - int(format.manBits);
  return std::bit_cast<float>(sign | f32Bits(n, k));
}

uint32_t encode(const FloatFormat &format, float value, EncodeMode mode) {
  uint32_t code = encodeBeforeRelu(format, std::bit_cast<uint32_t>(value), mode);
  // NaN results are canonical, hence positive, and pass .relu unchanged.
  if (mode.relu && (code & format.signBit()))
    return 0;
  return code;
}

} // namespace cutec::rt
