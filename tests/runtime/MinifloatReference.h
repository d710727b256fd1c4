// Independent reference for the narrow formats, written from their definitions
// (sign, exponent, mantissa, bias and special codes) with ldexp and a
// nearest-value search, never by calling runtime/. The tests compare the codec
// against it code point by code point.
#pragma once

#include "runtime/numerics/FloatFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace cutec::rt::test {

struct RefFormat {
  enum Specials { NoSpecials, TopCodeIsNaN, IeeeInfNaN, PowerOfTwo };
  const char *name;
  const FloatFormat &format; // the codec's description, only to call the codec
  int bits, expBits, manBits, bias;
  bool hasSign;
  Specials specials;
};

// The formats as the PTX ISA and CUTLASS define them.
inline const RefFormat kRefE2M1{"e2m1", kE2M1, 4, 2, 1, 1, true, RefFormat::NoSpecials};
inline const RefFormat kRefE3M2{"e3m2", kE3M2, 6, 3, 2, 3, true, RefFormat::NoSpecials};
inline const RefFormat kRefE2M3{"e2m3", kE2M3, 6, 2, 3, 1, true, RefFormat::NoSpecials};
inline const RefFormat kRefE4M3{"e4m3", kE4M3, 8, 4, 3, 7, true, RefFormat::TopCodeIsNaN};
inline const RefFormat kRefE5M2{"e5m2", kE5M2, 8, 5, 2, 15, true, RefFormat::IeeeInfNaN};
inline const RefFormat kRefUE4M3{"ue4m3", kUE4M3, 7, 4, 3, 7, false, RefFormat::TopCodeIsNaN};
inline const RefFormat kRefUE8M0{"ue8m0", kUE8M0, 8, 8, 0, 127, false, RefFormat::PowerOfTwo};

inline const RefFormat *const kAllRefFormats[] = {&kRefE2M1, &kRefE3M2,  &kRefE2M3, &kRefE4M3,
                                                  &kRefE5M2, &kRefUE4M3, &kRefUE8M0};

/// The value of `code`: NaN for NaN codes, ±infinity for Inf codes.
inline double refValue(const RefFormat &f, uint32_t code) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (f.specials == RefFormat::PowerOfTwo)
    return code == 0xFF ? nan : std::ldexp(1.0, int(code) - 127);
  int mantissa = int(code % (1u << f.manBits));
  int exponent = int(code >> f.manBits) % (1 << f.expBits);
  bool negative = f.hasSign && (code >> (f.expBits + f.manBits)) % 2 == 1;
  int topExponent = (1 << f.expBits) - 1;
  int topMantissa = (1 << f.manBits) - 1;
  if (f.specials == RefFormat::TopCodeIsNaN && exponent == topExponent && mantissa == topMantissa)
    return nan;
  if (f.specials == RefFormat::IeeeInfNaN && exponent == topExponent)
    return mantissa ? nan : (negative ? -inf : inf);
  double fraction = double(mantissa) / double(1 << f.manBits);
  double magnitude = exponent == 0 ? std::ldexp(fraction, 1 - f.bias)
                                   : std::ldexp(1.0 + fraction, exponent - f.bias);
  return negative ? -magnitude : magnitude;
}

struct RefPoint {
  double value;
  uint32_t code;
};

/// All finite non-negative values with their codes, ascending; +0 included
/// where the format has it.
inline std::vector<RefPoint> refNonNegativePoints(const RefFormat &f) {
  std::vector<RefPoint> points;
  uint32_t positiveCodes = f.hasSign ? 1u << (f.bits - 1) : 1u << f.bits;
  for (uint32_t code = 0; code < positiveCodes; ++code) {
    double v = refValue(f, code);
    if (std::isfinite(v))
      points.push_back({v, code});
  }
  std::sort(points.begin(), points.end(),
            [](const RefPoint &a, const RefPoint &b) { return a.value < b.value; });
  return points;
}

/// Round-to-nearest-even with saturation to the largest finite value, by
/// searching the value table: the reference for `.rn.satfinite` on finite
/// inputs. Unsigned formats take the magnitude.
inline uint32_t refEncodeRnSatfinite(const RefFormat &f, const std::vector<RefPoint> &points,
                                     double x) {
  bool negative = std::signbit(x) && f.hasSign;
  double magnitude = std::fabs(x);
  auto above = std::lower_bound(points.begin(), points.end(), magnitude,
                                [](const RefPoint &p, double v) { return p.value < v; });
  const RefPoint *best;
  if (above == points.end()) {
    best = &points.back();
  } else if (above == points.begin()) {
    best = &*above;
  } else {
    const RefPoint &lo = *(above - 1), &hi = *above;
    double dLo = magnitude - lo.value, dHi = hi.value - magnitude;
    best = dLo < dHi ? &lo : dHi < dLo ? &hi : (lo.code % 2 == 0 ? &lo : &hi);
  }
  uint32_t signBit = negative ? 1u << (f.bits - 1) : 0;
  return best->code | signBit;
}

} // namespace cutec::rt::test
