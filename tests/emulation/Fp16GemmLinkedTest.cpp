// examples/fp16_gemm.cute's emitted C++ (generated at build time) on the
// runtime: the tcgen05 GEMM through TMA, mbarriers, tensor memory and the
// MMA's descriptors equals an independent reference (Fp16GemmReference.h).
#include "Fp16GemmEmulated.h"
#include "Fp16GemmReference.h"

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

INSTANTIATE_TEST_SUITE_P(Shapes, Fp16GemmLinked,
                         ::testing::Values(GemmShape{128, 256, 64}, GemmShape{512, 768, 384},
                                           GemmShape{256, 512, 640}, GemmShape{384, 256, 128}));

} // namespace
} // namespace cutec
