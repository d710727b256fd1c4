// PTX integer and f32 arithmetic with the ISA's exact semantics, for the
// emulation's instructions whose C++ spelling would differ: division by zero,
// INT_MIN / -1, shifts past the width, and f32 operations that must round
// once, in round-to-nearest-even, without contraction.
#pragma once

#include "runtime/numerics/FloatFormat.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace cutec::rt::ptx {

// div.s32 / rem.s32: PTX leaves x/0 unspecified; the emulation gives -1 and x
// (what NVIDIA GPUs return) rather than trapping, and INT_MIN/-1 wraps.
inline uint32_t divS32(uint32_t a, uint32_t b) {
  int32_t x = int32_t(a), y = int32_t(b);
  if (y == 0)
    return 0xFFFFFFFFu;
  if (x == INT32_MIN && y == -1)
    return a;
  return uint32_t(x / y);
}

inline uint32_t remS32(uint32_t a, uint32_t b) {
  int32_t x = int32_t(a), y = int32_t(b);
  if (y == 0)
    return a;
  if (x == INT32_MIN && y == -1)
    return 0;
  return uint32_t(x % y);
}

// div.u32 / rem.u32: x/0 gives all ones and x%0 gives x, as the signed forms.
inline uint32_t divU32(uint32_t a, uint32_t b) { return b == 0 ? 0xFFFFFFFFu : a / b; }
inline uint32_t remU32(uint32_t a, uint32_t b) { return b == 0 ? a : a % b; }

inline uint32_t minS32(uint32_t a, uint32_t b) { return int32_t(a) < int32_t(b) ? a : b; }

// prmt.b32 d, a, b, c (default mode): byte i of d is byte (c >> 4i) & 7 of
// the eight bytes {b, a} (a the low four), or that byte's sign replicated
// when bit 3 of the selector nibble is set.
inline uint32_t prmtB32(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t bytes = uint64_t(b) << 32 | a;
  uint32_t d = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t selector = c >> (4 * i) & 0xF;
    uint32_t byte = uint32_t(bytes >> (8 * (selector & 7))) & 0xFF;
    if (selector & 8)
      byte = byte & 0x80 ? 0xFF : 0;
    d |= byte << (8 * i);
  }
  return d;
}

// shr.s32: arithmetic shift; shifts of 32 or more fill with the sign.
inline uint32_t shrS32(uint32_t a, uint32_t b) {
  int32_t x = int32_t(a);
  return uint32_t(b >= 32 ? (x < 0 ? -1 : 0) : x >> b);
}

// shr.s64: arithmetic shift; shifts of 64 or more fill with the sign.
inline uint64_t shrS64(uint64_t a, uint64_t b) {
  int64_t x = int64_t(a);
  return uint64_t(b >= 64 ? (x < 0 ? -1 : 0) : x >> b);
}

// IEEE single precision rounds to nearest even. A C++ compiler may still
// contract a*b+c into one fma, which changes results: the emitted emulation
// turns contraction off (#pragma STDC FP_CONTRACT OFF, and GCC's
// optimize("fp-contract=off")); code that includes this header elsewhere
// must do the same.
inline float addRnF32(float a, float b) { return a + b; }
inline float subRnF32(float a, float b) { return a - b; }
inline float mulRnF32(float a, float b) { return a * b; }
inline float fmaRnF32(float a, float b, float c) { return std::fma(a, b, c); }
inline float divRnF32(float a, float b) { return a / b; }

// max.f32 and min.f32 (IEEE 754-2019 maximumNumber/minimumNumber): a NaN
// operand gives the other one, two NaNs the canonical NaN, and +0 is
// larger than -0.
inline float canonicalNaN() { return std::bit_cast<float>(0x7FFFFFFFu); }
inline float maxF32(float a, float b) {
  if (std::isnan(a))
    return std::isnan(b) ? canonicalNaN() : b;
  if (std::isnan(b) || a > b)
    return a;
  return a == b && std::signbit(b) ? a : b;
}
inline float minF32(float a, float b) {
  if (std::isnan(a))
    return std::isnan(b) ? canonicalNaN() : b;
  if (std::isnan(b) || a < b)
    return a;
  return a == b && std::signbit(a) ? a : b;
}
// copysign.f32 d, a, b: the bits of b with the sign bit of a.
inline float copysignF32(float sign, float magnitude) {
  return std::bit_cast<float>((std::bit_cast<uint32_t>(sign) & 0x80000000u) |
                              (std::bit_cast<uint32_t>(magnitude) & 0x7FFFFFFFu));
}

// cvt.rzi.s32.f32: truncate; NaN gives 0 and out-of-range saturates.
inline uint32_t cvtRziS32F32(float a) {
  if (std::isnan(a))
    return 0;
  if (a >= 2147483648.0f)
    return uint32_t(INT32_MAX);
  if (a < -2147483648.0f)
    return uint32_t(INT32_MIN);
  return uint32_t(int32_t(a));
}

// cvt.rzi.u32.f32: toward zero, saturating to [0, 2^32 - 1]; NaN gives 0.
inline uint32_t cvtRziU32F32(float a) {
  if (std::isnan(a) || a <= -1.0f)
    return 0;
  if (a >= 4294967296.0f)
    return UINT32_MAX;
  return uint32_t(a);
}

inline float f32FromBits(uint32_t bits) { return std::bit_cast<float>(bits); }

// cvt.f32.f16 / cvt.f32.bf16: exact widenings.
inline float cvtF32F16(uint16_t h) { return decode(kF16, h); }
inline float cvtF32Bf16(uint16_t h) { return decode(kBF16, h); }

/// The bits of 32-bit registers (f32 or b32), in order (wgmma's operands).
template <typename... R> inline std::array<uint32_t, sizeof...(R)> registerWords(R... r) {
  return {std::bit_cast<uint32_t>(r)...};
}

/// Spreads words over 32-bit registers (f32 or b32) as their bits, in order
/// (a vector instruction's results: tcgen05.ld, wgmma).
template <typename... Registers> inline void scatterWords(const uint32_t *words, Registers &...r) {
  size_t i = 0;
  ((r = std::bit_cast<Registers>(words[i++])), ...);
}

} // namespace cutec::rt::ptx
