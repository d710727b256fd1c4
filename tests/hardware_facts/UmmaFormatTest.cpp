// tcgen05.mma's A/B format codes per kind (the PTX ISA's "Instruction
// descriptor" format table; CUTLASS UMMA::F16F32Format, S8Format,
// MXF8F6F4Format, MXF4Format) and the dense D format codes.
#include "hardware/UmmaFormat.h"

#include <gtest/gtest.h>

namespace cutec::hw {
namespace {

TEST(UmmaFormat, CodesOfEachKind) {
  EXPECT_EQ(ummaFormatCode(UmmaKind::F16, UmmaElement::F16), 0u);
  EXPECT_EQ(ummaFormatCode(UmmaKind::F16, UmmaElement::BF16), 1u);
  EXPECT_EQ(ummaFormatCode(UmmaKind::Tf32, UmmaElement::TF32), 2u);
  EXPECT_EQ(ummaFormatCode(UmmaKind::I8, UmmaElement::U8), 0u);
  EXPECT_EQ(ummaFormatCode(UmmaKind::I8, UmmaElement::S8), 1u);
  for (UmmaKind kind : {UmmaKind::F8f6f4, UmmaKind::Mxf8f6f4}) {
    EXPECT_EQ(ummaFormatCode(kind, UmmaElement::E4M3), 0u);
    EXPECT_EQ(ummaFormatCode(kind, UmmaElement::E5M2), 1u);
    EXPECT_EQ(ummaFormatCode(kind, UmmaElement::E2M3), 3u);
    EXPECT_EQ(ummaFormatCode(kind, UmmaElement::E3M2), 4u);
    EXPECT_EQ(ummaFormatCode(kind, UmmaElement::E2M1), 5u);
    EXPECT_EQ(ummaElementOfCode(kind, 2), std::nullopt);
  }
  for (UmmaKind kind : {UmmaKind::Mxf4, UmmaKind::Mxf4nvf4})
    EXPECT_EQ(ummaFormatCode(kind, UmmaElement::E2M1), 1u);
  EXPECT_EQ(ummaFormatCode(UmmaKind::F16, UmmaElement::TF32), std::nullopt);
  EXPECT_EQ(ummaFormatCode(UmmaKind::Mxf4, UmmaElement::E4M3), std::nullopt);
}

TEST(UmmaFormat, EveryRowRoundTrips) {
  // A code names one element within its kind.
  for (const UmmaFormatCode &row : kUmmaFormatCodes) {
    EXPECT_EQ(ummaFormatCode(row.kind, row.element), row.code);
    EXPECT_EQ(ummaElementOfCode(row.kind, row.code), row.element);
  }
}

TEST(UmmaFormat, BlockScaledKinds) {
  for (UmmaKind kind : {UmmaKind::F16, UmmaKind::Tf32, UmmaKind::F8f6f4, UmmaKind::I8})
    EXPECT_FALSE(isBlockScaled(kind));
  for (UmmaKind kind : {UmmaKind::Mxf8f6f4, UmmaKind::Mxf4, UmmaKind::Mxf4nvf4})
    EXPECT_TRUE(isBlockScaled(kind));
}

TEST(UmmaFormat, AccumulatorCodes) {
  // UMMA::CFormat: F16 0, F32 1, S32 2.
  EXPECT_EQ(uint32_t(UmmaDFormat::F16), 0u);
  EXPECT_EQ(uint32_t(UmmaDFormat::F32), 1u);
  EXPECT_EQ(uint32_t(UmmaDFormat::S32), 2u);
}

} // namespace
} // namespace cutec::hw
