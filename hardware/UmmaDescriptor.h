//===- UmmaDescriptor.h - tcgen05.mma's two descriptors, bit by bit --------===//
//
// tcgen05.mma reads A and B from shared memory through 64-bit matrix
// descriptors and learns its shape and formats from a 32-bit instruction
// descriptor. Their fields are those of the PTX ISA's tcgen05 tables
// "Shared memory descriptor" and "Instruction descriptor", as CUTLASS
// include/cute/arch/mma_sm100_desc.hpp spells them (UMMA::SmemDescriptor,
// UMMA::InstrDescriptor, UMMA::InstrDescriptorBlockScaled). lower-mma
// encodes them (passes/lowering/UmmaDescriptors.h), the emulator decodes
// them (runtime/tensorcore/UmmaDescriptors.h); docs/emulator.md has the
// tables.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_HARDWARE_UMMADESCRIPTOR_H
#define CUTEC_HARDWARE_UMMADESCRIPTOR_H

#include "hardware/BitField.h"
#include "hardware/SwizzleMode.h"
#include "hardware/UmmaFormat.h"

#include <cstdint>

namespace cutec::hw {

/// Matrix descriptors hold addresses and byte offsets in 16-byte units.
inline constexpr unsigned kDescriptorUnitShift = 4;

/// The fields of tcgen05's shared-memory matrix descriptor.
namespace umma_smem {
inline constexpr BitField kStartAddress{0, 14};
inline constexpr BitField kLeadingByteOffset{16, 14}; // LBO
inline constexpr BitField kStrideByteOffset{32, 14};  // SBO
inline constexpr BitField kVersion{46, 2};
inline constexpr BitField kBaseOffset{49, 3};
inline constexpr BitField kLboMode{52, 1};    // 1: LBO is an absolute address
inline constexpr BitField kLayoutType{61, 3}; // a UmmaLayout
/// Bits 14-15, 30-31, 48 and 53-60.
inline constexpr uint64_t kReservedBits =
    bitsOutside({kStartAddress, kLeadingByteOffset, kStrideByteOffset, kVersion, kBaseOffset,
                 kLboMode, kLayoutType},
                64);
/// The version field of every sm_100 descriptor.
inline constexpr uint32_t kSm100Version = 1;
} // namespace umma_smem

/// A decoded shared-memory matrix descriptor, tcgen05's or wgmma's
/// (hardware/GmmaDescriptor.h). Byte quantities are in bytes (the 16-byte
/// units shifted back).
struct SmemMatrixDescriptor {
  uint32_t startAddress = 0;
  uint32_t leadingByteOffset = 0; // LBO
  uint32_t strideByteOffset = 0;  // SBO
  uint32_t version = 0;           // 1 on sm_100; wgmma's have none
  uint32_t baseOffset = 0;
  bool lboAbsolute = false;  // the LBO mode bit (0: relative offset)
  uint32_t layoutCode = 0;   // a UmmaLayout, or 3/5/7 (invalid)
  uint64_t reservedBits = 0; // bits without a field, as found (must be 0)
};

/// The fields tcgen05's and wgmma's descriptors keep in the same bits:
/// start address, LBO, SBO and base offset; the others are left 0.
constexpr SmemMatrixDescriptor decodeSharedDescriptorFields(uint64_t bits) {
  using namespace umma_smem;
  SmemMatrixDescriptor d;
  d.startAddress = uint32_t(kStartAddress.get(bits) << kDescriptorUnitShift);
  d.leadingByteOffset = uint32_t(kLeadingByteOffset.get(bits) << kDescriptorUnitShift);
  d.strideByteOffset = uint32_t(kStrideByteOffset.get(bits) << kDescriptorUnitShift);
  d.baseOffset = uint32_t(kBaseOffset.get(bits));
  return d;
}

constexpr SmemMatrixDescriptor decodeSmemDescriptor(uint64_t bits) {
  using namespace umma_smem;
  SmemMatrixDescriptor d = decodeSharedDescriptorFields(bits);
  d.version = uint32_t(kVersion.get(bits));
  d.lboAbsolute = kLboMode.get(bits) != 0;
  d.layoutCode = uint32_t(kLayoutType.get(bits));
  d.reservedBits = bits & kReservedBits;
  return d;
}

/// The inverse of decodeSmemDescriptor, for tests and tools: fields are
/// truncated to their widths; reservedBits are set as they are.
constexpr uint64_t encodeSmemDescriptor(const SmemMatrixDescriptor &d) {
  using namespace umma_smem;
  return kStartAddress.put(d.startAddress >> kDescriptorUnitShift) |
         kLeadingByteOffset.put(d.leadingByteOffset >> kDescriptorUnitShift) |
         kStrideByteOffset.put(d.strideByteOffset >> kDescriptorUnitShift) |
         kVersion.put(d.version) | kBaseOffset.put(d.baseOffset) | kLboMode.put(d.lboAbsolute) |
         kLayoutType.put(d.layoutCode) | d.reservedBits;
}

/// The fields of tcgen05.mma's instruction descriptor. Bits 4-5, 23 and
/// 29-31 mean different things in the dense and the block-scaled variant.
namespace umma_instr {
inline constexpr BitField kSparseId2{0, 2};
inline constexpr BitField kSparse{2, 1};
inline constexpr BitField kSaturate{3, 1}; // dense
inline constexpr BitField kDFormat{4, 2};  // dense: a UmmaDFormat
inline constexpr BitField kBSfId{4, 2};    // block-scaled: byte of the SFB column
inline constexpr BitField kAFormat{7, 3};
inline constexpr BitField kBFormat{10, 3};
inline constexpr BitField kNegateA{13, 1};
inline constexpr BitField kNegateB{14, 1};
inline constexpr BitField kAMajor{15, 1}; // 0 K-major, 1 MN-major
inline constexpr BitField kBMajor{16, 1};
inline constexpr BitField kN{17, 6};           // N >> 3
inline constexpr BitField kScaleFormat{23, 1}; // block-scaled: 0 ue4m3, 1 ue8m0
inline constexpr BitField kM{24, 5};           // M >> 4
inline constexpr BitField kASfId{29, 2};       // block-scaled: byte of the SFA column
inline constexpr BitField kMaxShift{30, 2};    // dense (.ws only)
inline constexpr BitField kKSize{31, 1};       // block-scaled (K96 for mxf4)
inline constexpr unsigned kNShift = 3, kMShift = 4;
/// Bits 6, 23 and 29.
inline constexpr uint32_t kDenseReservedBits =
    uint32_t(bitsOutside({kSparseId2, kSparse, kSaturate, kDFormat, kAFormat, kBFormat, kNegateA,
                          kNegateB, kAMajor, kBMajor, kN, kM, kMaxShift},
                         32));
/// Bits 3 and 6.
inline constexpr uint32_t kBlockScaledReservedBits =
    uint32_t(bitsOutside({kSparseId2, kSparse, kBSfId, kAFormat, kBFormat, kNegateA, kNegateB,
                          kAMajor, kBMajor, kN, kScaleFormat, kM, kASfId, kKSize},
                         32));
} // namespace umma_instr

/// A decoded instruction descriptor. Fields that only one variant has are
/// 0 (false) in the other, except dFormat, which is F32 when block-scaled.
struct MmaInstrDescriptor {
  uint32_t sparseId2 = 0;
  bool sparse = false;
  bool saturate = false;
  uint32_t dFormat = 0; // a UmmaDFormat
  uint32_t bSfId = 0;
  uint32_t aFormat = 0; // a code of the kind's table (UmmaFormat.h)
  uint32_t bFormat = 0;
  bool negateA = false;
  bool negateB = false;
  bool aMnMajor = false; // transpose A: 0 K-major, 1 MN-major
  bool bMnMajor = false;
  uint32_t n = 0;
  bool scaleUe8m0 = false;
  uint32_t m = 0;
  uint32_t aSfId = 0;
  uint32_t maxShift = 0;
  bool kSize = false;
  uint32_t reservedBits = 0; // the variant's reserved bits as found
};

constexpr MmaInstrDescriptor decodeInstrDescriptor(uint32_t bits, bool blockScaled) {
  using namespace umma_instr;
  MmaInstrDescriptor d;
  d.sparseId2 = uint32_t(kSparseId2.get(bits));
  d.sparse = kSparse.get(bits) != 0;
  d.aFormat = uint32_t(kAFormat.get(bits));
  d.bFormat = uint32_t(kBFormat.get(bits));
  d.negateA = kNegateA.get(bits) != 0;
  d.negateB = kNegateB.get(bits) != 0;
  d.aMnMajor = kAMajor.get(bits) != 0;
  d.bMnMajor = kBMajor.get(bits) != 0;
  d.n = uint32_t(kN.get(bits) << kNShift);
  d.m = uint32_t(kM.get(bits) << kMShift);
  if (blockScaled) {
    d.dFormat = uint32_t(UmmaDFormat::F32);
    d.bSfId = uint32_t(kBSfId.get(bits));
    d.scaleUe8m0 = kScaleFormat.get(bits) != 0;
    d.aSfId = uint32_t(kASfId.get(bits));
    d.kSize = kKSize.get(bits) != 0;
    d.reservedBits = bits & kBlockScaledReservedBits;
  } else {
    d.saturate = kSaturate.get(bits) != 0;
    d.dFormat = uint32_t(kDFormat.get(bits));
    d.maxShift = uint32_t(kMaxShift.get(bits));
    d.reservedBits = bits & kDenseReservedBits;
  }
  return d;
}

/// The inverse of decodeInstrDescriptor: the variant's fields, truncated to
/// their widths.
constexpr uint32_t encodeInstrDescriptor(const MmaInstrDescriptor &d, bool blockScaled) {
  using namespace umma_instr;
  uint64_t bits = kSparseId2.put(d.sparseId2) | kSparse.put(d.sparse) | kAFormat.put(d.aFormat) |
                  kBFormat.put(d.bFormat) | kNegateA.put(d.negateA) | kNegateB.put(d.negateB) |
                  kAMajor.put(d.aMnMajor) | kBMajor.put(d.bMnMajor) | kN.put(d.n >> kNShift) |
                  kM.put(d.m >> kMShift);
  if (blockScaled)
    bits |= kBSfId.put(d.bSfId) | kScaleFormat.put(d.scaleUe8m0) | kASfId.put(d.aSfId) |
            kKSize.put(d.kSize) | (d.reservedBits & kBlockScaledReservedBits);
  else
    bits |= kSaturate.put(d.saturate) | kDFormat.put(d.dFormat) | kMaxShift.put(d.maxShift) |
            (d.reservedBits & kDenseReservedBits);
  return uint32_t(bits);
}

} // namespace cutec::hw

#endif
