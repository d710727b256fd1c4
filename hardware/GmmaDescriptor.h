//===- GmmaDescriptor.h - wgmma's shared-memory matrix descriptor ---------===//
//
// The 64-bit matrix descriptor of wgmma.mma_async (sm_90a): PTX ISA "Matrix
// Descriptor Format" and CUTLASS include/cute/arch/mma_sm90_desc.hpp
// (GmmaDescriptor). Start address, LBO, SBO and base offset sit where
// tcgen05's descriptor has them, and mean the same (CUTLASS make_gmma_desc
// describes the canonical layouts make_umma_desc does); there is no version
// field, and the layout type is two bits of its own codes (SwizzleMode.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_HARDWARE_GMMADESCRIPTOR_H
#define CUTEC_HARDWARE_GMMADESCRIPTOR_H

#include "hardware/UmmaDescriptor.h"

namespace cutec::hw {

/// The fields of wgmma's descriptor.
namespace gmma_smem {
using umma_smem::kBaseOffset;
using umma_smem::kLeadingByteOffset;
using umma_smem::kStartAddress;
using umma_smem::kStrideByteOffset;
inline constexpr BitField kLayoutType{62, 2}; // SwizzleMode::gmmaLayoutType
/// Bits 14-15, 30-31, 46-48 and 52-61.
inline constexpr uint64_t kUnusedBits = bitsOutside(
    {kStartAddress, kLeadingByteOffset, kStrideByteOffset, kBaseOffset, kLayoutType}, 64);
} // namespace gmma_smem

/// The descriptor's fields, its layout type translated to the UmmaLayout
/// code of the same swizzle (version 0: wgmma descriptors have none); the
/// unused bits as found in reservedBits.
constexpr SmemMatrixDescriptor decodeGmmaDescriptor(uint64_t bits) {
  using namespace gmma_smem;
  SmemMatrixDescriptor d = decodeSharedDescriptorFields(bits);
  d.layoutCode = uint32_t(swizzleModeOfGmmaCode(uint32_t(kLayoutType.get(bits)))->umma);
  d.reservedBits = bits & kUnusedBits;
  return d;
}

/// A descriptor of those fields (byte quantities in bytes); a layout that
/// wgmma does not have is encoded as no swizzle.
constexpr uint64_t encodeGmmaDescriptor(uint32_t startAddress, uint32_t leadingByteOffset,
                                        uint32_t strideByteOffset, UmmaLayout layout) {
  using namespace gmma_smem;
  int type = swizzleMode(layout).gmmaLayoutType;
  return kStartAddress.put(startAddress >> kDescriptorUnitShift) |
         kLeadingByteOffset.put(leadingByteOffset >> kDescriptorUnitShift) |
         kStrideByteOffset.put(strideByteOffset >> kDescriptorUnitShift) |
         kLayoutType.put(type < 0 ? 0 : uint64_t(type));
}

} // namespace cutec::hw

#endif
