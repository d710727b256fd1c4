// FloatFormat: one description of every floating-point format cutec handles
// (e2m1, e3m2, e2m3, e4m3, e5m2, ue4m3, ue8m0, f16, bf16, tf32) and the single
// exact codec they all share: decode a code to f32, encode an f32 with a chosen
// rounding and the PTX saturation modifiers.
//
// The PTX instruction forms built on this codec are in runtime/numerics/PtxCvt.h, which
// also lists the facts about cvt settled from the PTX ISA.
//
// Format facts (sources: PTX ISA "Alternate Floating Point Data Formats" and
// the cvt section; CUTLASS include/cutlass/exmy_base.h fp_encoding_selector,
// float8.h, float_subbyte.h):
//  - e2m1: bias 1, values 0, 0.5, 1, 1.5, 2, 3, 4, 6; no Inf/NaN.
//  - e3m2: bias 3, max 28; e2m3: bias 1, max 7.5; no Inf/NaN (6-bit codes).
//  - e4m3 ("fn"): bias 7, max 448; no Inf; NaN = S.1111.111 only.
//  - e5m2: bias 15, IEEE-like: exponent 11111 is Inf (mantissa 0) or NaN.
//  - ue4m3: e4m3 without the sign bit (7-bit code, NaN 0x7F, max 448). Bit 7
//    of a stored byte is not part of the format and is ignored on decode.
//  - ue8m0: value 2^(code - 127), code 0xFF = NaN. No mantissa, hence no
//    subnormals and no zero: code 0 is 2^-127 (an f32 subnormal).
//  - f16, bf16: IEEE binary16 / the top 16 bits of binary32.
//  - tf32: 1-8-10 bits; in a register it is an f32 pattern whose low 13
//    mantissa bits are zero. Here its code is the 19-bit value (f32 >> 13).
//  - Canonical NaN of formats that have one: sign 0, exponent and mantissa all
//    ones (f16 0x7FFF, bf16 0x7FFF, e4m3/e5m2 0x7F, ue8m0 0xFF); f32 NaN
//    produced by decode is 0x7FFFFFFF, NVIDIA's canonical f32 NaN.
//  - Unsigned formats (ue4m3, ue8m0) encode the magnitude of a negative input,
//    as CUTLASS's host conversion does (FpBitRepresentation drops the sign of
//    unsigned formats; float_ue8m0_t::convert_from_float uses the exponent
//    field only).
#pragma once

#include <cstdint>
#include <string_view>

namespace cutec::rt {

/// How a format spends its largest exponent code.
enum class Specials : uint8_t {
  /// Exponent all ones: Inf when the mantissa is 0, NaN otherwise.
  Ieee,
  /// Only exponent and mantissa all ones is NaN; there is no Inf.
  NanOnly,
  /// Every code is a finite number.
  None,
};

struct FloatFormat {
  std::string_view name;
  unsigned expBits;
  unsigned manBits;
  int bias;
  bool hasSign;
  Specials specials;

  constexpr unsigned codeBits() const { return unsigned(hasSign) + expBits + manBits; }
  constexpr uint32_t codeMask() const { return (uint32_t(1) << codeBits()) - 1; }
  constexpr uint32_t signBit() const { return hasSign ? uint32_t(1) << (expBits + manBits) : 0; }
  constexpr bool hasNaN() const { return specials != Specials::None; }
  constexpr bool hasInf() const { return specials == Specials::Ieee; }
};

inline constexpr FloatFormat kE2M1{"e2m1", 2, 1, 1, true, Specials::None};
inline constexpr FloatFormat kE3M2{"e3m2", 3, 2, 3, true, Specials::None};
inline constexpr FloatFormat kE2M3{"e2m3", 2, 3, 1, true, Specials::None};
inline constexpr FloatFormat kE4M3{"e4m3", 4, 3, 7, true, Specials::NanOnly};
inline constexpr FloatFormat kE5M2{"e5m2", 5, 2, 15, true, Specials::Ieee};
inline constexpr FloatFormat kUE4M3{"ue4m3", 4, 3, 7, false, Specials::NanOnly};
inline constexpr FloatFormat kUE8M0{"ue8m0", 8, 0, 127, false, Specials::NanOnly};
inline constexpr FloatFormat kF16{"f16", 5, 10, 15, true, Specials::Ieee};
inline constexpr FloatFormat kBF16{"bf16", 8, 7, 127, true, Specials::Ieee};
inline constexpr FloatFormat kTF32{"tf32", 8, 10, 127, true, Specials::Ieee};

/// PTX rounding modifiers (.rn, .rna, .rz, .rp).
enum class Rounding : uint8_t { NearestEven, NearestAway, TowardZero, TowardPositive };

/// The rounding and saturation modifiers of one conversion.
struct EncodeMode {
  Rounding rounding = Rounding::NearestEven;
  /// .satfinite: NaN stays NaN where the format has one, else becomes +max;
  /// a magnitude above the largest finite value becomes the signed maximum.
  bool satfinite = false;
  /// .relu: a negative result becomes +0; NaN stays the canonical NaN.
  bool relu = false;
};

/// The exact f32 value of `code` (bits above codeBits() are ignored).
float decode(const FloatFormat &format, uint32_t code);

/// `value` converted to `format` with the given modifiers, as PTX cvt does.
/// Without .satfinite an overflow gives Inf (Ieee formats, per the rounding
/// direction), NaN (NanOnly formats) or the signed maximum (formats without
/// NaN); PTX itself only offers the non-saturating form for f16, bf16, tf32
/// and ue8m0.
uint32_t encode(const FloatFormat &format, float value, EncodeMode mode = {});

/// Largest finite positive code.
uint32_t maxFiniteCode(const FloatFormat &format);
/// The canonical NaN code; only meaningful where format.hasNaN().
uint32_t canonicalNaNCode(const FloatFormat &format);
bool isNaNCode(const FloatFormat &format, uint32_t code);

} // namespace cutec::rt
