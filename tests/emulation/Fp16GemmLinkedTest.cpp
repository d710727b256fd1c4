// examples/fp16_gemm.cute's emitted C++ (generated at build time) on the
// runtime: the tcgen05 GEMM through TMA, mbarriers, tensor memory and the
// MMA's descriptors equals an independent reference that multiplies the f16
// inputs exactly, adds in K order in f32 (the order one MMA instruction
// after another accumulates in) and rounds to f16.
#include "Fp16GemmEmulated.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace cutec {
namespace {

struct Shape {
  uint32_t m, n, k;
};

void PrintTo(const Shape &s, std::ostream *os) {
  *os << "M=" << s.m << " N=" << s.n << " K=" << s.k;
}

uint16_t f16Bits(_Float16 v) {
  uint16_t bits;
  std::memcpy(&bits, &v, 2);
  return bits;
}

class Fp16GemmLinked : public ::testing::TestWithParam<Shape> {};

TEST_P(Fp16GemmLinked, MatchesAnF32Reference) {
  Shape s = GetParam();
  std::mt19937 random(s.m * 31 + s.n * 7 + s.k);
  // Eighths from -4 to 4: exact in f16, with sums that need rounding.
  auto draw = [&] { return _Float16(int(random() % 65) - 32) / _Float16(8); };
  std::vector<_Float16> a(size_t(s.m) * s.k), b(size_t(s.n) * s.k);
  for (_Float16 &v : a)
    v = draw();
  for (_Float16 &v : b)
    v = draw();
  std::vector<uint16_t> c(size_t(s.m) * s.n, 0xFFFF);

  rt::Status status = test::runEmulatedFp16Gemm(a, b, c, s.m, s.n, s.k);
  ASSERT_TRUE(status) << status.error();

  size_t mismatches = 0;
  for (uint32_t m = 0; m < s.m; ++m)
    for (uint32_t n = 0; n < s.n; ++n) {
      float acc = 0;
      for (uint32_t k = 0; k < s.k; ++k)
        acc += float(a[size_t(m) * s.k + k]) * float(b[size_t(n) * s.k + k]);
      uint16_t want = f16Bits(_Float16(acc)), got = c[size_t(m) * s.n + n];
      if (got != want && mismatches++ < 5)
        ADD_FAILURE() << "C[" << m << ", " << n << "] = 0x" << std::hex << got << ", expected 0x"
                      << want;
    }
  EXPECT_EQ(mismatches, 0u);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Fp16GemmLinked,
                         ::testing::Values(Shape{128, 256, 64}, Shape{512, 768, 384},
                                           Shape{256, 512, 640}, Shape{384, 256, 128}));

} // namespace
} // namespace cutec
