// The emulator's checks and descriptions of the UMMA shared-memory and
// instruction descriptors, and the address function of the canonical
// shared-memory operand layouts.
#include "runtime/tensorcore/UmmaDescriptors.h"

#include "runtime/base/DiagnosticText.h"

namespace cutec::rt {

std::string checkSmemDescriptor(const SmemMatrixDescriptor &d) {
  if (d.version != hw::umma_smem::kSm100Version)
    return "its version field (bits 46-47) is " + std::to_string(d.version) +
           "; sm_100 descriptors have 1 there";
  if (!hw::swizzleModeOfUmmaCode(d.layoutCode))
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
  const hw::SwizzleMode *mode = hw::swizzleModeOfUmmaCode(d.layoutCode);
  return "start " + hex(d.startAddress) + ", LBO " + std::to_string(d.leadingByteOffset) +
         ", SBO " + std::to_string(d.strideByteOffset) + ", " +
         (mode ? mode->name : "invalid layout");
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
