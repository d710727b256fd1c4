// The vectorised inner loop of tcgen05.mma (see runtime/numerics/MmaAccumulate.h).
#include "runtime/numerics/MmaAccumulate.h"

#include <cstddef>
#include <type_traits>

namespace cutec::rt {
namespace {

// Runs the wrapped function in an AVX-512 or AVX clone where the CPU has
// them (wider f32 lanes than SSE2's 4). Not FMA: the adds stay separate.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CUTEC_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx", "default")))
#else
#define CUTEC_VECTOR_CLONES
#endif

/// L lanes of T (GCC/Clang vector extensions; a target without vectors that
/// wide splits them), and the same read from or written to memory that need
/// not be aligned and may be typed otherwise (D's cells are uint32_t).
template <typename T, uint32_t L> using Lanes [[gnu::vector_size(L * sizeof(T))]] = T;
template <typename T, uint32_t L>
using LanesInMemory [[gnu::vector_size(L * sizeof(T)), gnu::aligned(alignof(T)), gnu::may_alias]] =
    T;

/// The L lanes of T at `p` (passing vectors by value would change the ABI
/// between the clones).
template <typename T, uint32_t L, typename P> LanesInMemory<T, L> *lanesAt(P *p) {
  return reinterpret_cast<LanesInMemory<T, L> *>(const_cast<std::remove_const_t<P> *>(p));
}

/// An R x (V*L) tile of D: rows d[0..R) from `column` on, each adding
/// f32(a[r][k] * b[k][j]) for k in order. The sums stay in registers across
/// k; the R*V sums are independent chains of adds, enough to hide the add
/// latency, and each b vector loaded serves all R rows.
template <typename T, uint32_t L, uint32_t R, uint32_t V>
[[gnu::always_inline]] inline void accumulateTile(const T *a, uint32_t K, const T *bT, uint32_t N,
                                                  uint32_t *const *d, uint32_t column) {
  using Sum = Lanes<float, L>;
  Sum sum[R][V];
#pragma GCC unroll 4
  for (uint32_t r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (uint32_t v = 0; v < V; ++v)
      sum[r][v] = *lanesAt<float, L>(d[r] + column + v * L);
  for (uint32_t k = 0; k < K; ++k) {
    Lanes<T, L> b[V];
#pragma GCC unroll 4
    for (uint32_t v = 0; v < V; ++v)
      b[v] = *lanesAt<T, L>(bT + size_t(k) * N + column + v * L);
#pragma GCC unroll 4
    for (uint32_t r = 0; r < R; ++r) {
      const T av = a[size_t(r) * K + k];
#pragma GCC unroll 4
      for (uint32_t v = 0; v < V; ++v)
        sum[r][v] += __builtin_convertvector(av * b[v], Sum);
    }
  }
#pragma GCC unroll 4
  for (uint32_t r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (uint32_t v = 0; v < V; ++v)
      *lanesAt<float, L>(d[r] + column + v * L) = sum[r][v];
}

/// R rows of D, all N columns (a multiple of 8): wide tiles, then 8 at a time.
template <typename T, uint32_t R>
[[gnu::always_inline]] inline void accumulateRowBlock(const T *a, uint32_t K, const T *bT,
                                                      uint32_t N, uint32_t *const *d) {
  constexpr uint32_t kLanes = 64 / sizeof(T), kVectors = 4, kWide = kLanes * kVectors;
  uint32_t n = 0;
  for (; n + kWide <= N; n += kWide)
    accumulateTile<T, kLanes, R, kVectors>(a, K, bT, N, d, n);
  for (; n < N; n += 8)
    accumulateTile<T, 8, R, 1>(a, K, bT, N, d, n);
}

/// Whether a row of D (N f32 bit patterns, N a multiple of 8) holds a NaN:
/// a bit pattern above +infinity's, either sign. (Signed lanes: every SSE
/// and AVX level compares those, and both sides are below 2^31.)
[[gnu::always_inline]] inline bool rowHasNaN(const uint32_t *row, uint32_t N) {
  using Bits = Lanes<int32_t, 8>;
  Bits nan{};
  for (uint32_t n = 0; n < N; n += 8)
    nan |= Bits((*lanesAt<int32_t, 8>(row + n) & 0x7FFFFFFF) > 0x7F800000);
  for (uint32_t j = 0; j < 8; ++j)
    if (nan[j])
      return true;
  return false;
}

template <typename T>
[[gnu::always_inline]] inline uint32_t accumulateRows(const T *a, const T *bT, size_t quarterStride,
                                                      uint32_t M, uint32_t N, uint32_t K,
                                                      uint32_t *const *dRows, bool stopAtNaN) {
  // Blocks of 4 rows (never across a lane quarter: M is a multiple of 4 and
  // quarters are 32 rows), each after its rows' NaN check; a block with a
  // NaN row runs its rows before that one alone, then stops.
  constexpr uint32_t kRows = 4;
  for (uint32_t m = 0; m < M;) {
    const uint32_t rows = M - m >= kRows ? kRows : 1;
    uint32_t clean = rows;
    for (uint32_t r = 0; stopAtNaN && r < rows && clean == rows; ++r)
      if (rowHasNaN(dRows[m + r], N))
        clean = r;
    const T *b = bT + (m / 32) * quarterStride;
    if (clean == kRows) {
      accumulateRowBlock<T, kRows>(a + size_t(m) * K, K, b, N, dRows + m);
    } else {
      for (uint32_t r = 0; r < clean; ++r)
        accumulateRowBlock<T, 1>(a + size_t(m + r) * K, K, b, N, dRows + m + r);
      if (clean < rows)
        return m + clean;
    }
    m += rows;
  }
  return M;
}

} // namespace

CUTEC_VECTOR_CLONES
uint32_t accumulateProducts(const float *a, const float *bT, size_t quarterStride, uint32_t M,
                            uint32_t N, uint32_t K, uint32_t *const *dRows, bool stopAtNaN) {
  return accumulateRows(a, bT, quarterStride, M, N, K, dRows, stopAtNaN);
}

CUTEC_VECTOR_CLONES
uint32_t accumulateProducts(const double *a, const double *bT, size_t quarterStride, uint32_t M,
                            uint32_t N, uint32_t K, uint32_t *const *dRows, bool stopAtNaN) {
  return accumulateRows(a, bT, quarterStride, M, N, K, dRows, stopAtNaN);
}

} // namespace cutec::rt
