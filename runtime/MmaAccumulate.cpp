// The vectorised inner loop of tcgen05.mma (see runtime/MmaAccumulate.h).
#include "runtime/MmaAccumulate.h"

#include <cstddef>
#include <cstring>

namespace cutec::rt {
namespace {

// Runs the wrapped function in an AVX-512 or AVX clone where the CPU has
// them (wider f32 lanes than SSE2's 4). Not FMA: the adds stay separate.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CUTEC_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx", "default")))
#else
#define CUTEC_VECTOR_CLONES
#endif

/// W outputs of one row, kept in registers across k: sum[j] += f32(av *
/// b[k][j]) for k in order.
template <typename T, uint32_t W>
[[gnu::always_inline]] inline void accumulateBlock(const T *aRow, const T *bT, uint32_t N,
                                                   uint32_t K, uint32_t *d) {
  float sum[W];
  std::memcpy(sum, d, sizeof sum);
  for (uint32_t k = 0; k < K; ++k) {
    const T av = aRow[k];
    const T *bRow = bT + size_t(k) * N;
    for (uint32_t j = 0; j < W; ++j)
      sum[j] += float(av * bRow[j]);
  }
  std::memcpy(d, sum, sizeof sum);
}

template <typename T>
[[gnu::always_inline]] inline uint32_t accumulateRows(const T *a, const T *bT, size_t quarterStride,
                                                      uint32_t M, uint32_t N, uint32_t K,
                                                      uint32_t *const *dRows, bool stopAtNaN) {
  constexpr uint32_t kWide = 32, kNarrow = 8; // N is a multiple of 8
  for (uint32_t m = 0; m < M; ++m) {
    if (stopAtNaN) {
      uint32_t nan = 0; // f32 bit patterns above +infinity's, either sign
      for (uint32_t n = 0; n < N; ++n)
        nan |= (dRows[m][n] & 0x7FFFFFFFu) > 0x7F800000u;
      if (nan)
        return m;
    }
    const T *aRow = a + size_t(m) * K, *b = bT + (m / 32) * quarterStride;
    uint32_t *dRow = dRows[m];
    uint32_t n = 0;
    for (; n + kWide <= N; n += kWide)
      accumulateBlock<T, kWide>(aRow, b + n, N, K, dRow + n);
    for (; n < N; n += kNarrow)
      accumulateBlock<T, kNarrow>(aRow, b + n, N, K, dRow + n);
  }
  return M;
}

} // namespace

CUTEC_VECTOR_CLONES
uint32_t accumulateProducts(const float *a, const float *bT, uint32_t M, uint32_t N, uint32_t K,
                            uint32_t *const *dRows, bool stopAtNaN) {
  return accumulateRows(a, bT, 0, M, N, K, dRows, stopAtNaN);
}

CUTEC_VECTOR_CLONES
uint32_t accumulateScaledProducts(const double *a, const double *bT, uint32_t M, uint32_t N,
                                  uint32_t K, uint32_t *const *dRows, bool stopAtNaN) {
  return accumulateRows(a, bT, size_t(K) * N, M, N, K, dRows, stopAtNaN);
}

} // namespace cutec::rt
