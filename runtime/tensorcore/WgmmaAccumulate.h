// The numerics of wgmma.mma_async: the one function that turns one
// instruction's operands into its D. runtime/tensorcore/WgmmaMma.cpp calls it and
// nothing else computes a wgmma's numbers, so a model measured on Hopper
// replaces this function alone.
//
// The model is the one measured on an H100 (runtime/numerics/WgmmaNumerics.h,
// docs/emulator.md "Hopper tensor-core numerics (measured)"): per element
// of D, the products (with the operands' imm-scale signs) and D are added in
// one step with terms cut 25 bits (fp8: 13) below the largest, the sum
// truncated to f32 (fp8: a 14-bit significand) or rounded to f16; s8/u8
// sum exactly and wrap to s32. tcgen05.mma uses the same rows loop when a
// launch asks for Hopper's numerics (runtime/numerics/Tcgen05Numerics.h).
#pragma once

#include "runtime/tensorcore/MmaOperandGather.h"
#include "runtime/tensorcore/Wgmma.h"

#include <cstdint>

namespace cutec::rt {

/// D = A·Bᵀ (+ D when `accumulate`) for one wgmma: `a` is 64 x K (element
/// (m, k) at a.at(m, k)), `b` is N x K gathered transposed (b.values[k*N +
/// n]), K = wgmmaK(shape). `d` is D row-major, 64 x N elements as raw bits:
/// f32 or s32 in all 32 bits, f16 in the low 16 (the high 16 written 0).
void wgmmaAccumulate(const WgmmaShape &shape, const GatheredOperand &a, const GatheredOperand &b,
                     uint32_t *d, bool accumulate);

/// One instruction of type `kind` on M rows of D with the measured model:
/// d(m, n) = wgmmaDot(a's row m, b's row n, d(m, n) or +0 without
/// `accumulate`) over K = wgmmaK(kind.a). `a` is M x K and `b` N x K
/// (a.at(m, k), b.at(n, k)), values exact in their element types;
/// `negateA`/`negateB` flip their signs (wgmma's imm-scale -1, tcgen05's
/// negate bits). dRows[m] points to row m's N cells (f16 in the low 16
/// bits, the high 16 written 0).
void wgmmaDotRows(const WgmmaKind &kind, const GatheredOperand &a, const GatheredOperand &b,
                  bool negateA, bool negateB, uint32_t M, uint32_t N, uint32_t *const *dRows,
                  bool accumulate);

} // namespace cutec::rt
