// Decoding of the UMMA shared-memory and instruction descriptors, and the
// address function of the canonical shared-memory operand layouts.
#include "runtime/tensorcore/UmmaDescriptors.h"

#include "runtime/base/DiagnosticText.h"

namespace cutec::rt {
namespace {

constexpr uint64_t field(uint64_t bits, unsigned lo, unsigned width) {
  return (bits >> lo) & ((uint64_t(1) << width) - 1);
}

const char *layoutName(uint32_t code) {
  switch (code) {
  case 0:
    return "no swizzle";
  case 1:
    return "128B swizzle with 32B atoms";
  case 2:
    return "128B swizzle";
  case 4:
    return "64B swizzle";
  case 6:
    return "32B swizzle";
  default:
    return "invalid layout";
  }
}

} // namespace

SmemMatrixDescriptor decodeSharedDescriptorFields(uint64_t bits) {
  SmemMatrixDescriptor d;
  d.startAddress = uint32_t(field(bits, 0, 14) << 4);
  d.leadingByteOffset = uint32_t(field(bits, 16, 14) << 4);
  d.strideByteOffset = uint32_t(field(bits, 32, 14) << 4);
  d.baseOffset = uint32_t(field(bits, 49, 3));
  return d;
}

SmemMatrixDescriptor decodeSmemDescriptor(uint64_t bits) {
  SmemMatrixDescriptor d = decodeSharedDescriptorFields(bits);
  d.version = uint32_t(field(bits, 46, 2));
  d.lboAbsolute = field(bits, 52, 1) != 0;
  d.layoutCode = uint32_t(field(bits, 61, 3));
  constexpr uint64_t reserved =
      (uint64_t(3) << 14) | (uint64_t(3) << 30) | (uint64_t(1) << 48) | (uint64_t(0xFF) << 53);
  d.reservedBits = bits & reserved;
  return d;
}

uint64_t encodeSmemDescriptor(const SmemMatrixDescriptor &d) {
  return field(d.startAddress >> 4, 0, 14) | field(d.leadingByteOffset >> 4, 0, 14) << 16 |
         field(d.strideByteOffset >> 4, 0, 14) << 32 | field(d.version, 0, 2) << 46 |
         field(d.baseOffset, 0, 3) << 49 | uint64_t(d.lboAbsolute) << 52 |
         field(d.layoutCode, 0, 3) << 61 | d.reservedBits;
}

std::string checkSmemDescriptor(const SmemMatrixDescriptor &d) {
  if (d.version != 1)
    return "its version field (bits 46-47) is " + std::to_string(d.version) +
           "; sm_100 descriptors have 1 there";
  if (d.layoutCode == 3 || d.layoutCode == 5 || d.layoutCode == 7)
    return "its layout type (bits 61-63) is " + std::to_string(d.layoutCode) +
           ", which is not a layout (0 none, 1 128B with 32B atoms, 2 128B, 4 64B, 6 32B)";
  if (d.lboAbsolute)
    return "its LBO mode bit (52) is set; the absolute-address LBO mode is not modelled";
  if (d.baseOffset != 0)
    return "its base offset (bits 49-51) is " + std::to_string(d.baseOffset) +
           "; the emulator swizzles absolute addresses and models base offset 0 only";
  if (d.reservedBits)
    return "reserved bits are set (" + hex(d.reservedBits) + ")";
  return "";
}

std::string describeSmemDescriptor(const SmemMatrixDescriptor &d) {
  return "start " + hex(d.startAddress) + ", LBO " + std::to_string(d.leadingByteOffset) +
         ", SBO " + std::to_string(d.strideByteOffset) + ", " + layoutName(d.layoutCode);
}

uint32_t ummaLayoutRowBytes(UmmaLayout layout) {
  switch (layout) {
  case UmmaLayout::None:
    return 16;
  case UmmaLayout::B32:
    return 32;
  case UmmaLayout::B64:
    return 64;
  case UmmaLayout::B128:
  case UmmaLayout::B128Base32B:
    return 128;
  }
  return 16;
}

uint32_t ummaSwizzle(uint32_t address, UmmaLayout layout) {
  switch (layout) {
  case UmmaLayout::None:
    return address;
  case UmmaLayout::B32:
    return address ^ ((address >> 3) & 0x10);
  case UmmaLayout::B64:
    return address ^ ((address >> 3) & 0x30);
  case UmmaLayout::B128:
    return address ^ ((address >> 3) & 0x70);
  case UmmaLayout::B128Base32B:
    return address ^ ((address >> 2) & 0x60);
  }
  return address;
}

uint32_t ummaChunkAddress(const SmemMatrixDescriptor &d, bool mnMajor, uint32_t row,
                          uint32_t chunk) {
  auto layout = UmmaLayout(d.layoutCode);
  uint32_t offset;
  if (layout == UmmaLayout::None) {
    // Core matrices of 8 rows x 16 bytes, 128 contiguous bytes each.
    offset = (row % 8) * 16 + (row / 8) * (mnMajor ? d.leadingByteOffset : d.strideByteOffset) +
             chunk * (mnMajor ? d.strideByteOffset : d.leadingByteOffset);
  } else {
    uint32_t width = ummaLayoutRowBytes(layout);
    uint32_t chunksPerRow = width / 16;
    offset = (row % 8) * width + (row / 8) * d.strideByteOffset;
    if (mnMajor)
      offset += (chunk % chunksPerRow) * 16 + (chunk / chunksPerRow) * d.leadingByteOffset;
    else
      offset += chunk * 16; // one instruction's 32 bytes of K fit in the row
  }
  return ummaSwizzle(d.startAddress + offset, layout);
}

MmaInstrDescriptor decodeInstrDescriptor(uint32_t bits, bool blockScaled) {
  MmaInstrDescriptor d;
  d.sparseId2 = uint32_t(field(bits, 0, 2));
  d.sparse = field(bits, 2, 1) != 0;
  d.saturate = !blockScaled && field(bits, 3, 1) != 0;
  d.dFormat = blockScaled ? 1 : uint32_t(field(bits, 4, 2));
  d.bSfId = blockScaled ? uint32_t(field(bits, 4, 2)) : 0;
  d.aFormat = uint32_t(field(bits, 7, 3));
  d.bFormat = uint32_t(field(bits, 10, 3));
  d.negateA = field(bits, 13, 1) != 0;
  d.negateB = field(bits, 14, 1) != 0;
  d.aMnMajor = field(bits, 15, 1) != 0;
  d.bMnMajor = field(bits, 16, 1) != 0;
  d.n = uint32_t(field(bits, 17, 6) << 3);
  d.scaleUe8m0 = blockScaled && field(bits, 23, 1) != 0;
  d.m = uint32_t(field(bits, 24, 5) << 4);
  d.aSfId = blockScaled ? uint32_t(field(bits, 29, 2)) : 0;
  d.maxShift = blockScaled ? 0 : uint32_t(field(bits, 30, 2));
  d.kSize = blockScaled && field(bits, 31, 1) != 0;
  uint32_t reserved = blockScaled ? (1u << 3 | 1u << 6) : (1u << 6 | 1u << 23 | 1u << 29);
  d.reservedBits = bits & reserved;
  return d;
}

std::string describeInstrDescriptor(uint32_t bits, bool blockScaled) {
  MmaInstrDescriptor d = decodeInstrDescriptor(bits, blockScaled);
  std::string text = "idesc " + hex(bits) + ": M=" + std::to_string(d.m) +
                     " N=" + std::to_string(d.n) + ", A format " + std::to_string(d.aFormat) +
                     (d.aMnMajor ? " MN-major" : " K-major") + ", B format " +
                     std::to_string(d.bFormat) + (d.bMnMajor ? " MN-major" : " K-major");
  if (blockScaled)
    text += std::string(", scale factors ") + (d.scaleUe8m0 ? "ue8m0" : "ue4m3") + ", SFA id " +
            std::to_string(d.aSfId) + ", SFB id " + std::to_string(d.bSfId);
  else
    text += ", D format " + std::to_string(d.dFormat);
  return text;
}

} // namespace cutec::rt
