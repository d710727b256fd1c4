//===- Targets.cpp - What each --arch offers the compiler -----------------===//
#include "target/ptx/Targets.h"

namespace cutec {

namespace {

constexpr llvm::StringLiteral kConsumer =
    ": consumer Blackwell has no tensor memory (no tcgen05, no CTA pairs)";

const TargetFeatures kTargets[] = {
    {.arch = "sm_100a",
     .hasFp4AndUe8m0Conversions = true,
     .hasTcgen05 = true,
     .hasClusterLaunchControl = true,
     .hasWideGlobalStores = true,
     .hasMmaKindI8 = true,
     .hasScaleVecSpelling = true},
    {.arch = "sm_103a",
     .hasFp4AndUe8m0Conversions = true,
     .hasTcgen05 = true,
     .hasClusterLaunchControl = true,
     .hasWideGlobalStores = true,
     .hasMmaKindI8 = false,
     .hasScaleVecSpelling = true},
    {.arch = "sm_100f",
     .hasFp4AndUe8m0Conversions = true,
     .hasTcgen05 = true,
     .hasClusterLaunchControl = true,
     .hasWideGlobalStores = true,
     .hasMmaKindI8 = false,
     .hasScaleVecSpelling = false,
     .whyNoMmaKindI8 = ": code for the sm_100f family must also run on sm_103, which lacks it"},
    {.arch = "sm_120a",
     .hasFp4AndUe8m0Conversions = true,
     .hasTcgen05 = false,
     .hasClusterLaunchControl = true,
     .hasWideGlobalStores = true,
     .whyNoTcgen05 = kConsumer},
    {.arch = "sm_121a",
     .hasFp4AndUe8m0Conversions = true,
     .hasTcgen05 = false,
     .hasClusterLaunchControl = true,
     .hasWideGlobalStores = true,
     .whyNoTcgen05 = kConsumer},
    {.arch = "sm_90a", .hasFp4AndUe8m0Conversions = false, .hasTcgen05 = false, .hasWgmma = true},
};

} // namespace

llvm::ArrayRef<TargetFeatures> targetFeatureTable() { return kTargets; }

const TargetFeatures *findTargetFeatures(llvm::StringRef arch) {
  for (const TargetFeatures &target : kTargets)
    if (target.arch == arch)
      return &target;
  return nullptr;
}

std::string supportedArchList() {
  std::string list;
  for (size_t i = 0; i < std::size(kTargets); ++i) {
    if (i)
      list += i + 1 == std::size(kTargets) ? " and " : ", ";
    list += kTargets[i].arch.str();
  }
  return list;
}

int64_t narrowPairDistance(const TargetFeatures &target) {
  return target.hasFp4AndUe8m0Conversions ? 4 : 16;
}

} // namespace cutec
