// Decoding of wgmma's shared-memory matrix descriptor.
#include "runtime/tensorcore/GmmaDescriptor.h"

#include "runtime/base/DiagnosticText.h"

namespace cutec::rt {
namespace {

constexpr uint64_t field(uint64_t bits, unsigned lo, unsigned width) {
  return (bits >> lo) & ((uint64_t(1) << width) - 1);
}

/// Bits 14-15, 30-31, 46-48 and 52-61: no field.
constexpr uint64_t kUnusedBits = uint64_t(3) << 14 | uint64_t(3) << 30 | uint64_t(7) << 46 |
                                 uint64_t(0x3FF) << 52;

/// UmmaLayout codes of the Hopper layout types 0-3.
constexpr UmmaLayout kLayouts[4] = {UmmaLayout::None, UmmaLayout::B128, UmmaLayout::B64,
                                    UmmaLayout::B32};

} // namespace

SmemMatrixDescriptor decodeGmmaDescriptor(uint64_t bits) {
  SmemMatrixDescriptor d = decodeSharedDescriptorFields(bits);
  d.layoutCode = uint32_t(kLayouts[field(bits, 62, 2)]);
  d.reservedBits = bits & kUnusedBits;
  return d;
}

uint64_t encodeGmmaDescriptor(uint32_t startAddress, uint32_t leadingByteOffset,
                              uint32_t strideByteOffset, UmmaLayout layout) {
  uint64_t type = 0;
  for (uint64_t code = 0; code < 4; ++code)
    if (kLayouts[code] == layout)
      type = code;
  return field(startAddress >> 4, 0, 14) | field(leadingByteOffset >> 4, 0, 14) << 16 |
         field(strideByteOffset >> 4, 0, 14) << 32 | type << 62;
}

std::string checkGmmaDescriptor(uint64_t bits) {
  SmemMatrixDescriptor d = decodeGmmaDescriptor(bits);
  if (d.reservedBits == uint64_t(1) << 46)
    return "bit 46 is set, as in an sm_100 tcgen05 descriptor (version 1); a wgmma descriptor "
           "has no version field and leaves bits 46-48 zero";
  if (d.reservedBits)
    return "bits without a field are set (" + hex(d.reservedBits) +
           "; only 0-13, 16-29, 32-45, 49-51 and 62-63 have one)";
  if (d.baseOffset != 0)
    return "its base offset (bits 49-51) is " + std::to_string(d.baseOffset) +
           "; the emulator swizzles absolute addresses and models base offset 0 only";
  return "";
}

} // namespace cutec::rt
