// The 64-bit shared-memory matrix descriptor of wgmma.mma_async (sm_90a),
// decoded (hardware/GmmaDescriptor.h) into the form the canonical-layout
// address function of runtime/tensorcore/UmmaDescriptors.h reads, and
// checked for the emulator's messages. LBO and SBO mean what they mean for
// tcgen05, so ummaChunkAddress applies unchanged.
#pragma once

#include "hardware/GmmaDescriptor.h"
#include "runtime/tensorcore/UmmaDescriptors.h"

#include <cstdint>
#include <string>

namespace cutec::rt {

using hw::decodeGmmaDescriptor;
using hw::encodeGmmaDescriptor;

/// "" or why the emulator does not accept the descriptor: unused bits set
/// (naming the sm_100 version bit when it is that), or a nonzero base offset
/// (the emulator swizzles absolute addresses, as TMA writes them).
std::string checkGmmaDescriptor(uint64_t bits);

} // namespace cutec::rt
