// The emulator's check of wgmma's shared-memory matrix descriptor.
#include "runtime/tensorcore/GmmaDescriptor.h"

#include "runtime/base/DiagnosticText.h"

namespace cutec::rt {

std::string checkGmmaDescriptor(uint64_t bits) {
  SmemMatrixDescriptor d = decodeGmmaDescriptor(bits);
  if (d.reservedBits == hw::umma_smem::kVersion.put(hw::umma_smem::kSm100Version))
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
