// Element types: spellings, widths and classes round-trip.
#include "ir/core/DataType.h"

#include <gtest/gtest.h>

namespace cutec::ir {
namespace {

TEST(DataType, SpellingsRoundTrip) {
  for (const char *spelling : {"bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                               "f4e2m1", "f6e3m2", "f6e2m3", "f8e4m3", "f8e5m2", "ue4m3", "ue8m0",
                               "f16", "bf16", "tf32", "f32"}) {
    auto t = parseDataType(spelling);
    ASSERT_TRUE(t) << spelling;
    EXPECT_EQ(name(*t), spelling);
  }
  EXPECT_FALSE(parseDataType("f128"));
}

TEST(DataType, WidthsAndClasses) {
  EXPECT_EQ(bitWidth(DataType::F4E2M1), 4u);
  EXPECT_EQ(bitWidth(DataType::F6E2M3), 6u);
  EXPECT_EQ(bitWidth(DataType::UE8M0), 8u);
  EXPECT_EQ(bitWidth(DataType::TF32), 32u);
  EXPECT_TRUE(isStorageOnlyFloat(DataType::F8E4M3));
  EXPECT_FALSE(isStorageOnlyFloat(DataType::F16));
  EXPECT_TRUE(isInteger(DataType::U64));
  EXPECT_FALSE(isInteger(DataType::Bool));
}

} // namespace
} // namespace cutec::ir
