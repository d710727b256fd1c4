//===- Swizzle.cpp - CuTe swizzle functors and swizzled layouts -----------===//
#include "ir/layout/Swizzle.h"

#include "llvm/ADT/Twine.h"

namespace cutec {

llvm::Expected<Swizzle> Swizzle::make(int64_t bits, int64_t base, int64_t shift) {
  if (bits < 0 || base < 0 || bits > 16 || base > 32 || shift < -32 || shift > 32)
    return layoutError("Swizzle<" + llvm::Twine(bits) + "," + llvm::Twine(base) + "," +
                       llvm::Twine(shift) + ">: parameters out of range");
  if (bits > 0 && std::abs(shift) < bits)
    return layoutError("Swizzle<" + llvm::Twine(bits) + "," + llvm::Twine(base) + "," +
                       llvm::Twine(shift) + ">: |S| must be at least B so the masks do not overlap");
  return Swizzle{int(bits), int(base), int(shift)};
}

int64_t Swizzle::apply(int64_t offset) const {
  int64_t mask = (int64_t(1) << bits) - 1;
  int64_t yyy = mask << (base + std::max(0, shift));
  int64_t moved = offset & yyy;
  return offset ^ (shift >= 0 ? moved >> shift : moved << -shift);
}

std::string Swizzle::str() const {
  return "S<" + std::to_string(bits) + "," + std::to_string(base) + "," + std::to_string(shift) +
         ">";
}

std::string ComposedLayout::str() const {
  return swizzle.str() + " o " + offset.str() + " o " + layout.str();
}

llvm::Expected<int64_t> crd2idx(const IntTuple &coord, const ComposedLayout &l) {
  auto idx = crd2idx(coord, l.layout);
  if (!idx)
    return idx.takeError();
  IntExpr linear = l.offset + *idx;
  if (!linear.isStatic())
    return layoutError("cannot evaluate the dynamic index " + linear.str() + " of " + l.str());
  return l.swizzle.apply(linear.staticValue());
}

} // namespace cutec
