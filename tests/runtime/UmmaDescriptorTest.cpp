// The UMMA descriptors, field by field, against the bit positions of CUTLASS
// include/cute/arch/mma_sm100_desc.hpp (UMMA::SmemDescriptor,
// UMMA::InstrDescriptor, UMMA::InstrDescriptorBlockScaled): every field is
// set alone, by shifting a value to the position CUTLASS gives, and must
// decode to that value with every other field zero.
#include "runtime/tensorcore/UmmaDescriptors.h"

#include <gtest/gtest.h>

namespace cutec::rt {
namespace {

uint64_t bits64(uint64_t value, unsigned lo) { return value << lo; }

TEST(SmemDescriptor, StartAddressIsBits0To13InUnitsOf16Bytes) {
  SmemMatrixDescriptor d = decodeSmemDescriptor(bits64(0x3FFF, 0));
  EXPECT_EQ(d.startAddress, 0x3FFFu << 4);
  EXPECT_EQ(d.leadingByteOffset, 0u);
  EXPECT_EQ(d.strideByteOffset, 0u);
  EXPECT_EQ(decodeSmemDescriptor(bits64(0x41, 0)).startAddress, 0x410u);
}

TEST(SmemDescriptor, LeadingByteOffsetIsBits16To29) {
  SmemMatrixDescriptor d = decodeSmemDescriptor(bits64(0x2A5, 16));
  EXPECT_EQ(d.leadingByteOffset, 0x2A5u << 4);
  EXPECT_EQ(d.startAddress, 0u);
  EXPECT_EQ(d.strideByteOffset, 0u);
}

TEST(SmemDescriptor, StrideByteOffsetIsBits32To45) {
  SmemMatrixDescriptor d = decodeSmemDescriptor(bits64(0x3FFF, 32));
  EXPECT_EQ(d.strideByteOffset, 0x3FFFu << 4);
  EXPECT_EQ(d.version, 0u);
  EXPECT_EQ(d.leadingByteOffset, 0u);
}

TEST(SmemDescriptor, VersionIsBits46To47) {
  EXPECT_EQ(decodeSmemDescriptor(bits64(1, 46)).version, 1u);
  EXPECT_EQ(decodeSmemDescriptor(bits64(3, 46)).version, 3u);
  EXPECT_EQ(decodeSmemDescriptor(bits64(1, 46)).strideByteOffset, 0u);
}

TEST(SmemDescriptor, BaseOffsetIsBits49To51AndLboModeBit52) {
  SmemMatrixDescriptor d = decodeSmemDescriptor(bits64(5, 49));
  EXPECT_EQ(d.baseOffset, 5u);
  EXPECT_FALSE(d.lboAbsolute);
  EXPECT_EQ(d.reservedBits, 0u);
  d = decodeSmemDescriptor(bits64(1, 52));
  EXPECT_TRUE(d.lboAbsolute);
  EXPECT_EQ(d.baseOffset, 0u);
}

TEST(SmemDescriptor, LayoutTypeIsBits61To63) {
  // UMMA::LayoutType: SWIZZLE_NONE 0, 128B_BASE32B 1, 128B 2, 64B 4, 32B 6.
  for (uint64_t code : {0, 1, 2, 4, 6, 7}) {
    SmemMatrixDescriptor d = decodeSmemDescriptor(bits64(code, 61));
    EXPECT_EQ(d.layoutCode, code);
    EXPECT_EQ(d.reservedBits, 0u);
  }
  EXPECT_EQ(uint32_t(UmmaLayout::B128Base32B), 1u);
  EXPECT_EQ(uint32_t(UmmaLayout::B128), 2u);
  EXPECT_EQ(uint32_t(UmmaLayout::B64), 4u);
  EXPECT_EQ(uint32_t(UmmaLayout::B32), 6u);
}

TEST(SmemDescriptor, ReservedBitsAreKeptAndRejected) {
  for (unsigned bit : {14u, 15u, 30u, 31u, 48u, 53u, 60u}) {
    SmemMatrixDescriptor d = decodeSmemDescriptor(bits64(1, bit) | bits64(1, 46));
    EXPECT_EQ(d.reservedBits, uint64_t(1) << bit) << bit;
    EXPECT_NE(checkSmemDescriptor(d).find("reserved bits"), std::string::npos) << bit;
  }
}

TEST(SmemDescriptor, CheckNamesEachInvalidField) {
  SmemMatrixDescriptor d = decodeSmemDescriptor(bits64(1, 46) | bits64(2, 61));
  EXPECT_EQ(checkSmemDescriptor(d), "");
  d.version = 0;
  EXPECT_NE(checkSmemDescriptor(d).find("version field (bits 46-47) is 0"), std::string::npos);
  d.version = 1;
  d.layoutCode = 5;
  EXPECT_NE(checkSmemDescriptor(d).find("layout type (bits 61-63) is 5"), std::string::npos);
  d.layoutCode = 2;
  d.baseOffset = 1;
  EXPECT_NE(checkSmemDescriptor(d).find("base offset"), std::string::npos);
  d.baseOffset = 0;
  d.lboAbsolute = true;
  EXPECT_NE(checkSmemDescriptor(d).find("LBO mode"), std::string::npos);
}

TEST(SmemDescriptor, EncodeIsTheInverseOfDecode) {
  uint64_t all =
      bits64(0x123, 0) | bits64(0x2BC, 16) | bits64(0x3DE, 32) | bits64(1, 46) | bits64(6, 61);
  EXPECT_EQ(encodeSmemDescriptor(decodeSmemDescriptor(all)), all);
}

// ---------------------------------------------------------------------------
// Instruction descriptor, dense (UMMA::InstrDescriptor).

TEST(InstrDescriptor, DenseFields) {
  auto dense = [](uint32_t bits) { return decodeInstrDescriptor(bits, false); };
  EXPECT_EQ(dense(3u << 0).sparseId2, 3u);
  EXPECT_TRUE(dense(1u << 2).sparse);
  EXPECT_TRUE(dense(1u << 3).saturate);
  EXPECT_EQ(dense(2u << 4).dFormat, 2u); // CFormat: F16 0, F32 1, S32 2
  EXPECT_EQ(dense(2u << 4).bSfId, 0u);
  EXPECT_EQ(dense(5u << 7).aFormat, 5u);
  EXPECT_EQ(dense(5u << 7).bFormat, 0u);
  EXPECT_EQ(dense(4u << 10).bFormat, 4u);
  EXPECT_EQ(dense(4u << 10).aFormat, 0u);
  EXPECT_TRUE(dense(1u << 13).negateA);
  EXPECT_FALSE(dense(1u << 13).negateB);
  EXPECT_TRUE(dense(1u << 14).negateB);
  EXPECT_TRUE(dense(1u << 15).aMnMajor);
  EXPECT_FALSE(dense(1u << 15).bMnMajor);
  EXPECT_TRUE(dense(1u << 16).bMnMajor);
  EXPECT_EQ(dense(32u << 17).n, 256u); // n_dim_ = N >> 3
  EXPECT_EQ(dense(1u << 17).n, 8u);
  EXPECT_EQ(dense(8u << 24).m, 128u); // m_dim_ = M >> 4
  EXPECT_EQ(dense(4u << 24).m, 64u);
  EXPECT_EQ(dense(3u << 30).maxShift, 3u);
  for (unsigned bit : {6u, 23u, 29u})
    EXPECT_EQ(dense(1u << bit).reservedBits, 1u << bit) << bit;
  EXPECT_EQ(dense(0xFFFFFFFFu).reservedBits, (1u << 6) | (1u << 23) | (1u << 29));
}

TEST(InstrDescriptor, BlockScaledFields) {
  auto scaled = [](uint32_t bits) { return decodeInstrDescriptor(bits, true); };
  EXPECT_EQ(scaled(3u << 0).sparseId2, 3u);
  EXPECT_TRUE(scaled(1u << 2).sparse);
  EXPECT_EQ(scaled(2u << 4).bSfId, 2u);   // b_sf_id_ bits [4,6)
  EXPECT_EQ(scaled(2u << 4).dFormat, 1u); // no D format field: f32
  EXPECT_FALSE(scaled(1u << 3).saturate);
  EXPECT_EQ(scaled(1u << 3).reservedBits, 1u << 3);
  EXPECT_EQ(scaled(1u << 6).reservedBits, 1u << 6);
  EXPECT_EQ(scaled(1u << 7).aFormat, 1u);
  EXPECT_EQ(scaled(1u << 10).bFormat, 1u);
  EXPECT_TRUE(scaled(1u << 13).negateA);
  EXPECT_TRUE(scaled(1u << 14).negateB);
  EXPECT_TRUE(scaled(1u << 15).aMnMajor);
  EXPECT_TRUE(scaled(1u << 16).bMnMajor);
  EXPECT_EQ(scaled(16u << 17).n, 128u);
  EXPECT_TRUE(scaled(1u << 23).scaleUe8m0); // scale_format_: 0 UE4M3, 1 UE8M0
  EXPECT_FALSE(scaled(0).scaleUe8m0);
  EXPECT_EQ(scaled(8u << 24).m, 128u);
  EXPECT_EQ(scaled(3u << 29).aSfId, 3u); // a_sf_id_ bits [29,31)
  EXPECT_EQ(scaled(3u << 29).maxShift, 0u);
  EXPECT_TRUE(scaled(1u << 31).kSize);
  EXPECT_EQ(scaled(1u << 31).aSfId, 0u);
}

TEST(InstrDescriptor, SameBitsDifferentVariants) {
  // Bit 23 is reserved in the dense descriptor and the scale type when
  // block-scaled; bits 4-5 are the D format or the SFB id.
  EXPECT_FALSE(decodeInstrDescriptor(1u << 23, false).scaleUe8m0);
  EXPECT_EQ(decodeInstrDescriptor(1u << 23, false).reservedBits, 1u << 23);
  EXPECT_EQ(decodeInstrDescriptor(1u << 23, true).reservedBits, 0u);
  EXPECT_EQ(decodeInstrDescriptor(1u << 4, false).dFormat, 1u);
  EXPECT_EQ(decodeInstrDescriptor(1u << 4, true).bSfId, 1u);
}

// ---------------------------------------------------------------------------
// Canonical layouts: the chunk address function against the CuTe layouts of
// make_umma_desc, written here in units of 16 bytes.

uint32_t swz(uint32_t a, UmmaLayout l) {
  // CuTe Swizzle<B,M,S>: bits [M+S, M+S+B) xor'ed into [M, M+B).
  auto apply = [](uint32_t x, unsigned b, unsigned m, unsigned s) {
    uint32_t mask = ((1u << b) - 1) << (m + s);
    return x ^ ((x & mask) >> s);
  };
  switch (l) {
  case UmmaLayout::B32:
    return apply(a, 1, 4, 3);
  case UmmaLayout::B64:
    return apply(a, 2, 4, 3);
  case UmmaLayout::B128:
    return apply(a, 3, 4, 3);
  case UmmaLayout::B128Base32B:
    return apply(a, 2, 5, 2);
  default:
    return a;
  }
}

SmemMatrixDescriptor makeDesc(uint32_t start, uint32_t lbo, uint32_t sbo, UmmaLayout l) {
  SmemMatrixDescriptor d;
  d.startAddress = start;
  d.leadingByteOffset = lbo;
  d.strideByteOffset = sbo;
  d.version = 1;
  d.layoutCode = uint32_t(l);
  return d;
}

TEST(UmmaLayout, KMajorInterleave) {
  // ((8,n),2):((1,SBO),LBO) in 16-byte units.
  auto d = makeDesc(0x1000, 2048, 256, UmmaLayout::None);
  for (uint32_t r = 0; r < 128; ++r)
    for (uint32_t c = 0; c < 2; ++c)
      EXPECT_EQ(ummaChunkAddress(d, false, r, c),
                0x1000 + 16 * ((r % 8) * 1 + (r / 8) * (256 / 16) + c * (2048 / 16)));
}

TEST(UmmaLayout, KMajorSwizzled) {
  // ((8,n),2):((T,SBO),1), T = 2, 4, 8 for 32B, 64B, 128B, then the swizzle.
  for (UmmaLayout l : {UmmaLayout::B32, UmmaLayout::B64, UmmaLayout::B128}) {
    uint32_t t = ummaLayoutRowBytes(l) / 16;
    for (uint32_t kOffset : {0u, 32u, 96u}) {
      if (kOffset >= 16 * t)
        continue;
      auto d = makeDesc(0x2000 + kOffset, 16, 8 * 16 * t, l);
      for (uint32_t r = 0; r < 64; ++r)
        for (uint32_t c = 0; c < 2; ++c)
          EXPECT_EQ(ummaChunkAddress(d, false, r, c),
                    swz(0x2000 + kOffset + 16 * ((r % 8) * t + (r / 8) * 8 * t + c), l))
              << int(l) << " r " << r;
    }
  }
}

TEST(UmmaLayout, MnMajorInterleave) {
  // ((1,n),(8,k)):((X,SBO),(1,LBO)): SBO between MN chunks, LBO between 8-row K groups.
  auto d = makeDesc(0x1400, 4096, 128, UmmaLayout::None);
  for (uint32_t k = 0; k < 32; ++k)
    for (uint32_t c = 0; c < 16; ++c)
      EXPECT_EQ(ummaChunkAddress(d, true, k, c),
                0x1400 + 16 * (c * (128 / 16) + (k % 8) + (k / 8) * (4096 / 16)));
}

TEST(UmmaLayout, MnMajorSwizzled) {
  // ((T,n),(8,k)):((1,LBO),(T,SBO)).
  for (UmmaLayout l :
       {UmmaLayout::B32, UmmaLayout::B64, UmmaLayout::B128, UmmaLayout::B128Base32B}) {
    uint32_t t = ummaLayoutRowBytes(l) / 16;
    uint32_t sbo = 8 * 16 * t, lbo = 4 * sbo;
    auto d = makeDesc(0x4000, lbo, sbo, l);
    for (uint32_t k = 0; k < 32; ++k)
      for (uint32_t c = 0; c < 32; ++c)
        EXPECT_EQ(
            ummaChunkAddress(d, true, k, c),
            swz(0x4000 + 16 * (c % t + (c / t) * (lbo / 16) + (k % 8) * t + (k / 8) * (sbo / 16)),
                l))
            << int(l);
  }
}

} // namespace
} // namespace cutec::rt
