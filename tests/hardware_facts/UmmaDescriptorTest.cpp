// tcgen05's descriptors: every field round-trips through decode and encode,
// the fields and the reserved bits tile each word, and descriptors that
// lower-mma emits (tests/lit/passes/lower-mma-block-scaled.test) decode to
// the values the PTX ISA's tables give them.
#include "hardware/UmmaDescriptor.h"

#include <gtest/gtest.h>

#include <vector>

namespace cutec::hw {
namespace {

/// The fields do not overlap, and with the reserved bits they cover `word`.
void expectFieldsTile(const std::vector<BitField> &fields, uint64_t reserved, uint64_t word) {
  uint64_t covered = reserved;
  for (BitField f : fields) {
    EXPECT_EQ(covered & f.mask(), 0u) << "field at bit " << f.lo << " overlaps another";
    covered |= f.mask();
  }
  EXPECT_EQ(covered, word);
}

TEST(UmmaSmemDescriptor, FieldsAndReservedBitsTileTheWord) {
  using namespace umma_smem;
  expectFieldsTile({kStartAddress, kLeadingByteOffset, kStrideByteOffset, kVersion, kBaseOffset,
                    kLboMode, kLayoutType},
                   kReservedBits, ~uint64_t(0));
  EXPECT_EQ(kReservedBits,
            uint64_t(3) << 14 | uint64_t(3) << 30 | uint64_t(1) << 48 | uint64_t(0xFF) << 53);
}

TEST(UmmaSmemDescriptor, EveryFieldRoundTrips) {
  using namespace umma_smem;
  for (BitField f : {kStartAddress, kLeadingByteOffset, kStrideByteOffset, kVersion, kBaseOffset,
                     kLboMode, kLayoutType})
    for (uint64_t value : {uint64_t(1), f.max()}) {
      uint64_t bits = f.put(value);
      EXPECT_EQ(encodeSmemDescriptor(decodeSmemDescriptor(bits)), bits) << "bit " << f.lo;
    }
  for (unsigned bit = 0; bit < 64; ++bit) {
    if (kReservedBits >> bit & 1) {
      EXPECT_EQ(decodeSmemDescriptor(uint64_t(1) << bit).reservedBits, uint64_t(1) << bit);
    }
  }
  EXPECT_EQ(encodeSmemDescriptor(decodeSmemDescriptor(~uint64_t(0))), ~uint64_t(0));
}

TEST(UmmaSmemDescriptor, FieldsInBytes) {
  SmemMatrixDescriptor d = decodeSmemDescriptor(
      umma_smem::kStartAddress.put(0x140) | umma_smem::kLeadingByteOffset.put(1) |
      umma_smem::kStrideByteOffset.put(64) | umma_smem::kVersion.put(1) |
      umma_smem::kBaseOffset.put(5) | umma_smem::kLboMode.put(1) | umma_smem::kLayoutType.put(4));
  EXPECT_EQ(d.startAddress, 0x1400u);
  EXPECT_EQ(d.leadingByteOffset, 16u);
  EXPECT_EQ(d.strideByteOffset, 1024u);
  EXPECT_EQ(d.version, 1u);
  EXPECT_EQ(d.baseOffset, 5u);
  EXPECT_TRUE(d.lboAbsolute);
  EXPECT_EQ(UmmaLayout(d.layoutCode), UmmaLayout::B64);
  EXPECT_EQ(d.reservedBits, 0u);
}

TEST(UmmaSmemDescriptor, AKMajor128ByteSwizzledOperand) {
  // a_desc = 4611756662049538048 = 0x4000404000010000 in lower-mma's output:
  // LBO 1 (16 bytes), SBO 64 (1024 bytes: 8 rows of 128), version 1, 128B
  // swizzle, start address 0 (isel ors it in at run time).
  constexpr uint64_t bits = 4611756662049538048u;
  SmemMatrixDescriptor d = decodeSmemDescriptor(bits);
  EXPECT_EQ(d.startAddress, 0u);
  EXPECT_EQ(d.leadingByteOffset, 16u);
  EXPECT_EQ(d.strideByteOffset, 1024u);
  EXPECT_EQ(d.version, umma_smem::kSm100Version);
  EXPECT_EQ(UmmaLayout(d.layoutCode), UmmaLayout::B128);
  EXPECT_EQ(d.reservedBits, 0u);
  EXPECT_EQ(encodeSmemDescriptor(d), bits);
}

TEST(UmmaSmemDescriptor, SharedFieldsAlone) {
  SmemMatrixDescriptor d = decodeSharedDescriptorFields(~uint64_t(0));
  EXPECT_EQ(d.startAddress, 0x3FFFu << 4);
  EXPECT_EQ(d.leadingByteOffset, 0x3FFFu << 4);
  EXPECT_EQ(d.strideByteOffset, 0x3FFFu << 4);
  EXPECT_EQ(d.baseOffset, 7u);
  EXPECT_EQ(d.version, 0u);
  EXPECT_EQ(d.layoutCode, 0u);
  EXPECT_EQ(d.reservedBits, 0u);
}

TEST(UmmaInstrDescriptor, FieldsAndReservedBitsTileTheWord) {
  using namespace umma_instr;
  expectFieldsTile({kSparseId2, kSparse, kSaturate, kDFormat, kAFormat, kBFormat, kNegateA,
                    kNegateB, kAMajor, kBMajor, kN, kM, kMaxShift},
                   kDenseReservedBits, 0xFFFFFFFFu);
  expectFieldsTile({kSparseId2, kSparse, kBSfId, kAFormat, kBFormat, kNegateA, kNegateB, kAMajor,
                    kBMajor, kN, kScaleFormat, kM, kASfId, kKSize},
                   kBlockScaledReservedBits, 0xFFFFFFFFu);
  EXPECT_EQ(kDenseReservedBits, 1u << 6 | 1u << 23 | 1u << 29);
  EXPECT_EQ(kBlockScaledReservedBits, 1u << 3 | 1u << 6);
}

TEST(UmmaInstrDescriptor, EveryBitRoundTripsInBothVariants) {
  for (bool blockScaled : {false, true}) {
    for (unsigned bit = 0; bit < 32; ++bit) {
      uint32_t bits = 1u << bit;
      EXPECT_EQ(encodeInstrDescriptor(decodeInstrDescriptor(bits, blockScaled), blockScaled), bits)
          << "bit " << bit << (blockScaled ? " block-scaled" : " dense");
    }
    for (uint32_t bits : {0u, 0xFFFFFFFFu, 0x08400480u, 0x28C00010u})
      EXPECT_EQ(encodeInstrDescriptor(decodeInstrDescriptor(bits, blockScaled), blockScaled), bits);
  }
}

TEST(UmmaInstrDescriptor, DenseF16AccumulatingInF32) {
  // bf16 x f16 (codes 1 and 0), D f32, A K-major, B MN-major, M 128, N 256.
  MmaInstrDescriptor d;
  d.dFormat = uint32_t(UmmaDFormat::F32);
  d.aFormat = 1;
  d.bMnMajor = true;
  d.m = 128;
  d.n = 256;
  constexpr uint32_t bits = 1u << 4 | 1u << 7 | 1u << 16 | (256u >> 3) << 17 | (128u >> 4) << 24;
  EXPECT_EQ(encodeInstrDescriptor(d, false), bits);
  MmaInstrDescriptor back = decodeInstrDescriptor(bits, false);
  EXPECT_EQ(back.m, 128u);
  EXPECT_EQ(back.n, 256u);
  EXPECT_TRUE(back.bMnMajor);
  EXPECT_FALSE(back.aMnMajor);
}

TEST(UmmaInstrDescriptor, BlockScaledValuesOfLowerMma) {
  // idesc 138413184 = 0x08400480: mxf4nvf4, e2m1 x e2m1 (format 1), N 256,
  // ue4m3 factors, M 128, SF ids 0.
  MmaInstrDescriptor d = decodeInstrDescriptor(138413184u, true);
  EXPECT_EQ(d.aFormat, 1u);
  EXPECT_EQ(d.bFormat, 1u);
  EXPECT_EQ(d.n, 256u);
  EXPECT_EQ(d.m, 128u);
  EXPECT_FALSE(d.scaleUe8m0);
  EXPECT_EQ(d.aSfId, 0u);
  EXPECT_EQ(d.bSfId, 0u);
  EXPECT_EQ(d.dFormat, uint32_t(UmmaDFormat::F32));
  EXPECT_EQ(d.reservedBits, 0u);
  // idesc 683671568 = 0x28C00010: mxf8f6f4 e4m3 (format 0), ue8m0 factors,
  // the second instruction of a K tile: SFA and SFB ids 1.
  d = decodeInstrDescriptor(683671568u, true);
  EXPECT_EQ(d.aFormat, 0u);
  EXPECT_TRUE(d.scaleUe8m0);
  EXPECT_EQ(d.aSfId, 1u);
  EXPECT_EQ(d.bSfId, 1u);
  EXPECT_EQ(d.n, 256u);
  EXPECT_EQ(d.m, 128u);
}

} // namespace
} // namespace cutec::hw
