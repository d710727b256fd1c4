// examples/nvfp4_gemv.cute's emitted C++ (generated at build time), linked
// into this test and launched on the runtime: every f16 output equals the
// independent reference, for the seed's shapes and awkward ones.
#include "Nvfp4GemvEmulated.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

struct Shape {
  uint32_t m, k, l;
};

// How ctest and gtest name each case.
void PrintTo(const Shape &s, std::ostream *os) {
  *os << "M=" << s.m << " K=" << s.k << " L=" << s.l;
}

class Nvfp4GemvLinked : public ::testing::TestWithParam<Shape> {};

TEST_P(Nvfp4GemvLinked, MatchesTheReferenceBitForBit) {
  Shape s = GetParam();
  test::GemvProblem p = test::makeGemvProblem(s.m, s.k, s.l, s.m ^ s.k ^ s.l);
  std::vector<uint16_t> c(size_t(s.m) * s.l, 0xFFFF);

  rt::Status status = test::runEmulatedGemv(p, c);
  ASSERT_TRUE(status) << status.error();

  std::vector<uint16_t> expected = test::referenceGemv(p);
  size_t mismatches = 0;
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] != expected[i] && mismatches++ < 5)
      ADD_FAILURE() << "c[" << i << "] = 0x" << std::hex << c[i] << ", expected 0x" << expected[i];
  EXPECT_EQ(mismatches, 0u);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Nvfp4GemvLinked,
                         ::testing::Values(Shape{128, 256, 1}, Shape{2432, 4608, 2},
                                           Shape{256, 64, 1}, Shape{384, 128, 3},
                                           Shape{1152, 640, 1}),
                         [](const auto &info) {
                           return "M" + std::to_string(info.param.m) + "_K" +
                                  std::to_string(info.param.k) + "_L" +
                                  std::to_string(info.param.l);
                         });

} // namespace
} // namespace cutec
