// The qualifiers of the tcgen05 instructions that the emulated kernel passes
// to Thread's tcgen05 methods (the parts of the instruction that are not in
// its descriptors).
#pragma once

#include <cstdint>

namespace cutec::rt {

/// `.kind::` of tcgen05.mma. The first four are the dense kinds, the last
/// three the `.block_scale` ones.
enum class Tcgen05Kind : uint8_t {
  F16,      // f16/bf16 inputs, f16 or f32 accumulator, K = 16
  Tf32,     // tf32 inputs, f32 accumulator, K = 8
  F8f6f4,   // e4m3, e5m2, e2m3, e3m2, e2m1 inputs (one byte slot each), K = 32
  I8,       // s8/u8 inputs, s32 accumulator, K = 32
  Mxf8f6f4, // as f8f6f4, scale_vec::1X (ue8m0), f32 accumulator
  Mxf4,     // packed e2m1 (two per byte), K = 64, scale_vec::2X (ue8m0)
  Mxf4nvf4, // packed e2m1, K = 64, scale_vec::2X (ue8m0) or 4X (ue8m0/ue4m3)
};

/// `.scale_vec::NX`: scale factors per row of A (column of B) per
/// instruction. `.block32` is 1X for mxf8f6f4 and 2X for mxf4*, `.block16`
/// is 4X.
enum class Tcgen05ScaleVec : uint8_t { X1 = 1, X2 = 2, X4 = 4 };

/// `.shape` (and `.multicast`) of tcgen05.cp.
enum class Tcgen05CpShape : uint8_t {
  S128x256b,      // 128 rows of 32 bytes to 128 lanes x 8 columns
  S128x128b,      // 128 rows of 16 bytes to 128 lanes x 4 columns
  S32x128bWarpx4, // 32 rows of 16 bytes to each of the 4 lane quarters, 4 columns
};

} // namespace cutec::rt
