//===- SwizzleMode.h - The shared-memory swizzles the tensor cores read ---===//
//
// tcgen05.mma and wgmma read shared-memory operands in a few swizzled
// layouts, which their matrix descriptors name by a layout-type code:
// tcgen05's in three bits (CUTLASS UMMA::LayoutType), wgmma's in two
// (GMMA::LayoutType). Each swizzle is CuTe's Swizzle<bits, base, shift> on
// byte addresses, applied to absolute address bits as TMA writes them.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_HARDWARE_SWIZZLEMODE_H
#define CUTEC_HARDWARE_SWIZZLEMODE_H

#include <cstdint>

namespace cutec::hw {

/// tcgen05's layout-type codes (bits [61,64) of its shared-memory
/// descriptor); 3, 5 and 7 are not layouts.
enum class UmmaLayout : uint8_t {
  None = 0,        // no swizzle ("interleave"): 8x16-byte core matrices
  B128Base32B = 1, // 128-byte swizzle with 32-byte atoms (MN-major only)
  B128 = 2,
  B64 = 4,
  B32 = 6,
};

/// One swizzle: its codes in both descriptors and its address function.
struct SwizzleMode {
  UmmaLayout umma;
  /// wgmma's layout type (bits [62,64) of its descriptor); -1 where wgmma
  /// does not have the swizzle.
  int gmmaLayoutType;
  /// CuTe's Swizzle<bits, base, shift> on byte addresses: address bits
  /// [base, base + bits) XOR bits [base + shift, base + shift + bits).
  int bits, base, shift;
  /// The swizzle span: the bytes of one swizzled row (16 unswizzled).
  uint32_t rowBytes;
  const char *name;
};

inline constexpr SwizzleMode kSwizzleModes[] = {
    {UmmaLayout::None, 0, 0, 4, 3, 16, "no swizzle"},
    {UmmaLayout::B128Base32B, -1, 2, 5, 2, 128, "128B swizzle with 32B atoms"},
    {UmmaLayout::B128, 1, 3, 4, 3, 128, "128B swizzle"},
    {UmmaLayout::B64, 2, 2, 4, 3, 64, "64B swizzle"},
    {UmmaLayout::B32, 3, 1, 4, 3, 32, "32B swizzle"},
};

/// The swizzle of tcgen05 layout type `code`, or null for 3, 5 and 7.
constexpr const SwizzleMode *swizzleModeOfUmmaCode(uint32_t code) {
  for (const SwizzleMode &mode : kSwizzleModes)
    if (uint32_t(mode.umma) == code)
      return &mode;
  return nullptr;
}

/// The swizzle of wgmma layout type `code` (0 to 3), or null.
constexpr const SwizzleMode *swizzleModeOfGmmaCode(uint32_t code) {
  for (const SwizzleMode &mode : kSwizzleModes)
    if (mode.gmmaLayoutType >= 0 && uint32_t(mode.gmmaLayoutType) == code)
      return &mode;
  return nullptr;
}

/// The swizzle of CuTe's Swizzle<bits, base, shift>, or null: with no bits
/// it is the identity whatever its base and shift.
constexpr const SwizzleMode *swizzleModeOf(int bits, int base, int shift) {
  for (const SwizzleMode &mode : kSwizzleModes)
    if (mode.bits == bits && (bits == 0 || (mode.base == base && mode.shift == shift)))
      return &mode;
  return nullptr;
}

/// The swizzle of `layout`; an invalid code reads as no swizzle.
constexpr const SwizzleMode &swizzleMode(UmmaLayout layout) {
  const SwizzleMode *mode = swizzleModeOfUmmaCode(uint32_t(layout));
  return mode ? *mode : kSwizzleModes[0];
}

/// The swizzle span in bytes: 16 for None, 32, 64, 128 (also for
/// B128Base32B).
constexpr uint32_t ummaLayoutRowBytes(UmmaLayout layout) { return swizzleMode(layout).rowBytes; }

/// The shared address that logical address `address` occupies under the
/// layout's swizzle, applied to absolute address bits as TMA writes them:
/// 32B: bit 4 ^= bit 7; 64B: bits [4,6) ^= [7,9); 128B: bits [4,7) ^= [7,10);
/// 128B_BASE32B: bits [5,7) ^= [7,9) (CuTe Swizzle<2,5,2>).
constexpr uint32_t ummaSwizzle(uint32_t address, UmmaLayout layout) {
  const SwizzleMode &mode = swizzleMode(layout);
  uint32_t moved = ((uint32_t(1) << mode.bits) - 1) << mode.base;
  return address ^ ((address >> mode.shift) & moved);
}

} // namespace cutec::hw

#endif
