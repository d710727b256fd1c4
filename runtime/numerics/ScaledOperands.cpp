// Block-scaled operands with their factors folded in (see
// runtime/numerics/ScaledOperands.h).
#include "runtime/numerics/ScaledOperands.h"

#include <cmath>
#include <cstring>

namespace cutec::rt {

std::array<bool, 256> f32ExactFactors(const float *values, uint32_t count, const float *factors) {
  std::array<bool, 256> exact{};
  for (uint32_t code = 0; code < 256; ++code) {
    const double factor = factors[code];
    bool ok = factor == factor;
    for (uint32_t i = 0; ok && i < count; ++i) {
      if (values[i] != values[i])
        continue;
      const double product = double(values[i]) * factor; // exact in f64
      const float rounded = float(product);
      ok = double(rounded) == product && std::fpclassify(rounded) != FP_SUBNORMAL;
    }
    exact[code] = ok;
  }
  return exact;
}

template <typename T>
void scaleOperands(const float *a, const float *bT, const float *sfa, const float *sfb, uint32_t M,
                   uint32_t N, uint32_t K, uint32_t V, float signA, float signB,
                   ScaledOperands<T> &out) {
  // Each element's sign is applied in f32 (exact) and its factor in T: in
  // f64 exactly, in f32 exactly where the caller checked it is.
  const uint32_t perSf = K / V;
  out.a.resize(size_t(M) * K);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t j = 0; j < V; ++j) {
      const T factor = sfa[m * V + j];
      for (uint32_t k = j * perSf; k < (j + 1) * perSf; ++k)
        out.a[size_t(m) * K + k] = T(signA * a[size_t(m) * K + k]) * factor;
    }
  const size_t quarterFactors = size_t(N) * V;
  bool sameQuarters = true;
  for (uint32_t q = 1; q < 4; ++q)
    sameQuarters &= std::memcmp(sfb, sfb + q * quarterFactors, quarterFactors * sizeof(float)) == 0;
  out.quarters = sameQuarters ? 1 : 4;
  out.bT.resize(out.quarters * size_t(K) * N);
  out.factors.resize(N);
  for (uint32_t q = 0; q < out.quarters; ++q)
    for (uint32_t j = 0; j < V; ++j) {
      for (uint32_t n = 0; n < N; ++n)
        out.factors[n] = sfb[q * quarterFactors + size_t(n) * V + j];
      for (uint32_t k = j * perSf; k < (j + 1) * perSf; ++k) {
        const float *from = bT + size_t(k) * N;
        T *to = &out.bT[(size_t(q) * K + k) * N];
        for (uint32_t n = 0; n < N; ++n)
          to[n] = T(signB * from[n]) * out.factors[n];
      }
    }
}

template void scaleOperands(const float *, const float *, const float *, const float *, uint32_t,
                            uint32_t, uint32_t, uint32_t, float, float, ScaledOperands<float> &);
template void scaleOperands(const float *, const float *, const float *, const float *, uint32_t,
                            uint32_t, uint32_t, uint32_t, float, float, ScaledOperands<double> &);

} // namespace cutec::rt
