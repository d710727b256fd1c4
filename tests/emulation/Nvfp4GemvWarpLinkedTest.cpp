// examples/nvfp4_gemv_warp.cute's emitted C++ (generated at build time),
// linked into this test and launched on the runtime: every f16 output equals
// the reference that follows its order of summation; and a launch whose
// sizes break the kernel's assume= facts is refused.
#include "Nvfp4GemvWarpEmulated.h"
#include "Nvfp4GemvWarpReference.h"
#include "OperandMemory.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

struct Shape {
  uint32_t m, k, l;
};

void PrintTo(const Shape &s, std::ostream *os) {
  *os << "M=" << s.m << " K=" << s.k << " L=" << s.l;
}

class Nvfp4GemvWarpLinked : public ::testing::TestWithParam<Shape> {};

TEST_P(Nvfp4GemvWarpLinked, MatchesItsReferenceBitForBit) {
  Shape s = GetParam();
  test::GemvProblem p = test::makeGemvProblem(s.m, s.k, s.l, s.m ^ s.k ^ s.l);
  std::vector<uint16_t> c(size_t(s.m) * s.l, 0xFFFF);
  rt::Status status = test::runEmulatedGemvWarp(p, c);
  ASSERT_TRUE(status) << status.error();
  std::vector<uint16_t> expected = test::referenceGemvWarp(p);
  size_t mismatches = 0;
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] != expected[i] && mismatches++ < 5)
      ADD_FAILURE() << "c[" << i << "] = 0x" << std::hex << c[i] << ", expected 0x" << expected[i];
  EXPECT_EQ(mismatches, 0u);
}

// K = 1088 leaves lanes with different numbers of chunks (34 of them).
INSTANTIATE_TEST_SUITE_P(Shapes, Nvfp4GemvWarpLinked,
                         ::testing::Values(Shape{128, 256, 1}, Shape{384, 128, 3},
                                           Shape{256, 1088, 2}, Shape{1152, 2048, 1}),
                         [](const auto &info) {
                           return "M" + std::to_string(info.param.m) + "_K" +
                                  std::to_string(info.param.k) + "_L" +
                                  std::to_string(info.param.l);
                         });

TEST(Nvfp4GemvWarpLaunch, RefusesSizesThatBreakAnAssumption) {
  test::GemvProblem p = test::makeGemvProblem(128, 256, 1, 7);
  p.k = 224; // not a multiple of 64; the buffers are large enough
  std::vector<uint16_t> c(128, 0);
  rt::Status status = test::runEmulatedGemvWarp(p, c);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error(), "cannot launch kernel 'nvfp4_gemv_warp': K = 224 breaks the kernel's "
                            "assumption divby(K, 64): it is not a multiple of 64");
}

TEST(Nvfp4GemvWarpLaunch, RefusesMisalignedTensors) {
  test::GemvProblem p = test::makeGemvProblem(128, 256, 1, 7);
  std::vector<uint16_t> c(128 + 8, 0);
  rt::MemoryMap memory;
  ASSERT_TRUE(test::addOperandMemory(memory, p, c.data(), c.size() * 2));
  using test::addressOf;
  nvfp4_gemv_warp_Params params{addressOf(p.a.data()) + 8, addressOf(p.b.data()),
                                addressOf(p.sfa.data()),   addressOf(p.sfb.data()),
                                addressOf(c.data()),       128,
                                256,                     1};
  rt::LaunchConfig config;
  config.grid = nvfp4_gemv_warp_grid(128, 256, 1);
  config.block = nvfp4_gemv_warp_block();
  rt::Status status = rt::launch(cutec_kernel_nvfp4_gemv_warp, config, &params, memory);
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().find("the address of mA (0x"), std::string::npos) << status.error();
  EXPECT_NE(status.error().find("is not a multiple of 16 bytes"), std::string::npos);
}

} // namespace
} // namespace cutec
