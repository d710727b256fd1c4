#include "runtime/numerics/Sfu.h"

#include "runtime/numerics/SfuTable.h"

#include <bit>
#include <cmath>
#include <cstdint>

namespace cutec::rt::ptx {
namespace {

constexpr uint32_t kCanonicalNaN = 0x7FFFFFFFu;
constexpr uint32_t kSign = 0x80000000u;
constexpr uint32_t kInfinity = 0x7F800000u;

float fromBits(uint32_t bits) { return std::bit_cast<float>(bits); }

/// value * 2^(exponent - scale) for a table value in [2^(scale-1), 2^scale]
/// (so an integer with 24 or 25 significant bits, the latter only a power of
/// two), flushed to zero below the normal range; never above it here.
float scaledValue(int64_t value, int exponent, int scale) {
  float result = std::ldexp(float(value), exponent - scale);
  return std::fabs(result) < 0x1p-126f ? 0.0f : result;
}

/// The sign bit, biased exponent and fraction bits of an f32.
struct Parts {
  uint32_t sign;
  int biased;
  uint32_t fraction;
};
Parts partsOf(float x) {
  uint32_t bits = std::bit_cast<uint32_t>(x);
  return {bits & kSign, int(bits >> 23 & 0xFF), bits & 0x7FFFFF};
}

} // namespace

float ex2ApproxFtzF32(float x) {
  static const sfu::DecodedTable table(sfu::kEx2Table);
  Parts p = partsOf(x);
  bool negative = p.sign;
  if (p.biased == 0xFF)
    return p.fraction ? fromBits(kCanonicalNaN) : negative ? 0.0f : fromBits(kInfinity);
  if (p.biased == 0)
    return 1.0f; // subnormals count as zero
  if (p.biased >= 127 + 7)
    return negative ? 0.0f : fromBits(kInfinity); // |x| >= 128
  // |x| in fixed point with 23 fraction bits, truncated.
  uint64_t significand = p.fraction | 0x800000u;
  int shift = p.biased - 127; // significand * 2^(shift - 23) = |x|
  uint64_t fixed = shift >= 0 ? significand << shift : shift > -24 ? significand >> -shift : 0;
  int n = int(fixed >> 23);
  uint32_t f = uint32_t(fixed & 0x7FFFFF);
  if (!negative)
    return scaledValue(table[f], n, 23);
  if (f == 0)
    return std::ldexp(1.0f, -n) < 0x1p-126f ? 0.0f : std::ldexp(1.0f, -n);
  return scaledValue(table[0x7FFFFF - f], -n - 1, 23);
}

float rsqrtApproxFtzF32(float x) {
  static const sfu::DecodedTable table(sfu::kRsqrtTable);
  Parts p = partsOf(x);
  if (p.biased == 0xFF && p.fraction)
    return fromBits(kCanonicalNaN);
  if (p.biased == 0) // zeros and subnormals
    return fromBits(kInfinity | p.sign);
  if (p.sign)
    return fromBits(kCanonicalNaN);
  if (p.biased == 0xFF)
    return 0.0f;
  // x = m * 2^e with m in [1, 2); entries 0 .. 2^23-1 cover [1, 2), the
  // next 2^23 [2, 4): an odd e uses the second half.
  int e = p.biased - 127;
  int odd = e & 1;
  int k = (e - odd) / 2;
  return scaledValue(table[uint32_t(odd) << 23 | p.fraction], -k, 24);
}

float rcpApproxFtzF32(float x) {
  static const sfu::DecodedTable table(sfu::kRcpTable);
  Parts p = partsOf(x);
  if (p.biased == 0xFF)
    return p.fraction ? fromBits(kCanonicalNaN) : fromBits(p.sign);
  if (p.biased == 0)
    return fromBits(kInfinity | p.sign);
  float magnitude = scaledValue(table[p.fraction], -(p.biased - 127), 24);
  return p.sign ? -magnitude : magnitude;
}

} // namespace cutec::rt::ptx
