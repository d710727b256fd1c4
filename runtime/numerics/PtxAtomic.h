// The operations of PTX's `atom` on a 32-bit word, as the emulation runs
// them: Thread::atomicGlobal and Thread::atomicShared apply one to the old
// bits of the word indivisibly and return those old bits. Registers hold raw
// bits, so the signed forms cast explicitly.
#pragma once

#include "runtime/numerics/PtxArith.h"

#include <bit>
#include <cmath>
#include <cstdint>

namespace cutec::rt::ptx {

/// A subnormal f32 as the zero of its sign; other values unchanged.
inline float flushSubnormalF32(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

/// `atom.global.add.f32` rounds to nearest even and "flushes subnormal
/// inputs and results to sign-preserving zero on global memory" (PTX ISA,
/// atom).
inline uint32_t atomGlobalAddF32(uint32_t old, float b) {
  float sum = addRnF32(flushSubnormalF32(std::bit_cast<float>(old)), flushSubnormalF32(b));
  return std::bit_cast<uint32_t>(flushSubnormalF32(sum));
}
/// `atom.shared.add.f32` rounds to nearest even and "supports subnormal
/// inputs and results" (PTX ISA, atom).
inline uint32_t atomSharedAddF32(uint32_t old, float b) {
  return std::bit_cast<uint32_t>(addRnF32(std::bit_cast<float>(old), b));
}

inline uint32_t atomMaxS32(uint32_t old, uint32_t b) { return int32_t(b) > int32_t(old) ? b : old; }
inline uint32_t atomMinS32(uint32_t old, uint32_t b) { return int32_t(b) < int32_t(old) ? b : old; }
inline uint32_t atomMaxU32(uint32_t old, uint32_t b) { return b > old ? b : old; }
inline uint32_t atomMinU32(uint32_t old, uint32_t b) { return b < old ? b : old; }
/// `atom.cas.b32 d, [a], b, c`: c where the word equals b, else unchanged.
inline uint32_t atomCasB32(uint32_t old, uint32_t compare, uint32_t value) {
  return old == compare ? value : old;
}

} // namespace cutec::rt::ptx
