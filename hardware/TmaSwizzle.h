//===- TmaSwizzle.h - The swizzles a TMA copy applies to shared memory ----===//
//
// A tensor map names its shared-memory swizzle by the CUDA driver's
// CUtensorMapSwizzle number (NONE, 32B, 64B, 128B = 0, 1, 2, 3). Swizzle N
// is CuTe's Swizzle<N, 4, 3> on byte addresses: bits [4, 4 + N) XOR bits
// [7, 7 + N), so 16-byte chunks move within a span of 16 << N bytes. The
// compiler reads the swizzle from a shared layout and prints the number;
// the emulator decodes it and moves the bytes.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_HARDWARE_TMASWIZZLE_H
#define CUTEC_HARDWARE_TMASWIZZLE_H

#include <cstdint>
#include <optional>

namespace cutec::hw {

enum class TmaSwizzle : uint32_t { None = 0, B32, B64, B128 };

/// Bytes of the swizzle pattern's span: 0 (none), 32, 64 or 128.
constexpr uint32_t tmaSwizzleSpan(TmaSwizzle swizzle) {
  return swizzle == TmaSwizzle::None ? 0 : 16u << uint32_t(swizzle);
}

/// The swizzle whose span is `bytes` (0 for none), or nullopt.
constexpr std::optional<TmaSwizzle> tmaSwizzleOfSpan(int64_t bytes) {
  for (uint32_t n = 0; n <= 3; ++n)
    if (tmaSwizzleSpan(TmaSwizzle(n)) == bytes)
      return TmaSwizzle(n);
  return std::nullopt;
}

/// The swizzle that is CuTe's Swizzle<bits, base, shift> on byte addresses
/// (identity for 0 bits), or nullopt for one TMA does not have.
constexpr std::optional<TmaSwizzle> tmaSwizzleOf(int bits, int base, int shift) {
  if (bits == 0)
    return TmaSwizzle::None;
  if (base == 4 && shift == 3 && bits >= 1 && bits <= 3)
    return TmaSwizzle(uint32_t(bits));
  return std::nullopt;
}

/// The shared-memory byte address where the TMA puts the byte that the
/// unswizzled box layout puts at `address`.
constexpr uint32_t tmaSwizzleAddress(uint32_t address, TmaSwizzle swizzle) {
  uint32_t bits = uint32_t(swizzle);
  if (bits == 0)
    return address;
  uint32_t mask = (1u << bits) - 1;
  return address ^ (((address >> 7) & mask) << 4);
}

} // namespace cutec::hw

#endif
