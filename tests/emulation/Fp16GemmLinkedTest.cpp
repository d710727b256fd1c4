// examples/fp16_gemm.cute's emitted C++ (generated at build time) on the
// runtime: the tcgen05 GEMM through TMA, mbarriers, tensor memory and the
// MMA's descriptors equals an independent reference (Fp16GemmReference.h);
// launched with Hopper's numerics it equals the wgmma model applied once per
// instruction (16 k) instead.
#include "Fp16GemmEmulated.h"
#include "Fp16GemmReference.h"

#include "runtime/numerics/WgmmaNumerics.h"

#include <random>

namespace cutec {
namespace {

using test::GemmShape;

class Fp16GemmLinked : public ::testing::TestWithParam<GemmShape> {};

TEST_P(Fp16GemmLinked, MatchesAnF32Reference) {
  GemmShape s = GetParam();
  std::vector<_Float16> a, b;
  test::drawFp16Operands(s, a, b);
  std::vector<uint16_t> c(size_t(s.m) * s.n, 0xFFFF);

  rt::Status status = test::runEmulatedFp16Gemm(a, b, c, s.m, s.n, s.k);
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(test::countFp16GemmMismatches(s, a, b, c), 0u);
}

/// Normally distributed operands, so that the order and precision of the
/// sums matter (the small integers of drawFp16Operands sum exactly).
TEST(Fp16GemmLinkedNumerics, HopperNumericsMatchTheWgmmaModelPerInstruction) {
  const GemmShape s{128, 256, 256};
  std::mt19937 random(11);
  std::normal_distribution<float> normal;
  std::vector<_Float16> a(size_t(s.m) * s.k), b(size_t(s.n) * s.k);
  for (_Float16 &v : a)
    v = _Float16(normal(random));
  for (_Float16 &v : b)
    v = _Float16(normal(random));
  std::vector<uint16_t> steps(size_t(s.m) * s.n), hopper(size_t(s.m) * s.n);
  rt::Status status = test::runEmulatedFp16Gemm(a, b, steps, s.m, s.n, s.k);
  ASSERT_TRUE(status) << status.error();
  status = test::runEmulatedFp16Gemm(a, b, hopper, s.m, s.n, s.k, 0, rt::Tcgen05Numerics::Hopper);
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(test::countFp16GemmMismatches(s, a, b, steps), 0u);

  const rt::WgmmaKind kind{rt::WgmmaElement::F16, rt::WgmmaElement::F16, rt::WgmmaAccum::F32};
  constexpr uint32_t kStep = 16;
  auto code = [](_Float16 v) {
    uint16_t bits;
    std::memcpy(&bits, &v, 2);
    return uint32_t(bits);
  };
  size_t differ = 0;
  for (uint32_t m = 0; m < s.m; ++m)
    for (uint32_t n = 0; n < s.n; ++n) {
      uint32_t d = 0;
      for (uint32_t k0 = 0; k0 < s.k; k0 += kStep) {
        uint32_t aCodes[kStep], bCodes[kStep];
        for (uint32_t k = 0; k < kStep; ++k) {
          aCodes[k] = code(a[size_t(m) * s.k + k0 + k]);
          bCodes[k] = code(b[size_t(n) * s.k + k0 + k]);
        }
        d = rt::wgmmaDot(kind, aCodes, bCodes, d);
      }
      float acc;
      std::memcpy(&acc, &d, 4);
      const uint16_t want = code(_Float16(acc)), got = hopper[size_t(m) * s.n + n];
      ASSERT_EQ(got, want) << "C[" << m << ", " << n << "]";
      differ += got != steps[size_t(m) * s.n + n];
    }
  EXPECT_GT(differ, 0u) << "the two numerics gave the same C";
}

INSTANTIATE_TEST_SUITE_P(Shapes, Fp16GemmLinked,
                         ::testing::Values(GemmShape{128, 256, 64}, GemmShape{512, 768, 384},
                                           GemmShape{256, 512, 640}, GemmShape{384, 256, 128}));

} // namespace
} // namespace cutec
