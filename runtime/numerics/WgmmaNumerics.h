// The arithmetic of Hopper's warpgroup MMA (wgmma.mma_async, sm_90a) for one
// output element and one instruction: d = c + sum over the instruction's K
// of a[k] * b[k], bit for bit as an H100 computes it. The model's parameters
// were measured on an H100 with tests/hardware/WgmmaNumericsCheck.cu (see
// docs/emulator.md, "Hopper tensor-core numerics (measured)"), and
// tests/runtime/WgmmaNumericsTest.cpp replays recorded GPU results.
//
// The model (WgmmaAdder holds the per-kind numbers):
//  - Each product a*b is exact, with an unbounded exponent range.
//  - One step per instruction adds the accumulator and all K products. Each
//    term has an alignment exponent: a product's is the sum of its operands'
//    exponents, where a subnormal operand counts as the format's smallest
//    normal exponent (so a product of significands of 2 or more keeps one
//    bit more); the accumulator's is its own. Every term is cut toward zero
//    to a multiple of 2^(E - fracBits), E the largest alignment exponent of
//    the step; the cut terms are summed exactly; the sum is cut to
//    `sumFracBits` bits below its leading bit and rounded to the
//    accumulator's format (`sumRounding`). f16/bf16/tf32: fracBits 25,
//    rounded toward zero to f32. e4m3/e5m2: fracBits 13 and a 13-bit sum
//    (a 14-bit significand), toward zero. An f16 accumulator takes the
//    step's sum rounded to nearest (even) f16 instead.
//  - A sum past the largest finite value is Inf; a nonzero sum that rounds
//    to zero is +0, and so is an exact zero (-0 + -0 too).
//  - A NaN operand or accumulator, Inf - Inf or Inf * 0: the canonical NaN
//    (f32 0x7FFFFFFF, f16 0x7FFF); otherwise an Inf passes through.
//  - tf32 operands: the low 13 bits of the 32-bit pattern are ignored.
//  - Integer kinds sum exactly and wrap to s32, or clamp with .satfinite.
#pragma once

#include "runtime/numerics/FloatFormat.h"

#include <cstdint>

namespace cutec::rt {

/// The element types of wgmma's A and B operands.
enum class WgmmaElement : uint8_t { F16, BF16, TF32, E4M3, E5M2, S8, U8 };
/// The accumulator (D) types.
enum class WgmmaAccum : uint8_t { F32, F16, S32 };

/// One wgmma type combination, as the instruction's type suffixes name it
/// (e.g. `.f32.e4m3.e5m2` is {E4M3, E5M2, F32}).
struct WgmmaKind {
  WgmmaElement a = WgmmaElement::F16, b = WgmmaElement::F16;
  WgmmaAccum d = WgmmaAccum::F32;
  /// `.satfinite` (integer kinds): clamp to s32 instead of wrapping.
  bool saturate = false;
};

/// K of one instruction: 32 bytes of each row of A and B (16 for f16/bf16,
/// 8 for tf32, 32 for the 8-bit types).
unsigned wgmmaK(WgmmaElement element);
/// Bytes of one element of A or B in shared memory (tf32 takes 4).
unsigned wgmmaElementBytes(WgmmaElement element);
/// A short name ("f16", "e4m3", ...), and the name of a type combination as
/// the instruction's suffix writes it ("f32.e4m3.e5m2").
const char *wgmmaElementName(WgmmaElement element);
const char *wgmmaAccumName(WgmmaAccum accum);

/// The roundings the adder's model can use.
enum class AdderRounding : uint8_t { TowardZero, Down, NearestEven };

/// How the tensor core's adder keeps bits, per type combination. One step
/// adds all K products of an instruction and the accumulator.
struct WgmmaAdder {
  /// Bits kept below the step's largest exponent (see the file comment).
  int fracBits = 25;
  /// How a term's bits below that are dropped.
  AdderRounding termRounding = AdderRounding::TowardZero;
  /// Fraction bits the step's sum keeps before it is rounded to the
  /// accumulator's format (at most that format's).
  int sumFracBits = 23;
  /// How the step's exact sum becomes the accumulator's format.
  AdderRounding sumRounding = AdderRounding::TowardZero;
};

/// The adder an H100 uses for `type` (floating-point types).
WgmmaAdder wgmmaAdder(const WgmmaKind &type);

/// One instruction's update of one element of D: `aCodes` and `bCodes` hold
/// wgmmaK(type.a) element codes (an f32 bit pattern for tf32, the low bits
/// for the narrower types), `d` the accumulator's bit pattern (f16 in the
/// low 16 bits); returns the new bit pattern of d.
/// The floating-point format of a wgmma element's code (tf32: its top 19
/// bits); the integer elements have none.
const FloatFormat &wgmmaElementFormat(WgmmaElement element);

uint32_t wgmmaDot(const WgmmaKind &type, const uint32_t *aCodes, const uint32_t *bCodes,
                  uint32_t d);
/// The same with an explicit adder (for probing other models).
uint32_t wgmmaDot(const WgmmaKind &type, const WgmmaAdder &adder, const uint32_t *aCodes,
                  const uint32_t *bCodes, uint32_t d);

} // namespace cutec::rt
