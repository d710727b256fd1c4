#include "BlasCore.h"

#include <gtest/gtest.h>

using cutec::bench::betterBlasCore;
using cutec::bench::CpuVectorFeatures;

namespace {

constexpr CpuVectorFeatures kAvx512{true, true, true}, kAvx2{false, true, true},
    kAvx{false, false, true}, kSse{false, false, false};

TEST(BlasCore, FallbackReplacedByTheCoreTheFeaturesAllow) {
  EXPECT_EQ(betterBlasCore("Prescott", kAvx512), "SkylakeX");
  EXPECT_EQ(betterBlasCore("Prescott", kAvx2), "Haswell");
  EXPECT_EQ(betterBlasCore("Prescott", kAvx), "Sandybridge");
}

TEST(BlasCore, FallbackKeptOnACpuWithoutAvx) { EXPECT_EQ(betterBlasCore("Prescott", kSse), ""); }

TEST(BlasCore, OpenBlasChoiceStandsForACpuItKnows) {
  EXPECT_EQ(betterBlasCore("Zen", kAvx2), "");
  EXPECT_EQ(betterBlasCore("Cooperlake", kAvx512), "");
  EXPECT_EQ(betterBlasCore("Haswell", kAvx512), "");
}

} // namespace
