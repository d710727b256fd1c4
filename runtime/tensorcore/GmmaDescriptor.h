// The 64-bit shared-memory matrix descriptor of wgmma.mma_async (sm_90a),
// decoded into the form the canonical-layout address function of
// runtime/tensorcore/UmmaDescriptors.h reads.
//
// Bit positions: PTX ISA "Matrix Descriptor Format" (wgmma) and CUTLASS
// include/cute/arch/mma_sm90_desc.hpp (GmmaDescriptor): start address
// [0,14) >> 4, leading-dimension byte offset [16,30) >> 4, stride-dimension
// byte offset [32,46) >> 4, base offset [49,52), layout type [62,64) with 0
// no swizzle ("interleave"), 1 128B, 2 64B, 3 32B swizzle. The other bits are
// unused. LBO and SBO mean what they mean for tcgen05 (CUTLASS
// make_gmma_desc describes the same canonical layouts as make_umma_desc), so
// ummaChunkAddress applies unchanged.
#pragma once

#include "runtime/tensorcore/UmmaDescriptors.h"

#include <cstdint>
#include <string>

namespace cutec::rt {

/// The descriptor's fields, its layout type translated to the UmmaLayout code
/// of the same swizzle (version 0: Hopper descriptors have none).
SmemMatrixDescriptor decodeGmmaDescriptor(uint64_t bits);
/// The inverse, for tests and tools (layoutCode a UmmaLayout without
/// 32B atoms).
uint64_t encodeGmmaDescriptor(uint32_t startAddress, uint32_t leadingByteOffset,
                              uint32_t strideByteOffset, UmmaLayout layout);
/// "" or why the emulator does not accept the descriptor: unused bits set
/// (naming the sm_100 version bit when it is that), or a nonzero base offset
/// (the emulator swizzles absolute addresses, as TMA writes them).
std::string checkGmmaDescriptor(uint64_t bits);

} // namespace cutec::rt
