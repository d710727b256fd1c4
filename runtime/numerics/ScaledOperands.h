// The operands of a block-scaled tcgen05.mma with their signs and scale
// factors folded in, for the vectorised loops of runtime/numerics/MmaAccumulate.h.
//
// Why the f32 form gives the model's numbers (runtime/tensorcore/Tcgen05Mma.h): an
// element times its factor has at most 8 significant bits and a magnitude
// within 2^±144, so it is exact in f64, and so is the product of two of
// them; the model rounds that product once to f32. When both scaled elements
// are also exact in f32, one f32 multiply of them is that same single
// rounding (IEEE multiplication rounds the exact product), so the f32 loop
// gives the f64 loop's bits with twice the lanes. Whether a factor keeps
// every value of an element format exact is decided per factor code by
// trying every value (f32ExactFactors), not by reasoning about exponents.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cutec::rt {

/// For each factor byte, whether every non-NaN value of an element format
/// (`values`, `count` of them) times the byte's value (`factors[byte]`) is
/// exact in f32 and zero, normal or infinite there (never an f32 subnormal:
/// denormal flushing, where a program turns it on, would change those).
std::array<bool, 256> f32ExactFactors(const float *values, uint32_t count, const float *factors);

/// A and B of one MMA scaled, in T (float or double): a[m*K + k] = signA *
/// A(m, k) * SFA(m, k) and, for each lane quarter q < quarters, bT[(q*K +
/// k)*N + n] = signB * B(n, k) * SFB_q(n, k). One quarter when the four
/// quarters' B factors are equal (as a warpx4 copy makes them), else four.
template <typename T> struct ScaledOperands {
  std::vector<T> a, bT;
  uint32_t quarters = 4;
  std::vector<T> factors; // scratch: one row of B's factors
  /// What runtime/numerics/MmaAccumulate.h's loops add per lane quarter to bT.
  size_t quarterStride(uint32_t N, uint32_t K) const { return quarters == 1 ? 0 : size_t(K) * N; }
};

/// Fills `out` from A (M x K, a[m*K + k]), B transposed (bT[k*N + n]) and
/// their factors, V per row of A (sfa[m*V + j]) and per column of B in each
/// quarter (sfb[(q*N + n)*V + j]), factor j covering K/V elements of K. For
/// T = float the caller must have checked (f32ExactFactors) that every
/// product is exact; no operand or factor may be NaN.
template <typename T>
void scaleOperands(const float *a, const float *bT, const float *sfa, const float *sfb, uint32_t M,
                   uint32_t N, uint32_t K, uint32_t V, float signA, float signB,
                   ScaledOperands<T> &out);

} // namespace cutec::rt
