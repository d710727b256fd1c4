//===- Swizzle.h - CuTe swizzle functors and swizzled layouts -------------===//
//
// Swizzle<B,M,S> XORs the B bits found S positions above bit M into the B bits
// at M: offset ^ ((offset & yyy) >> S). On byte addresses Swizzle<3,4,3> is
// the 128-byte TMA/UMMA swizzle, <2,4,3> the 64-byte and <1,4,3> the 32-byte
// one. A ComposedLayout applies a swizzle after an offset and a layout:
// c -> swizzle(offset + layout(c)), printed as CuTe DSL does: S<3,4,3> o 0 o L.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_LAYOUT_SWIZZLE_H
#define CUTEC_IR_LAYOUT_SWIZZLE_H

#include "ir/layout/Layout.h"

namespace cutec {

struct Swizzle {
  int bits = 0;  // B: number of bits in the mask
  int base = 0;  // M: number of least-significant bits kept constant
  int shift = 0; // S: distance to shift the mask (may be negative)

  static llvm::Expected<Swizzle> make(int64_t bits, int64_t base, int64_t shift);
  int64_t apply(int64_t offset) const;
  bool isIdentity() const { return bits == 0; }
  bool operator==(const Swizzle &o) const {
    return bits == o.bits && base == o.base && shift == o.shift;
  }
  std::string str() const;
};

struct ComposedLayout {
  Swizzle swizzle;
  IntExpr offset;
  Layout layout;

  std::string str() const;
  bool operator==(const ComposedLayout &o) const {
    return swizzle == o.swizzle && offset == o.offset && layout == o.layout;
  }
};

/// The index of `coord` through the swizzled layout; static layouts only.
llvm::Expected<int64_t> crd2idx(const IntTuple &coord, const ComposedLayout &l);

} // namespace cutec

#endif
