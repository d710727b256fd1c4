// The PTX `cvt` forms that involve Blackwell's narrow formats, on packed
// register bit patterns, so that the emulator executes e.g.
// `cvt.rn.f16x2.e2m1x2 r, q` as `r = ptx::cvtRnF16x2E2m1x2(q)`.
//
// Facts settled from the PTX ISA, section "Data Movement and Conversion
// Instructions: cvt" (ISA 9.x text), each tested in tests/runtime/PtxCvtTest.cpp:
//  - Operand order of the x2 forms: for `cvt...x2 d, a, b` the result of `a`
//    goes to the upper half/byte/nibble of d and `b` to the lower one
//    ("d[15:8] = convert(a); d[7:0] = convert(b)", e2m1x2: "d[7:4] =
//    convert(a); d[3:0] = convert(b)"). Up-conversions keep positions: the
//    upper field of `a` becomes the upper 16 bits of d.
//  - e2m3x2/e3m2x2 occupy one byte per value with the 2 MSBs zero
//    ("d[15:14] = 0; d[13:8] = convert(a)"). Sources with those bits set are
//    outside the ISA's definition; this emulation ignores them.
//  - .satfinite: "For .f16, .f16x2, .bf16, .bf16x2, .e4m3x2, .e5m2x2,
//    .ue8m0x2, ... and .tf32 destination formats, if the input value is NaN,
//    then the result is NaN in the specified destination format. For .e2m1x2,
//    .e2m3x2, .e3m2x2 ... destination formats NaN results are converted to
//    positive MAX_NORM. If the absolute value of input (ignoring sign) is
//    greater than MAX_NORM of the specified destination format, then the result
//    is sign-preserved MAX_NORM of the destination format and a positive
//    MAX_NORM in .ue8m0x2 for which the destination sign is not supported."
//    So ±Inf saturates to ±MAX_NORM too (e4m3 0x7E/0xFE, e5m2 0x7B/0xFB, e2m1
//    0x7/0xF, e2m3/e3m2 0x1F/0x3F, ue8m0 0xFE).
//    CUTLASS's generic host conversion (exmy_base.h) gives a NaN the input's
//    sign in e2m1/e2m3/e3m2 (-MAX_NORM for -NaN); the ISA text is followed.
//  - The NaN produced is the canonical one, positive whatever the input's
//    sign or payload (e4m3 and e5m2 0x7F, as CUTLASS float8.h's software path
//    returns; f16 and bf16 0x7FFF), except for tf32 (below). .satfinite is
//    mandatory for the fp8/fp6/fp4 destinations with an f32 source.
//  - .relu: "clamps the result to 0 if negative. NaN results are converted to
//    canonical NaN." Applied to the rounded result: anything with the sign bit
//    set (including -0 and negative values that round to -0) becomes +0.
//  - .rn rounds to nearest, ties to even; .rna ties away from zero. Subnormal
//    inputs and results are kept (no .ftz on these forms), and an underflow
//    keeps the sign of zero (e4m3 -0 is 0x80, e2m1 -0 is 0x8).
//  - ue8m0 from f32 (cvt.{rz,rp}{.satfinite}.ue8m0x2.f32): the magnitude is
//    rounded to a power of two (CUTLASS float_ue8m0_t::convert_from_float
//    emulates .rp.satfinite by taking the f32 exponent field and adding one
//    when the mantissa is non-zero). Inputs at or below 2^-127, zero
//    included, give code 0 (the smallest value: ue8m0 has no zero). Without
//    .satfinite, Inf and magnitudes that round past 2^127 give NaN (0xFF).
//  - cvt.rn.bf16x2.ue8m0x2: exact; code 0 is the bf16 subnormal 0x0040, 0xFF
//    gives the bf16 canonical NaN.
//  - tf32 (cvt.rna{.satfinite}.tf32.f32): rounds the f32 to 10 mantissa bits,
//    ties away from zero; the .b32 result is an f32 pattern whose low 13 bits
//    are zero. Without .satfinite, overflow gives Inf.
//  - tf32 NaN inputs deviate from the ISA text ("the result is NaN"): on an
//    H100 (sm_90, CUDA 13.0) the NaN is not canonicalised but its low 13 bits
//    are cut off, so a NaN whose payload lies only in those bits becomes Inf
//    (0x7F801000 -> 0x7F800000); with .satfinite one ulp is then taken off
//    (0x7F801000 -> 0x7F7FE000, 0x7FC00000 -> 0x7FBFE000), the step that
//    turns Inf into MAX_NORM. The emulation follows the hardware.
//
// Checked against the hardware: on an H100, every one of the 2^32 f32 inputs
// gives the same bits here as on the GPU for cvt.rn.satfinite{.relu}.e4m3x2,
// .e5m2x2 (with b = -a), cvt.{rn,rz}.f16.f32, cvt.rn.satfinite.f16.f32,
// cvt.rn.relu.f16.f32, the same four for bf16, cvt.rn.{f16x2,bf16x2}.f32 and
// cvt.rna{.satfinite}.tf32.f32; and every 16-bit input for
// cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}. That settles the canonical NaNs, .relu
// of -0 and of NaN, and the operand order for those forms. The fp4/fp6/ue8m0
// forms exist on sm_100a only and rest on the ISA text and CUTLASS.
#pragma once

