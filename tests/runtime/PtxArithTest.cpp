// The integer instructions of runtime/numerics/PtxArith.h against their PTX ISA
// definitions: prmt.b32 (default mode) and shr.s32.
#include "runtime/numerics/PtxArith.h"

#include <gtest/gtest.h>

namespace cutec::rt::ptx {
namespace {

TEST(PtxArith, PrmtSelectsBytesOfBThenA) {
  const uint32_t a = 0x44332211, b = 0x88776655;
  EXPECT_EQ(prmtB32(a, b, 0x3210), a);
  EXPECT_EQ(prmtB32(a, b, 0x7654), b);
  EXPECT_EQ(prmtB32(a, b, 0x0123), 0x11223344u);
  EXPECT_EQ(prmtB32(a, b, 0x4567), 0x55667788u);
  // The byte alone with zeros above, as isel extracts a byte of codes.
  for (uint32_t j = 0; j < 4; ++j)
    EXPECT_EQ(prmtB32(a, 0, 0x4440 | j), (a >> (8 * j)) & 0xFF);
  // Bit 3 of a selector replicates the sign of the selected byte.
  EXPECT_EQ(prmtB32(0x000080FF, 0, 0x4489), 0x0000FFFFu);
  EXPECT_EQ(prmtB32(0x00007F01, 0, 0x4409), 0x00000100u);
}

TEST(PtxArith, ShrS32FillsWithTheSign) {
  EXPECT_EQ(shrS32(0x80000000u, 31), 0xFFFFFFFFu);
  EXPECT_EQ(shrS32(0x7FFFFFFFu, 30), 1u);
  EXPECT_EQ(shrS32(0xFFFFFFF0u, 2), 0xFFFFFFFCu);
  EXPECT_EQ(shrS32(0x80000000u, 40), 0xFFFFFFFFu);
  EXPECT_EQ(shrS32(0x40000000u, 40), 0u);
}

} // namespace
} // namespace cutec::rt::ptx
