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

} // namespace
} // namespace cutec
