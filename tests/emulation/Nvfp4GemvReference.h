// The NVFP4 GEMV's inputs, drawn like the GPU MODE competition's, and an
// independent reference: its own e2m1/ue4m3 tables, scale-factor indices
// written out from seed 000's printed layout, f32 accumulation in the kernel's
// order and the compiler's _Float16 rounding.
#ifndef CUTEC_TESTS_EMULATION_NVFP4GEMVREFERENCE_H
#define CUTEC_TESTS_EMULATION_NVFP4GEMVREFERENCE_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace cutec::test {

struct GemvProblem {
  uint32_t m, k, l;
  std::vector<uint8_t> a, b, sfa, sfb; // memory images
};

inline float e2m1Value(unsigned code) {
  static const float values[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  return (code & 8) ? -values[code & 7] : values[code & 7];
}

inline float ue4m3Value(uint8_t byte) {
  unsigned e = (byte >> 3) & 15, m = byte & 7;
  return e == 0 ? std::ldexp(m / 8.0f, -6) : std::ldexp(1 + m / 8.0f, int(e) - 7);
}

/// (((32,4),M/128),((16,4),K/64),(1,L)) : (((16,4),512*K/64),((0,1),512),(0,512*K/64*M/128))
inline size_t sfIndex(uint32_t row, uint32_t k, uint32_t l, uint32_t rows, uint32_t ks) {
  size_t restM = rows / 128, restK = ks / 64;
  return (row % 32) * 16 + ((row / 32) % 4) * 4 + (row / 128) * 512 * restK + (k / 16) % 4 +
         (k / 64) * 512 + l * 512 * restK * restM;
}

inline unsigned nibble(const std::vector<uint8_t> &image, size_t element) {
  return (image[element / 2] >> (4 * (element % 2))) & 15;
}

inline GemvProblem makeGemvProblem(uint32_t m, uint32_t k, uint32_t l, unsigned seed) {
  GemvProblem p{m, k, l, {}, {}, {}, {}};
  std::mt19937 rng(seed);
  auto codes = [&](size_t elements) {
    std::vector<uint8_t> image(elements / 2);
    for (uint8_t &byte : image)
      byte = uint8_t((rng() % 4) | ((rng() % 4) << 4)); // e2m1 codes 0..3
    return image;
  };
  const uint8_t scales[] = {0x38, 0x40, 0x44, 0x48, 0x4C, 0x50}; // 1, 2, 3, 4, 6, 8
  auto sf = [&](size_t count) {
    std::vector<uint8_t> image(count);
    for (uint8_t &byte : image)
      byte = scales[rng() % 6];
    return image;
  };
  p.a = codes(size_t(m) * k * l);
  p.b = codes(size_t(128) * k * l);
  p.sfa = sf(size_t(m) * k * l / 16);
  p.sfb = sf(size_t(128) * k * l / 16);
  return p;
}

/// c[m + l*M] as f16 bits.
inline std::vector<uint16_t> referenceGemv(const GemvProblem &p) {
  std::vector<uint16_t> c(size_t(p.m) * p.l);
  for (uint32_t l = 0; l < p.l; ++l)
    for (uint32_t row = 0; row < p.m; ++row) {
      float res = 0;
      for (uint32_t k = 0; k < p.k; ++k) {
        float a = e2m1Value(nibble(p.a, size_t(l) * p.m * p.k + size_t(row) * p.k + k));
        float sa = ue4m3Value(p.sfa[sfIndex(row, k, l, p.m, p.k)]);
        float b = e2m1Value(nibble(p.b, size_t(l) * 128 * p.k + k));
        float sb = ue4m3Value(p.sfb[sfIndex(0, k, l, 128, p.k)]);
        volatile float product = ((a * sa) * b) * sb; // no contraction into an fma
        res = res + product;
      }
      _Float16 h = static_cast<_Float16>(res);
      std::memcpy(&c[size_t(l) * p.m + row], &h, 2);
    }
  return c;
}

} // namespace cutec::test

#endif
