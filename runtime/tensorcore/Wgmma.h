// Hopper's warpgroup MMA (wgmma.mma_async, sm_90a) as the emitted code names
// it: the instruction's form (WgmmaShape, the parts of the instruction that
// are not in its descriptors), how many accumulator registers a thread
// holds, and where each of them lies in D (PTX ISA "Register Fragments",
// wgmma .m64nNk*). The collective and its asynchrony are the CTA runner's
// (runtime/engine/CtaWgmma.cpp), the data movement is runtime/tensorcore/WgmmaMma.h's.
#pragma once

#include "runtime/numerics/WgmmaNumerics.h"

#include <cstdint>
#include <string>

namespace cutec::rt {


/// `wgmma.mma_async.sync.aligned.m64n<n>k<K>.<d>.<a>.<b>` with its
/// immediates. M is always 64; K is 32 bytes of the operand type (16 for
/// f16/bf16, 8 for tf32, 32 for the 8-bit types).
struct WgmmaShape {
  uint32_t n;                  // 8..256 in steps of 8 (s8/u8: 8, 16, 24, then steps of 16)
  WgmmaElement a, b;              // a == b, except that e4m3/e5m2 and s8/u8 may mix
  WgmmaAccum d;          // f16/fp8: F16 or F32; bf16, tf32: F32; s8/u8: S32
  bool transposeA = false, transposeB = false; // imm-trans-a/b: MN-major (16-bit types only)
  int scaleA = 1, scaleB = 1;  // imm-scale-a/b: +1 or -1 (floating-point types only)
  bool satfinite = false;      // .satfinite: clamp to s32 (integer types only)
  bool aInRegisters = false;   // A from each thread's 4 registers, not a descriptor (K-major)
};

bool operator==(const WgmmaShape &x, const WgmmaShape &y);

/// Registers of A a thread holds when A comes from registers.
inline constexpr uint32_t kWgmmaARegisters = 4;

/// Accumulator registers per thread: N/2 (f32, s32) or N/4 (f16, two per
/// register, the lower-numbered element in the low half).
uint32_t wgmmaAccumulatorRegisters(const WgmmaShape &shape);

/// K of one instruction: 32 bytes of the operand type.
uint32_t wgmmaK(const WgmmaShape &shape);

/// "" or why `shape` is not a form of wgmma.mma_async (PTX ISA "Matrix
/// shape" and the type, transpose and scale rules).
std::string checkWgmmaShape(const WgmmaShape &shape);

/// "m64n64k16.f32.f16.f16" (with " trans-a", " scale-b -1", ... appended).
std::string wgmmaShapeText(const WgmmaShape &shape);

/// Where an element of the accumulator fragment lies in D (64 x N).
struct WgmmaPosition {
  uint32_t row, column;
};

/// Element `element` of thread `thread` (0..127) of the warpgroup, elements
/// numbered as the f32 registers are (for f16 accumulators, register j holds
/// elements 2j and 2j+1): thread t = 32w + l holds D(16w + l/4 + 8*((i/2)%2),
/// 8*(i/4) + 2*(l%4) + i%2) in element i.
WgmmaPosition wgmmaAccumulatorPosition(uint32_t thread, uint32_t element);

/// Where element `element` (0..31) of register `reg` (0..3) of thread
/// `thread` of A from registers lies in A (64 x K), `perRegister` elements
/// (32 / bits) to a register, the lowest-numbered in the low bits (PTX ISA
/// "Register Fragments", wgmma A): thread t = 32w + l holds row 16w + l/4 +
/// 8*(reg%2), columns E*(l%4) + 4E*(reg/2) + element, E = perRegister.
WgmmaPosition wgmmaRegisterAPosition(uint32_t thread, uint32_t reg, uint32_t element,
                                     uint32_t perRegister);

} // namespace cutec::rt
