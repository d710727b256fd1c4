// The arithmetic tcgen05.mma's floating-point kinds use in the emulator, a
// launch's choice (LaunchConfig::tcgen05Numerics, `cutec run
// --tcgen05-numerics`). Neither is measured: no Blackwell GPU has been
// probed (docs/emulator.md, "tcgen05.mma" and "Hopper tensor-core numerics
// (measured)").
#pragma once

#include <cstdint>

namespace cutec::rt {

enum class Tcgen05Numerics : uint8_t {
  /// The default: each product rounded once to f32, added to D in
  /// increasing k with f32 round-to-nearest additions; an f16 D rounded
  /// back at the end of each instruction (runtime/tensorcore/Tcgen05Mma.h).
  F32Steps,
  /// The arithmetic measured on an H100's wgmma (runtime/numerics/WgmmaNumerics.h):
  /// exact products, one aligned and truncated sum per instruction (32
  /// bytes of K, as wgmma's), for the kinds Hopper has: kind::f16,
  /// kind::tf32 and kind::f8f6f4 with e4m3/e5m2 operands. Other floating-
  /// point kinds and formats are refused (runtime/tensorcore/Tcgen05HopperNumerics.h).
  Hopper,
};

} // namespace cutec::rt
