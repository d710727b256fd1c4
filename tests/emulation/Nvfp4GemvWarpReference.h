// An independent reference for examples/nvfp4_gemv_warp.cute, in its order of
// summation: lane j of a row's warp adds the products ((a*sa)*b)*sb of its
// k-chunks j, j+32, ... (32 k each) in order; then the 32 partial sums are
// added by a butterfly with lane offsets 16, 8, 4, 2, 1. The inputs, tables
// and scale-factor indices are those of Nvfp4GemvReference.h.
#ifndef CUTEC_TESTS_EMULATION_NVFP4GEMVWARPREFERENCE_H
#define CUTEC_TESTS_EMULATION_NVFP4GEMVWARPREFERENCE_H

#include "Nvfp4GemvReference.h"

namespace cutec::test {

/// c[m + l*M] as f16 bits.
inline std::vector<uint16_t> referenceGemvWarp(const GemvProblem &p) {
  std::vector<uint16_t> c(size_t(p.m) * p.l);
  const uint32_t chunk = 32, chunks = p.k / chunk;
  for (uint32_t l = 0; l < p.l; ++l)
    for (uint32_t row = 0; row < p.m; ++row) {
      float lanes[32] = {};
      for (uint32_t lane = 0; lane < 32; ++lane)
        for (uint32_t kc = lane; kc < chunks; kc += 32)
          for (uint32_t k = kc * chunk; k < (kc + 1) * chunk; ++k) {
            float a = e2m1Value(nibble(p.a, size_t(l) * p.m * p.k + size_t(row) * p.k + k));
            float sa = ue4m3Value(p.sfa[sfIndex(row, k, l, p.m, p.k)]);
            float b = e2m1Value(nibble(p.b, size_t(l) * 128 * p.k + k));
            float sb = ue4m3Value(p.sfb[sfIndex(0, k, l, 128, p.k)]);
            volatile float product = ((a * sa) * b) * sb; // no contraction into an fma
            lanes[lane] = lanes[lane] + product;
          }
      // Lane i adds lane i ^ offset's sum; lane 0's chain is what is stored.
      for (uint32_t offset = 16; offset >= 1; offset /= 2)
        for (uint32_t lane = 0; lane < offset; ++lane)
          lanes[lane] = lanes[lane] + lanes[lane + offset];
      _Float16 h = static_cast<_Float16>(lanes[0]);
      std::memcpy(&c[size_t(l) * p.m + row], &h, 2);
    }
  return c;
}

} // namespace cutec::test

#endif
