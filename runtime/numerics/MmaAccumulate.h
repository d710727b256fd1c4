// The inner loop of tcgen05.mma's floating-point kinds (runtime/tensorcore/Tcgen05Mma.cpp
// decodes the operands and calls it): products summed into the accumulator
// rows with the numerics runtime/tensorcore/Tcgen05Mma.h states, vectorised across n.
//
// Each output d[m][n] still adds its own products in increasing k, each
// rounded once to f32 and added with an f32 add (never fused): the loops run
// k outside n, so the vector lanes are different outputs, never different k
// of one output. The build turns off floating-point contraction for the .cpp
// (runtime/CMakeLists.txt), and on x86-64 an AVX clone is picked at run time.
//
// NaNs stay out (NaN payloads may depend on the order of an add's operands,
// which a vectoriser may swap; with no NaN going in, every NaN the sums make
// is the default NaN, whichever way round): the caller keeps NaN operands
// out, and with `stopAtNaN` the loop stops before the first row whose D holds
// a NaN and returns its index, leaving it and the later rows untouched for
// the caller's one-output-at-a-time loop. It returns M when all are done.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cutec::rt {

/// d[m][n] += sum over k of f32(a[m*K + k] * bT[k*N + n]) for M rows, in
/// increasing k, where a and bT hold f32 values (with the operands' signs):
/// their f32 product is the exact product rounded once, as the model wants.
/// dRows[m] points to the N f32 bit patterns of row m (a TMEM lane). Row m
/// takes bT + (m / 32) * quarterStride: with block scaling a column's factors
/// depend on the lane quarter of the row (0: the same B for all rows).
uint32_t accumulateProducts(const float *a, const float *bT, size_t quarterStride, uint32_t M,
                            uint32_t N, uint32_t K, uint32_t *const *dRows, bool stopAtNaN);

/// The same with f64 values whose products are exact (block-scaled kinds:
/// the element times its scale factor), rounded to f32 before each add.
uint32_t accumulateProducts(const double *a, const double *bT, size_t quarterStride, uint32_t M,
                            uint32_t N, uint32_t K, uint32_t *const *dRows, bool stopAtNaN);

} // namespace cutec::rt