#include "runtime/numerics/FloatFormat.h"

#include <cstdint>

namespace cutec::rt::ptx {

enum class Relu : bool { Off, On };
enum class Satfinite : bool { Off, On };

// f32 pairs to the narrow formats: `a` to the upper field, `b` to the lower.
uint16_t cvtRnSatfiniteE4m3x2F32(float a, float b, Relu relu = Relu::Off);
uint16_t cvtRnSatfiniteE5m2x2F32(float a, float b, Relu relu = Relu::Off);
uint8_t cvtRnSatfiniteE2m1x2F32(float a, float b, Relu relu = Relu::Off);
uint16_t cvtRnSatfiniteE2m3x2F32(float a, float b, Relu relu = Relu::Off);
uint16_t cvtRnSatfiniteE3m2x2F32(float a, float b, Relu relu = Relu::Off);
/// cvt.{rz,rp}{.satfinite}.ue8m0x2.f32; `rounding` is TowardZero or
/// TowardPositive.
uint16_t cvtUe8m0x2F32(Rounding rounding, Satfinite satfinite, float a, float b);

// f32 to f16 / bf16 / tf32. `rounding` is NearestEven (.rn) or TowardZero (.rz).
uint16_t cvtF16F32(float a, Rounding rounding = Rounding::NearestEven, Relu relu = Relu::Off,
                   Satfinite satfinite = Satfinite::Off);
uint32_t cvtF16x2F32(float a, float b, Rounding rounding = Rounding::NearestEven,
                     Relu relu = Relu::Off, Satfinite satfinite = Satfinite::Off);
uint16_t cvtBf16F32(float a, Rounding rounding = Rounding::NearestEven, Relu relu = Relu::Off,
                    Satfinite satfinite = Satfinite::Off);
uint32_t cvtBf16x2F32(float a, float b, Rounding rounding = Rounding::NearestEven,
                      Relu relu = Relu::Off, Satfinite satfinite = Satfinite::Off);
/// cvt.rna{.satfinite}.tf32.f32: the f32 bit pattern of the tf32 result.
uint32_t cvtRnaTf32F32(float a, Satfinite satfinite = Satfinite::Off);

/// mul.rn.f16x2: the halves of `a` and `b` multiplied lane by lane, each
/// rounded once to the nearest even f16 (the product of two f16 is exact in
/// f32, so rounding it to f16 is the single rounding of the exact product).
uint32_t mulRnF16x2(uint32_t a, uint32_t b);

// Up-conversions: the upper field of `a` becomes the upper half of the result.
uint32_t cvtRnF16x2E4m3x2(uint16_t a, Relu relu = Relu::Off);
uint32_t cvtRnF16x2E5m2x2(uint16_t a, Relu relu = Relu::Off);
uint32_t cvtRnF16x2E2m1x2(uint8_t a, Relu relu = Relu::Off);
uint32_t cvtRnF16x2E2m3x2(uint16_t a, Relu relu = Relu::Off);
uint32_t cvtRnF16x2E3m2x2(uint16_t a, Relu relu = Relu::Off);
uint32_t cvtRnBf16x2Ue8m0x2(uint16_t a);

} // namespace cutec::rt::ptx
