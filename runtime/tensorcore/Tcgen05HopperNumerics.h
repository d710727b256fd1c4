// tcgen05.mma under Hopper's numerics (Tcgen05Numerics::Hopper): which wgmma
// type combination a tcgen05.mma's operand and accumulator formats stand
// for. runtime/tensorcore/Tcgen05Mma.cpp then runs the instruction through the wgmma
// model's rows loop (runtime/tensorcore/WgmmaAccumulate.h), one wgmmaDot per element of
// D: a tcgen05.mma's K (32 bytes of each row of A and B) is a wgmma's K, so
// each instruction is one step of the adder.
//
// Hopper's counterparts: kind::f16 (f16 or bf16, f32 or f16 D) is
// wgmma .f32/.f16 with .f16/.bf16 operands, kind::tf32 is .f32.tf32.tf32,
// kind::f8f6f4 with e4m3/e5m2 operands (mixed too) is .f32/.f16 with
// .e4m3/.e5m2. The 6- and 4-bit f8f6f4 formats and the block-scaled kinds
// have none, and nothing measured says how a tensor core sums them, so they
// are refused rather than silently computed another way. kind::i8 sums
// exactly under either numerics and does not come here.
#pragma once

#include "runtime/tensorcore/MmaOperandGather.h"
#include "runtime/numerics/WgmmaNumerics.h"

#include <string>

namespace cutec::rt {

/// The wgmma type combination of a floating-point tcgen05.mma (its kind
/// already checked against the formats) with operand formats `a` and `b`
/// and an f16 (`f16D`) or f32 D, in `out`; returns "" or why Hopper's
/// numerics do not cover it.
std::string hopperWgmmaKind(bool blockScaled, const MmaElementFormat &a, const MmaElementFormat &b,
                            bool f16D, WgmmaKind &out);

} // namespace cutec::rt
