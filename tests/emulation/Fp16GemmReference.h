// The f32 reference of the f16 GEMM examples (fp16_gemm.cute,
// fp16_gemm_2cta.cute), written independently of the emulator: the f16
// inputs multiplied exactly, added in K order in f32 (the order one MMA
// instruction after another accumulates in) and rounded to f16.
#ifndef CUTEC_TESTS_EMULATION_FP16GEMMREFERENCE_H
#define CUTEC_TESTS_EMULATION_FP16GEMMREFERENCE_H

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <vector>

namespace cutec::test {

struct GemmShape {
  uint32_t m, n, k;
};

inline void PrintTo(const GemmShape &s, std::ostream *os) {
  *os << "M=" << s.m << " N=" << s.n << " K=" << s.k;
}

/// Random A (M, K) and B (N, K): eighths from -4 to 4, exact in f16, with
/// sums that need rounding.
inline void drawFp16Operands(const GemmShape &s, std::vector<_Float16> &a,
                             std::vector<_Float16> &b) {
  std::mt19937 random(s.m * 31 + s.n * 7 + s.k);
  auto draw = [&] { return _Float16(int(random() % 65) - 32) / _Float16(8); };
  a.resize(size_t(s.m) * s.k);
  b.resize(size_t(s.n) * s.k);
  for (_Float16 &v : a)
    v = draw();
  for (_Float16 &v : b)
    v = draw();
}

/// Adds a test failure for each of the first elements of `c` (f16 bits)
/// that differ from the reference; returns how many differ.
inline size_t countFp16GemmMismatches(const GemmShape &s, const std::vector<_Float16> &a,
                                      const std::vector<_Float16> &b,
                                      const std::vector<uint16_t> &c) {
  size_t mismatches = 0;
  for (uint32_t m = 0; m < s.m; ++m)
    for (uint32_t n = 0; n < s.n; ++n) {
      float acc = 0;
      for (uint32_t k = 0; k < s.k; ++k)
        acc += float(a[size_t(m) * s.k + k]) * float(b[size_t(n) * s.k + k]);
      _Float16 rounded = _Float16(acc);
      uint16_t want, got = c[size_t(m) * s.n + n];
      std::memcpy(&want, &rounded, 2);
      if (got != want && mismatches++ < 5)
        ADD_FAILURE() << "C[" << m << ", " << n << "] = 0x" << std::hex << got << ", expected 0x"
                      << want;
    }
  return mismatches;
}

} // namespace cutec::test

#endif
