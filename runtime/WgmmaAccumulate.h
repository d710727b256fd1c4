// The numerics of wgmma.mma_async: the one function that turns one
// instruction's operands into its D. runtime/WgmmaMma.cpp calls it and
// nothing else computes a wgmma's numbers, so a model measured on Hopper
// replaces this function alone.
//
// The model for now is tcgen05's (runtime/Tcgen05Mma.h), which the ISA does
// not contradict: each product a*b (with the operands' imm-scale signs) is
// rounded once to f32; the sum starts from D (converted from f16 if need be)
// or 0 and adds the products in increasing k with f32 round-to-nearest-even
// additions; an f16 D is rounded back (RN) at the end of the instruction.
// s8/u8 sum exactly and wrap to s32.
#pragma once

#include "runtime/MmaOperandGather.h"
#include "runtime/Wgmma.h"

#include <cstdint>

namespace cutec::rt {

/// D = A·Bᵀ (+ D when `accumulate`) for one wgmma: `a` is 64 x K (element
/// (m, k) at a.at(m, k)), `b` is N x K gathered transposed (b.values[k*N +
/// n]), K = wgmmaK(shape). `d` is D row-major, 64 x N elements as raw bits:
/// f32 or s32 in all 32 bits, f16 in the low 16 (the high 16 written 0).
/// `a` and `b` may be changed (the imm-scale signs are folded into them).
void wgmmaAccumulate(const WgmmaShape &shape, GatheredOperand &a, GatheredOperand &b, uint32_t *d,
                     bool accumulate);

} // namespace cutec::rt
