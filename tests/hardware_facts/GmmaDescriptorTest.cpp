// wgmma's descriptor: the fields it shares with tcgen05's, its own layout
// type, and its unused bits.
#include "hardware/GmmaDescriptor.h"

#include <gtest/gtest.h>

namespace cutec::hw {
namespace {

TEST(GmmaDescriptor, UnusedBits) {
  EXPECT_EQ(gmma_smem::kUnusedBits,
            uint64_t(3) << 14 | uint64_t(3) << 30 | uint64_t(7) << 46 | uint64_t(0x3FF) << 52);
  // tcgen05's version bit is one of them.
  EXPECT_EQ(decodeGmmaDescriptor(umma_smem::kVersion.put(1)).reservedBits, uint64_t(1) << 46);
}

TEST(GmmaDescriptor, EveryFieldRoundTrips) {
  for (uint32_t start : {0u, 16u, 0x3FFFu << 4})
    for (uint32_t lbo : {0u, 16u, 0x3FFFu << 4})
      for (uint32_t sbo : {0u, 16u, 0x3FFFu << 4})
        for (UmmaLayout l :
             {UmmaLayout::None, UmmaLayout::B32, UmmaLayout::B64, UmmaLayout::B128}) {
          uint64_t bits = encodeGmmaDescriptor(start, lbo, sbo, l);
          SmemMatrixDescriptor d = decodeGmmaDescriptor(bits);
          EXPECT_EQ(d.startAddress, start);
          EXPECT_EQ(d.leadingByteOffset, lbo);
          EXPECT_EQ(d.strideByteOffset, sbo);
          EXPECT_EQ(UmmaLayout(d.layoutCode), l);
          EXPECT_EQ(d.version, 0u);
          EXPECT_EQ(d.reservedBits, 0u);
        }
  EXPECT_EQ(decodeGmmaDescriptor(gmma_smem::kBaseOffset.put(5)).baseOffset, 5u);
}

TEST(GmmaDescriptor, KnownValue) {
  // A 64B-swizzled operand at 0x1400, LBO 128, SBO 1024: layout type 2.
  uint64_t bits =
      0x1400 >> 4 | uint64_t(128 >> 4) << 16 | uint64_t(1024 >> 4) << 32 | uint64_t(2) << 62;
  EXPECT_EQ(encodeGmmaDescriptor(0x1400, 128, 1024, UmmaLayout::B64), bits);
  // wgmma has no 32B-atom layout: it is written as no swizzle.
  EXPECT_EQ(encodeGmmaDescriptor(0, 0, 0, UmmaLayout::B128Base32B), 0u);
}

} // namespace
} // namespace cutec::hw
