// examples/tma_tile_copy.cute's emitted C++ (generated at build time) on the
// runtime: every kernel's shared-memory image and read-back tiles equal what
// TMA must produce, computed independently, for boxes inside the tensor and
// past its edges; and the result does not depend on the number of workers.
#include "TmaTileCopyCases.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

struct Case {
  const test::TileCopyEntry *entry;
  test::TileCopyShape shape;
};

void PrintTo(const Case &c, std::ostream *os) {
  *os << c.entry->kernel.name << " M=" << c.shape.m << " N=" << c.shape.n << " L=" << c.shape.l;
}

std::vector<Case> allCases() {
  std::vector<Case> cases;
  for (const test::TileCopyEntry &entry : test::tileCopyKernels())
    for (test::TileCopyShape shape : test::tileCopyShapes(entry.kernel))
      cases.push_back({&entry, shape});
  return cases;
}

class TmaTileCopyLinked : public ::testing::TestWithParam<Case> {};

size_t countDifferences(const std::vector<uint8_t> &got, const std::vector<uint8_t> &want,
                        const char *what) {
  size_t differ = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && differ++ < 5)
      ADD_FAILURE() << what << "[" << i << "] = " << int(got[i]) << ", expected " << int(want[i]);
  return differ;
}

TEST_P(TmaTileCopyLinked, WritesTheImageTmaMakes) {
  const Case &c = GetParam();
  test::TileCopyProblem p =
      test::makeTileCopyProblem(c.entry->kernel, c.shape.m, c.shape.n, c.shape.l, c.shape.m * 7 + c.shape.n);
  rt::Status status = c.entry->emulate(p, 2);
  ASSERT_TRUE(status) << status.error();
  std::vector<uint8_t> image, tiles;
  test::expectedTileCopy(p, image, tiles);
  EXPECT_EQ(countDifferences(p.image, image, "image"), 0u);
  EXPECT_EQ(countDifferences(p.tiles, tiles, "tiles"), 0u);

  test::TileCopyProblem single = test::makeTileCopyProblem(c.entry->kernel, c.shape.m, c.shape.n,
                                                           c.shape.l, c.shape.m * 7 + c.shape.n);
  status = c.entry->emulate(single, 1);
  ASSERT_TRUE(status) << status.error();
  EXPECT_EQ(single.image, p.image);
  EXPECT_EQ(single.tiles, p.tiles);
}

INSTANTIATE_TEST_SUITE_P(Kernels, TmaTileCopyLinked, ::testing::ValuesIn(allCases()));

const test::TileCopyEntry &kernelNamed(std::string_view name) {
  for (const test::TileCopyEntry &entry : test::tileCopyKernels())
    if (name == entry.kernel.name)
      return entry;
  ADD_FAILURE() << "no kernel " << name;
  return test::tileCopyKernels().front();
}

// The launch encodes the tensor maps as the host launcher does, and refuses
// sizes a map cannot describe: TMA moves fp4 as bytes, so N must be even.
TEST(TmaTileCopyLaunch, AnOddFp4ExtentIsRefused) {
  const test::TileCopyEntry &fp4 = kernelNamed("tma_copy_fp4_sw128");
  test::TileCopyProblem p = test::makeTileCopyProblem(fp4.kernel, 16, 255, 1, 1);
  rt::Status status = fp4.emulate(p, 1);
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().find("cannot launch kernel 'tma_copy_fp4_sw128': src_tmap: TMA moves "
                                "4-bit data as bytes, so the contiguous extent and the strides "
                                "must be even"),
            std::string::npos)
      << status.error();
}

// A launch must give the dynamic shared memory the kernel allocates.
TEST(TmaTileCopyLaunch, TooLittleSharedMemoryIsRefused) {
  test::TileCopyEntry entry = kernelNamed("tma_copy_f16_sw128");
  uint32_t needed = entry.kernel.sharedBytes;
  test::TileCopyKernel short_ = entry.kernel;
  short_.sharedBytes = needed - 8;
  test::TileCopyProblem p = test::makeTileCopyProblem(short_, 64, 64, 1, 1);
  rt::Status status = entry.emulate(p, 1);
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().find("uses " + std::to_string(needed) +
                                " bytes of dynamic shared memory but the launch gives " +
                                std::to_string(needed - 8)),
            std::string::npos)
      << status.error();
}

} // namespace
} // namespace cutec
