// How packed fp4 (e2m1) arrays are laid out in memory: two elements per byte,
// element 0 in the low nibble (CUTLASS array_subbyte / float_e2m1_t arrays,
// and the layout TMA and tcgen05.mma read for fp4 operands).
//
// cvt.rn.f16x2.e2m1x2 maps the high nibble to the high half of its result, so
// a byte of elements (0, 1) becomes an f16x2 whose low half is element 0: the
// f16 memory order. The reverse, cvt.rn.satfinite.e2m1x2.f32 d, a, b, puts `a`
// in the high nibble, so packing elements (x0, x1) is `cvt ... d, x1, x0`.
#pragma once

#include <array>
#include <cstdint>

namespace cutec::rt {

/// The two e2m1 codes of a byte, element 0 first.
constexpr std::array<uint8_t, 2> unpackFp4(uint8_t byte) {
  return {uint8_t(byte & 0xF), uint8_t(byte >> 4)};
}

/// The byte holding e2m1 codes `element0` and `element1`.
constexpr uint8_t packFp4(uint8_t element0, uint8_t element1) {
  return uint8_t((element0 & 0xF) | (element1 & 0xF) << 4);
}

} // namespace cutec::rt
