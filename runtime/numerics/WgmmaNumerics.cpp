// The measured model of wgmma's arithmetic (see runtime/numerics/WgmmaNumerics.h).
// Integer arithmetic on the operands' fields throughout, so the result does
// not depend on the host's floating-point environment.
#include "runtime/numerics/WgmmaNumerics.h"

#include <bit>
#include <cassert>

namespace cutec::rt {
namespace {

constexpr FloatFormat kF32Fields{"f32", 8, 23, 127, true, Specials::Ieee};
constexpr uint32_t kF32NaN = 0x7FFFFFFFu, kF16NaN = 0x7FFFu;

/// A decoded operand, product or accumulator: ±mag · 2^exp when Finite.
struct Value {
  enum Class : uint8_t { Finite, Inf, NaN } cls = Finite;
  bool negative = false;
  uint64_t mag = 0;
  int exp = 0;
  /// The exponent the adder aligns by: the exponent field's (a subnormal
  /// counts as the smallest normal exponent), for a product the sum of its
  /// operands' (one less than the leading bit's when the significands'
  /// product is 2 or more).
  int lead = 0;
};


Value decodeFields(const FloatFormat &f, uint32_t code) {
  Value v;
  if (f.codeBits() < 32)
    code &= f.codeMask();
  v.negative = (code & f.signBit()) != 0;
  const uint32_t expAllOnes = (1u << f.expBits) - 1, manMask = (1u << f.manBits) - 1;
  const uint32_t e = (code >> f.manBits) & expAllOnes, m = code & manMask;
  if (f.specials == Specials::Ieee && e == expAllOnes) {
    v.cls = m ? Value::NaN : Value::Inf;
    return v;
  }
  if (f.specials == Specials::NanOnly && e == expAllOnes && m == manMask) {
    v.cls = Value::NaN;
    return v;
  }
  v.mag = e ? (m | (1u << f.manBits)) : m;
  v.exp = int(e ? e : 1) - f.bias - int(f.manBits);
  v.lead = int(e ? e : 1) - f.bias;
  return v;
}

Value decodeElement(WgmmaElement element, uint32_t code) {
  // tf32 is an f32 pattern; the tensor core reads its top 19 bits.
  if (element == WgmmaElement::TF32)
    code >>= 13;
  return decodeFields(wgmmaElementFormat(element), code);
}

Value multiply(const Value &a, const Value &b) {
  Value p;
  p.negative = a.negative != b.negative;
  if (a.cls == Value::NaN || b.cls == Value::NaN)
    p.cls = Value::NaN;
  else if (a.cls == Value::Inf || b.cls == Value::Inf)
    p.cls = (a.cls == Value::Finite && a.mag == 0) || (b.cls == Value::Finite && b.mag == 0)
                ? Value::NaN
                : Value::Inf;
  else {
    p.mag = a.mag * b.mag;
    p.exp = a.exp + b.exp;
    p.lead = a.lead + b.lead;
  }
  return p;
}

/// Whether dropping `dropped` (nonzero) from a magnitude of sign `negative`
/// rounds the kept part's magnitude up; `half` compares dropped with half a
/// unit (-1 below, 0 equal, 1 above), `odd` is the kept part's last bit.
bool roundsUp(AdderRounding r, bool negative, int half, bool odd) {
  switch (r) {
  case AdderRounding::TowardZero:
    return false;
  case AdderRounding::Down:
    return negative;
  case AdderRounding::NearestEven:
    return half > 0 || (half == 0 && odd);
  }
  return false;
}

using u128 = unsigned __int128;

int bitLength(u128 x) {
  const uint64_t hi = uint64_t(x >> 64);
  return hi ? 128 - std::countl_zero(hi) : 64 - std::countl_zero(uint64_t(x));
}

/// mag >> shift with rounding `r` of a value of sign `negative`.
u128 shiftRight(u128 mag, int shift, AdderRounding r, bool negative) {
  if (shift <= 0)
    return mag << -shift;
  if (shift > 127)
    return roundsUp(r, negative, -1, false) && mag ? 1 : 0;
  const u128 kept = mag >> shift, dropped = mag & ((u128(1) << shift) - 1);
  if (!dropped)
    return kept;
  const u128 half = u128(1) << (shift - 1);
  const int cmp = dropped > half ? 1 : dropped == half ? 0 : -1;
  return kept + (roundsUp(r, negative, cmp, kept & 1) ? 1 : 0);
}

/// ±mag · 2^exp (mag > 0) rounded to the format `f` (IEEE specials).
uint32_t roundToFormat(const FloatFormat &f, bool negative, u128 mag, int exp, AdderRounding r) {
  const uint32_t sign = negative ? f.signBit() : 0;
  const int lead = exp + bitLength(mag) - 1;
  const int minNormal = 1 - f.bias;
  const int quantum = (lead < minNormal ? minNormal : lead) - int(f.manBits);
  u128 sig = shiftRight(mag, quantum - exp, r, negative);
  int q = quantum;
  if (sig >> (f.manBits + 1)) {
    sig >>= 1;
    ++q;
  }
  // A nonzero sum too small for the format's subnormals: +0 (measured).
  if (sig == 0)
    return 0;
  const uint32_t expAllOnes = (1u << f.expBits) - 1;
  const uint32_t manMask = (1u << f.manBits) - 1;
  const int64_t expField = (sig >> f.manBits) ? int64_t(q) + f.manBits + f.bias : 0;
  // Past the largest finite value: Inf, whatever the rounding (measured).
  if (expField >= expAllOnes)
    return sign | expAllOnes << f.manBits;
  return sign | uint32_t(expField) << f.manBits | (uint32_t(sig) & manMask);
}

/// One step of the adder: acc + products[0..count), in format `out`.
uint32_t addStep(const WgmmaAdder &adder, const FloatFormat &out, const Value &acc,
                 const Value *products, unsigned count) {
  const AdderRounding rounding = adder.sumRounding;
  const uint32_t nan = out.manBits == 10 ? kF16NaN : kF32NaN;
  bool posInf = false, negInf = false;
  int lead = INT32_MIN;
  auto visit = [&](const Value &v) -> bool {
    if (v.cls == Value::NaN)
      return false;
    if (v.cls == Value::Inf)
      (v.negative ? negInf : posInf) = true;
    else if (v.mag)
      lead = v.lead > lead ? v.lead : lead;
    return true;
  };
  if (!visit(acc))
    return nan;
  for (unsigned i = 0; i < count; ++i)
    if (!visit(products[i]))
      return nan;
  if (posInf && negInf)
    return nan;
  if (posInf || negInf)
    return (negInf ? out.signBit() : 0) | (((1u << out.expBits) - 1) << out.manBits);
  // A zero sum is +0, even from -0 terms only (measured).
  if (lead == INT32_MIN)
    return 0;
  const int unit = lead - adder.fracBits;
  __int128 sum = 0;
  auto add = [&](const Value &v) {
    if (v.cls != Value::Finite || !v.mag)
      return;
    const u128 cut = shiftRight(v.mag, unit - v.exp, adder.termRounding, v.negative);
    sum += v.negative ? -__int128(cut) : __int128(cut);
  };
  add(acc);
  for (unsigned i = 0; i < count; ++i)
    add(products[i]);
  if (sum == 0)
    return 0;
  const bool negative = sum < 0;
  u128 mag = negative ? u128(-sum) : u128(sum);
  int exp = unit;
  if (adder.sumFracBits < int(out.manBits)) {
    // A narrower significand than the format's, normal exponents only.
    const int cut = exp + bitLength(mag) - 1 - adder.sumFracBits;
    if (cut > exp) {
      mag = shiftRight(mag, cut - exp, rounding, negative);
      exp = cut;
    }
  }
  return roundToFormat(out, negative, mag, exp, rounding);
}

uint32_t integerDot(const WgmmaKind &type, const uint32_t *aCodes, const uint32_t *bCodes,
                    uint32_t d) {
  int64_t sum = int32_t(d);
  auto value = [](WgmmaElement e, uint32_t code) {
    return e == WgmmaElement::S8 ? int64_t(int8_t(code)) : int64_t(uint8_t(code));
  };
  for (unsigned k = 0; k < 32; ++k)
    sum += value(type.a, aCodes[k]) * value(type.b, bCodes[k]);
  if (type.saturate)
    sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
  return uint32_t(sum);
}

} // namespace

const FloatFormat &wgmmaElementFormat(WgmmaElement element) {
  switch (element) {
  case WgmmaElement::F16:
    return kF16;
  case WgmmaElement::BF16:
    return kBF16;
  case WgmmaElement::TF32:
    return kTF32;
  case WgmmaElement::E4M3:
    return kE4M3;
  case WgmmaElement::E5M2:
    return kE5M2;
  default:
    assert(false && "not a floating-point element");
    return kF16;
  }
}

unsigned wgmmaK(WgmmaElement element) { return 32 / wgmmaElementBytes(element); }

unsigned wgmmaElementBytes(WgmmaElement element) {
  switch (element) {
  case WgmmaElement::F16:
  case WgmmaElement::BF16:
    return 2;
  case WgmmaElement::TF32:
    return 4;
  default:
    return 1;
  }
}

const char *wgmmaElementName(WgmmaElement element) {
  static const char *const names[] = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"};
  return names[unsigned(element)];
}

const char *wgmmaAccumName(WgmmaAccum accum) {
  static const char *const names[] = {"f32", "f16", "s32"};
  return names[unsigned(accum)];
}

WgmmaAdder wgmmaAdder(const WgmmaKind &type) {
  WgmmaAdder adder;
  if (type.a == WgmmaElement::E4M3 || type.a == WgmmaElement::E5M2) {
    adder.fracBits = 13;
    adder.sumFracBits = 13;
  }
  if (type.d == WgmmaAccum::F16)
    adder.sumRounding = AdderRounding::NearestEven;
  return adder;
}

uint32_t wgmmaDot(const WgmmaKind &type, const uint32_t *aCodes, const uint32_t *bCodes,
                  uint32_t d) {
  return wgmmaDot(type, wgmmaAdder(type), aCodes, bCodes, d);
}

uint32_t wgmmaDot(const WgmmaKind &type, const WgmmaAdder &adder, const uint32_t *aCodes,
                  const uint32_t *bCodes, uint32_t d) {
  if (type.d == WgmmaAccum::S32)
    return integerDot(type, aCodes, bCodes, d);
  const unsigned K = wgmmaK(type.a);
  Value products[32];
  for (unsigned k = 0; k < K; ++k)
    products[k] = multiply(decodeElement(type.a, aCodes[k]), decodeElement(type.b, bCodes[k]));
  const FloatFormat &format = type.d == WgmmaAccum::F16 ? kF16 : kF32Fields;
  return addStep(adder, format, decodeFields(format, d), products, K);
}

} // namespace cutec::rt
