// The two descriptors a tcgen05.mma reads, checked and described for the
// emulator's messages, and the shared-memory address function of the
// canonical UMMA operand layouts.
//
// The bit layouts, their decoding and the swizzles are hardware facts the
// compiler shares (hardware/UmmaDescriptor.h, hardware/SwizzleMode.h); the
// names below make them the emulator's. The canonical layouts (what LBO
// and SBO mean per swizzle and major-ness) follow CUTLASS make_umma_desc
// (include/cute/atom/mma_traits_sm100.hpp) and the PTX "Shared memory
// matrix layouts" section. docs/emulator.md has the tables.
#pragma once

#include "hardware/SwizzleMode.h"
#include "hardware/UmmaDescriptor.h"

#include <cstdint>
#include <string>

namespace cutec::rt {

using hw::decodeInstrDescriptor;
using hw::decodeSmemDescriptor;
using hw::encodeSmemDescriptor;
using hw::MmaInstrDescriptor;
using hw::SmemMatrixDescriptor;
using hw::UmmaLayout;
using hw::ummaLayoutRowBytes;
using hw::ummaSwizzle;

/// "" or why the hardware would not accept the descriptor as the emulator
/// models it (version, LBO mode, base offset, layout code, reserved bits).
std::string checkSmemDescriptor(const SmemMatrixDescriptor &d);
/// "start 0x1400, LBO 128, SBO 1024, 128B swizzle"
std::string describeSmemDescriptor(const SmemMatrixDescriptor &d);

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

/// "M=128 N=256 A e4m3 K-major, B e4m3 MN-major, D f32"-like text.
std::string describeInstrDescriptor(uint32_t bits, bool blockScaled);

} // namespace cutec::rt
