// BitField: the get/put pair every descriptor header is written with.
#include "hardware/BitField.h"

#include <gtest/gtest.h>

namespace cutec::hw {
namespace {

TEST(BitField, MaskGetAndPut) {
  constexpr BitField f{16, 14};
  EXPECT_EQ(f.max(), 0x3FFFu);
  EXPECT_EQ(f.mask(), uint64_t(0x3FFF) << 16);
  EXPECT_EQ(f.put(0x2A5), uint64_t(0x2A5) << 16);
  EXPECT_EQ(f.get(uint64_t(0x2A5) << 16 | 0xFFFF | uint64_t(3) << 30), 0x2A5u);
}

TEST(BitField, PutTruncatesToTheWidth) {
  constexpr BitField f{61, 3};
  EXPECT_EQ(f.put(0xF), uint64_t(7) << 61);
  EXPECT_EQ(f.get(f.put(9)), 1u);
}

TEST(BitField, BitsOutsideTheFields) {
  EXPECT_EQ(bitsOutside({{0, 2}, {4, 4}}, 8), 0b1100u);
  EXPECT_EQ(bitsOutside({{0, 32}}, 64), uint64_t(0xFFFFFFFF) << 32);
  EXPECT_EQ(bitsOutside({}, 64), ~uint64_t(0));
}

} // namespace
} // namespace cutec::hw
