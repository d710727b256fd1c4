// The swizzle table: the layout-type codes of CUTLASS's UMMA::LayoutType and
// GMMA::LayoutType, and the address function of each swizzle.
#include "hardware/SwizzleMode.h"

#include <gtest/gtest.h>

namespace cutec::hw {
namespace {

TEST(SwizzleMode, UmmaLayoutCodes) {
  // UMMA::LayoutType: SWIZZLE_NONE 0, SWIZZLE_128B_BASE32B 1, SWIZZLE_128B 2,
  // SWIZZLE_64B 4, SWIZZLE_32B 6.
  EXPECT_EQ(uint32_t(UmmaLayout::None), 0u);
  EXPECT_EQ(uint32_t(UmmaLayout::B128Base32B), 1u);
  EXPECT_EQ(uint32_t(UmmaLayout::B128), 2u);
  EXPECT_EQ(uint32_t(UmmaLayout::B64), 4u);
  EXPECT_EQ(uint32_t(UmmaLayout::B32), 6u);
  for (uint32_t code : {3u, 5u, 7u})
    EXPECT_EQ(swizzleModeOfUmmaCode(code), nullptr) << code;
  for (const SwizzleMode &mode : kSwizzleModes)
    EXPECT_EQ(swizzleModeOfUmmaCode(uint32_t(mode.umma)), &mode);
}

TEST(SwizzleMode, GmmaLayoutCodes) {
  // GMMA::LayoutType: INTERLEAVE 0, B128 1, B64 2, B32 3.
  EXPECT_EQ(swizzleModeOfGmmaCode(0)->umma, UmmaLayout::None);
  EXPECT_EQ(swizzleModeOfGmmaCode(1)->umma, UmmaLayout::B128);
  EXPECT_EQ(swizzleModeOfGmmaCode(2)->umma, UmmaLayout::B64);
  EXPECT_EQ(swizzleModeOfGmmaCode(3)->umma, UmmaLayout::B32);
  EXPECT_EQ(swizzleModeOfGmmaCode(4), nullptr);
  EXPECT_LT(swizzleMode(UmmaLayout::B128Base32B).gmmaLayoutType, 0);
}

TEST(SwizzleMode, CuteSwizzles) {
  EXPECT_EQ(swizzleModeOf(0, 0, 0)->umma, UmmaLayout::None);
  EXPECT_EQ(swizzleModeOf(1, 4, 3)->umma, UmmaLayout::B32);
  EXPECT_EQ(swizzleModeOf(2, 4, 3)->umma, UmmaLayout::B64);
  EXPECT_EQ(swizzleModeOf(3, 4, 3)->umma, UmmaLayout::B128);
  EXPECT_EQ(swizzleModeOf(2, 5, 2)->umma, UmmaLayout::B128Base32B);
  EXPECT_EQ(swizzleModeOf(3, 3, 3), nullptr);
  // The span is 16 bytes times 2^bits, except for the 32B-atom layout.
  for (UmmaLayout l : {UmmaLayout::None, UmmaLayout::B32, UmmaLayout::B64, UmmaLayout::B128})
    EXPECT_EQ(ummaLayoutRowBytes(l), 16u << swizzleMode(l).bits);
  EXPECT_EQ(ummaLayoutRowBytes(UmmaLayout::B128Base32B), 128u);
}

TEST(SwizzleMode, AddressFunctions) {
  for (uint32_t a = 0; a < 4096; a += 16) {
    EXPECT_EQ(ummaSwizzle(a, UmmaLayout::None), a);
    EXPECT_EQ(ummaSwizzle(a, UmmaLayout::B32), a ^ ((a >> 3) & 0x10)) << a;
    EXPECT_EQ(ummaSwizzle(a, UmmaLayout::B64), a ^ ((a >> 3) & 0x30)) << a;
    EXPECT_EQ(ummaSwizzle(a, UmmaLayout::B128), a ^ ((a >> 3) & 0x70)) << a;
    EXPECT_EQ(ummaSwizzle(a, UmmaLayout::B128Base32B), a ^ ((a >> 2) & 0x60)) << a;
  }
  // Row 1 of a 128-byte swizzle moves chunk 0 to chunk 1.
  EXPECT_EQ(ummaSwizzle(0x1080, UmmaLayout::B128), 0x1090u);
}

} // namespace
} // namespace cutec::hw
