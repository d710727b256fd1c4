// The canonical UMMA shared-memory layouts as CuTe writes them in
// make_umma_desc (include/cute/atom/mma_traits_sm100.hpp), in units of 16
// bytes, with the swizzle as a CuTe Swizzle<B,M,S> functor on byte
// addresses: the tests' own formulation, to check the emulator's against.
#pragma once

#include "runtime/tensorcore/UmmaDescriptors.h"

#include <cstdint>

namespace cutec::rt::test {

/// CuTe Swizzle<B,M,S>: bits [M+S, M+S+B) xor'ed into [M, M+B).
inline uint32_t cuteSwizzle(uint32_t x, unsigned b, unsigned m, unsigned s) {
  uint32_t mask = ((1u << b) - 1) << (m + s);
  return x ^ ((x & mask) >> s);
}

inline uint32_t layoutSwizzle(uint32_t address, UmmaLayout l) {
  switch (l) {
  case UmmaLayout::B32:
    return cuteSwizzle(address, 1, 4, 3);
  case UmmaLayout::B64:
    return cuteSwizzle(address, 2, 4, 3);
  case UmmaLayout::B128:
    return cuteSwizzle(address, 3, 4, 3);
  case UmmaLayout::B128Base32B:
    return cuteSwizzle(address, 2, 5, 2);
  case UmmaLayout::None:
    break;
  }
  return address;
}

/// 16-byte units per swizzled row: T in the layouts below.
inline uint32_t layoutAtomChunks(UmmaLayout l) {
  switch (l) {
  case UmmaLayout::B32:
    return 2;
  case UmmaLayout::B64:
    return 4;
  case UmmaLayout::B128:
  case UmmaLayout::B128Base32B:
    return 8;
  case UmmaLayout::None:
    break;
  }
  return 1;
}

/// The byte address of 16-byte unit (mn, k-unit) of a K-major operand
/// (`mn` the row, `c` the 16-byte column along K), or of unit (mn-unit, k) of
/// an MN-major one (`mn` the 16-byte column along M/N, `c` the K row):
///   K-major  INTERLEAVE ((8,n),2):((1,SBO),LBO)
///   K-major  SW32/64/128 ((8,n),2):((T,SBO),1)
///   MN-major INTERLEAVE ((1,n),(8,k)):((X,SBO),(1,LBO))
///   MN-major SWxx       ((T,n),(8,k)):((1,LBO),(T,SBO))
inline uint32_t canonicalUnitAddress(uint32_t start, UmmaLayout l, bool mnMajor, uint32_t lbo,
                                     uint32_t sbo, uint32_t mn, uint32_t c) {
  uint32_t t = layoutAtomChunks(l), L = lbo / 16, S = sbo / 16, unit;
  if (!mnMajor)
    unit =
        l == UmmaLayout::None ? (mn % 8) + (mn / 8) * S + c * L : (mn % 8) * t + (mn / 8) * S + c;
  else
    unit = l == UmmaLayout::None ? mn * S + (c % 8) + (c / 8) * L
                                 : (mn % t) + (mn / t) * L + (c % 8) * t + (c / 8) * S;
  return layoutSwizzle(start + 16 * unit, l);
}

} // namespace cutec::rt::test
