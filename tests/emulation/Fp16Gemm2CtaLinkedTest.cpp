// examples/fp16_gemm_2cta.cute's emitted C++ on the runtime: CTA pairs in
// clusters of two, pair TMA loads, M=256 cta_group::2 MMAs and multicast
// commits give the same C as the f32 reference (Fp16GemmReference.h), bit
// for bit, for any number of workers.
#include "Fp16GemmReference.h"
#include "GemmEmulated.h"
#include "fp16_gemm_2cta_emu.h"

namespace cutec {
namespace {

using test::GemmShape;

rt::Status run2Cta(const GemmShape &s, const std::vector<_Float16> &a,
                   const std::vector<_Float16> &b, std::vector<uint16_t> &c, unsigned workers) {
  return test::runEmulatedGemm<fp16_gemm_2cta_Params>(
      cutec_kernel_fp16_gemm_2cta, fp16_gemm_2cta_grid(s.m, s.k, s.n), fp16_gemm_2cta_block(),
      fp16_gemm_2cta_shared_bytes, a.data(), a.size() * 2, b.data(), b.size() * 2, c.data(),
      c.size() * 2, s.m, s.n, s.k, workers);
}

class Fp16Gemm2CtaLinked : public ::testing::TestWithParam<GemmShape> {};

TEST_P(Fp16Gemm2CtaLinked, MatchesAnF32Reference) {
  GemmShape s = GetParam();
  std::vector<_Float16> a, b;
  test::drawFp16Operands(s, a, b);
  std::vector<uint16_t> c(size_t(s.m) * s.n, 0xFFFF);
  rt::Status status = run2Cta(s, a, b, c, 0);
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(test::countFp16GemmMismatches(s, a, b, c), 0u);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Fp16Gemm2CtaLinked,
                         ::testing::Values(GemmShape{256, 256, 64}, GemmShape{512, 768, 384},
                                           GemmShape{256, 512, 640}, GemmShape{768, 256, 128}));

TEST(Fp16Gemm2CtaLinked, TheKernelRunsInPairsAndAnyWorkerCountGivesTheSameC) {
  EXPECT_EQ(cutec_kernel_fp16_gemm_2cta.cluster, (rt::Dim3{2, 1, 1}));
  GemmShape s{512, 512, 128};
  std::vector<_Float16> a, b;
  test::drawFp16Operands(s, a, b);
  std::vector<uint16_t> one(size_t(s.m) * s.n, 0), many(one.size(), 0);
  ASSERT_TRUE(run2Cta(s, a, b, one, 1));
  ASSERT_TRUE(run2Cta(s, a, b, many, 3));
  EXPECT_EQ(one, many);
}

} // namespace
} // namespace cutec
