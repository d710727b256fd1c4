// The qualifiers of the tcgen05 instructions that the emulated kernel passes
// to Thread's tcgen05 methods (the parts of the instruction that are not in
// its descriptors).
#pragma once

#include "hardware/UmmaFormat.h"

#include <cstdint>

namespace cutec::rt {

/// `.kind::` of tcgen05.mma (hardware/UmmaFormat.h).
using Tcgen05Kind = hw::UmmaKind;

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
