//===- UmmaFormat.h - tcgen05.mma's kinds and their format codes ----------===//
//
// The instruction descriptor names A's and B's element types by a code
// (bits 7-9 and 10-12) whose meaning depends on the instruction's kind:
// the PTX ISA's tcgen05 "Instruction descriptor" format table, CUTLASS
// UMMA::F16F32Format, S8Format, MXF8F6F4Format and MXF4Format. lower-mma
// encodes them and the emulator decodes them with this one table.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_HARDWARE_UMMAFORMAT_H
#define CUTEC_HARDWARE_UMMAFORMAT_H

#include <cstdint>
#include <optional>

namespace cutec::hw {

/// `.kind::` of tcgen05.mma. The first four are the dense kinds, the last
/// three the `.block_scale` ones.
enum class UmmaKind : uint8_t {
  F16,      // f16/bf16 inputs, f16 or f32 accumulator, K = 16
  Tf32,     // tf32 inputs, f32 accumulator, K = 8
  F8f6f4,   // e4m3, e5m2, e2m3, e3m2, e2m1 inputs (one byte slot each), K = 32
  I8,       // s8/u8 inputs, s32 accumulator, K = 32
  Mxf8f6f4, // as f8f6f4, scale_vec::1X (ue8m0), f32 accumulator
  Mxf4,     // packed e2m1 (two per byte), K = 64, scale_vec::2X (ue8m0)
  Mxf4nvf4, // packed e2m1, K = 64, scale_vec::2X (ue8m0) or 4X (ue8m0/ue4m3)
};

constexpr bool isBlockScaled(UmmaKind kind) {
  return kind == UmmaKind::Mxf8f6f4 || kind == UmmaKind::Mxf4 || kind == UmmaKind::Mxf4nvf4;
}

/// The element types an A or B format code names.
enum class UmmaElement : uint8_t { F16, BF16, TF32, U8, S8, E4M3, E5M2, E2M3, E3M2, E2M1 };

/// One row of the format table: `element` is `code` in kind `kind`.
struct UmmaFormatCode {
  UmmaKind kind;
  UmmaElement element;
  uint32_t code;
};

inline constexpr UmmaFormatCode kUmmaFormatCodes[] = {
    {UmmaKind::F16, UmmaElement::F16, 0},       {UmmaKind::F16, UmmaElement::BF16, 1},
    {UmmaKind::Tf32, UmmaElement::TF32, 2},     {UmmaKind::I8, UmmaElement::U8, 0},
    {UmmaKind::I8, UmmaElement::S8, 1},         {UmmaKind::F8f6f4, UmmaElement::E4M3, 0},
    {UmmaKind::F8f6f4, UmmaElement::E5M2, 1},   {UmmaKind::F8f6f4, UmmaElement::E2M3, 3},
    {UmmaKind::F8f6f4, UmmaElement::E3M2, 4},   {UmmaKind::F8f6f4, UmmaElement::E2M1, 5},
    {UmmaKind::Mxf8f6f4, UmmaElement::E4M3, 0}, {UmmaKind::Mxf8f6f4, UmmaElement::E5M2, 1},
    {UmmaKind::Mxf8f6f4, UmmaElement::E2M3, 3}, {UmmaKind::Mxf8f6f4, UmmaElement::E3M2, 4},
    {UmmaKind::Mxf8f6f4, UmmaElement::E2M1, 5}, {UmmaKind::Mxf4, UmmaElement::E2M1, 1},
    {UmmaKind::Mxf4nvf4, UmmaElement::E2M1, 1},
};

/// The code of `element` in `kind`'s table, or nullopt if the kind does not
/// take it.
constexpr std::optional<uint32_t> ummaFormatCode(UmmaKind kind, UmmaElement element) {
  for (const UmmaFormatCode &row : kUmmaFormatCodes)
    if (row.kind == kind && row.element == element)
      return row.code;
  return std::nullopt;
}

/// The element that `code` names in `kind`'s table, or nullopt.
constexpr std::optional<UmmaElement> ummaElementOfCode(UmmaKind kind, uint32_t code) {
  for (const UmmaFormatCode &row : kUmmaFormatCodes)
    if (row.kind == kind && row.code == code)
      return row.element;
  return std::nullopt;
}

/// The accumulator formats of the dense instruction descriptor (bits 4-5,
/// CUTLASS UMMA::CFormat); block-scaled kinds accumulate in f32.
enum class UmmaDFormat : uint32_t { F16 = 0, F32 = 1, S32 = 2 };

} // namespace cutec::hw

#endif
