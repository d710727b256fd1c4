// The two descriptors a tcgen05.mma reads, decoded field by field, and the
// shared-memory address function of the canonical UMMA operand layouts.
//
// Bit positions: CUTLASS include/cute/arch/mma_sm100_desc.hpp
// (UMMA::SmemDescriptor, UMMA::InstrDescriptor,
// UMMA::InstrDescriptorBlockScaled, UMMA::LayoutType) and the PTX ISA tcgen05
// sections "Shared memory descriptor" and "Instruction descriptor". The
// canonical layouts (what LBO and SBO mean per swizzle and major-ness) follow
// CUTLASS make_umma_desc (include/cute/atom/mma_traits_sm100.hpp) and the PTX
// "Shared memory matrix layouts" section. docs/emulator.md has the tables.
#pragma once

#include <cstdint>
#include <string>

namespace cutec::rt {

/// Bits [61,64) of the shared-memory descriptor (UMMA::LayoutType).
enum class UmmaLayout : uint8_t {
  None = 0,        // no swizzle ("interleave"): 8x16-byte core matrices
  B128Base32B = 1, // 128-byte swizzle with 32-byte atoms (MN-major only)
  B128 = 2,
  B64 = 4,
  B32 = 6,
};

/// A 64-bit shared-memory matrix descriptor. Byte quantities are already
/// shifted back (<< 4).
struct SmemMatrixDescriptor {
  uint32_t startAddress = 0;      // bits [0,14) << 4
  uint32_t leadingByteOffset = 0; // bits [16,30) << 4 (LBO)
  uint32_t strideByteOffset = 0;  // bits [32,46) << 4 (SBO)
  uint32_t version = 0;           // bits [46,48): 1 on sm_100
  uint32_t baseOffset = 0;        // bits [49,52)
  bool lboAbsolute = false;       // bit 52: LBO mode (0: relative offset)
  uint32_t layoutCode = 0;        // bits [61,64): a UmmaLayout, or 3/5/7 (invalid)
  uint64_t reservedBits = 0;      // bits 14-15, 30-31, 48, 53-60 as found (must be 0)
};

SmemMatrixDescriptor decodeSmemDescriptor(uint64_t bits);
/// The fields tcgen05's and wgmma's (runtime/tensorcore/GmmaDescriptor.h) descriptors
/// keep in the same bits: start address, LBO, SBO and base offset; the
/// others are left 0.
SmemMatrixDescriptor decodeSharedDescriptorFields(uint64_t bits);
/// The inverse, for tests and tools: fields are truncated to their widths.
uint64_t encodeSmemDescriptor(const SmemMatrixDescriptor &d);
/// "" or why the hardware would not accept the descriptor as the emulator
/// models it (version, LBO mode, base offset, layout code, reserved bits).
std::string checkSmemDescriptor(const SmemMatrixDescriptor &d);
/// "start 0x1400, LBO 128, SBO 1024, 128B swizzle"
std::string describeSmemDescriptor(const SmemMatrixDescriptor &d);

/// The swizzle span in bytes (the width of one swizzled row): 16 for None,
/// 32, 64, 128 (also for B128Base32B).
uint32_t ummaLayoutRowBytes(UmmaLayout layout);
/// The shared address that logical address `address` occupies under the
/// layout's swizzle, applied to absolute address bits as TMA writes them:
/// 32B: bit 4 ^= bit 7; 64B: bits [4,6) ^= [7,9); 128B: bits [4,7) ^= [7,10);
/// 128B_BASE32B: bits [5,7) ^= [7,9) (CuTe Swizzle<2,5,2>).
uint32_t ummaSwizzle(uint32_t address, UmmaLayout layout);

/// The shared address of one 16-byte chunk of an operand in the canonical
/// layout that `d` describes, swizzle included. K-major (`mnMajor` false):
/// `row` is the M/N index and `chunk` the 16-byte chunk along K (0 or 1 for
/// one instruction). MN-major: `row` is the K index and `chunk` the 16-byte
/// chunk along M/N.
///   K-major, no swizzle:  (row%8)*16 + (row/8)*SBO + chunk*LBO
///   K-major, W-byte swizzle: (row%8)*W + (row/8)*SBO + chunk*16
///   MN-major, no swizzle: (row%8)*16 + (row/8)*LBO + chunk*SBO
///   MN-major, W-byte swizzle: (row%8)*W + (row/8)*SBO
///                           + (chunk%(W/16))*16 + (chunk/(W/16))*LBO
uint32_t ummaChunkAddress(const SmemMatrixDescriptor &d, bool mnMajor, uint32_t row,
                          uint32_t chunk);

/// A 32-bit tcgen05.mma instruction descriptor. Fields that only one variant
/// has are decoded in both; the other variant's meaning of those bits is
/// noted.
struct MmaInstrDescriptor {
  uint32_t sparseId2 = 0;    // bits [0,2)
  bool sparse = false;       // bit 2
  bool saturate = false;     // bit 3 (dense; reserved when block-scaled)
  uint32_t dFormat = 0;      // bits [4,6) dense: 0 f16, 1 f32, 2 s32
  uint32_t bSfId = 0;        // bits [4,6) block-scaled: byte of the SFB column
  uint32_t aFormat = 0;      // bits [7,10)
  uint32_t bFormat = 0;      // bits [10,13)
  bool negateA = false;      // bit 13
  bool negateB = false;      // bit 14
  bool aMnMajor = false;     // bit 15 (transpose A: 0 K-major, 1 MN-major)
  bool bMnMajor = false;     // bit 16
  uint32_t n = 0;            // bits [17,23) << 3
  bool scaleUe8m0 = false;   // bit 23 block-scaled: 0 ue4m3, 1 ue8m0 (dense: reserved)
  uint32_t m = 0;            // bits [24,29) << 4
  uint32_t aSfId = 0;        // bits [29,31) block-scaled
  uint32_t maxShift = 0;     // bits [30,32) dense (.ws only)
  bool kSize = false;        // bit 31 block-scaled (K96 for mxf4: not modelled)
  uint32_t reservedBits = 0; // reserved bits as found: dense 6, 23, 29; block-scaled 3, 6
};

MmaInstrDescriptor decodeInstrDescriptor(uint32_t bits, bool blockScaled);
/// "M=128 N=256 A e4m3 K-major, B e4m3 MN-major, D f32"-like text.
std::string describeInstrDescriptor(uint32_t bits, bool blockScaled);

} // namespace cutec::rt
