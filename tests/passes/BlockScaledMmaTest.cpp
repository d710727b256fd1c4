// planBlockScaledMma: the kind, scale vector and per-instruction scale-factor
// bytes for each block-scaled format, on sf_tmem_layout's layouts, checked
// against the TMEM picture of seed 001 (4 columns per 128-row atom; 1X: one
// byte per K block, 2X: two, 4X: a whole column group).
#include "ir/layout/ScaleFactorLayouts.h"
#include "passes/lowering/BlockScaledMma.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

using ir::DataType;

ir::Type sfTensor(DataType sf, int64_t mn, int64_t k, int64_t vec, int64_t mmaK) {
  llvm::Expected<Layout> l = scaleFactorTmemLayout(mn, k, vec, mmaK);
  EXPECT_TRUE(bool(l));
  return ir::Type::tensor(sf, ir::MemorySpace::Tensor, *l);
}

struct Step {
  int64_t sfaOffset, sfbOffset;
  uint32_t sfaId, sfbId;
};

void expectSteps(const BlockScaledMma &plan, std::vector<Step> want) {
  ASSERT_EQ(plan.steps.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(plan.steps[i].sfaOffset, want[i].sfaOffset) << "step " << i;
    EXPECT_EQ(plan.steps[i].sfbOffset, want[i].sfbOffset) << "step " << i;
    EXPECT_EQ(plan.steps[i].sfaId, want[i].sfaId) << "step " << i;
    EXPECT_EQ(plan.steps[i].sfbId, want[i].sfbId) << "step " << i;
  }
}

TEST(BlockScaledMma, Mxf8UsesOneByteOfTheSameColumnsPerKBlock) {
  auto plan = planBlockScaledMma(DataType::F8E4M3, DataType::F8E5M2,
                                 sfTensor(DataType::UE8M0, 128, 128, 32, 32),
                                 sfTensor(DataType::UE8M0, 256, 128, 32, 32), 128, 256, 128);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->kind, umma::Kind::Mxf8f6f4);
  EXPECT_EQ(plan->ptxKind, "mxf8f6f4.block_scale.scale_vec::1X");
  EXPECT_EQ(plan->kBlock, 32);
  expectSteps(*plan, {{0, 0, 0, 0}, {0, 0, 1, 1}, {0, 0, 2, 2}, {0, 0, 3, 3}});
}

TEST(BlockScaledMma, Mxf4UsesHalfAColumnGroupPerKBlock) {
  auto plan = planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1,
                                 sfTensor(DataType::UE8M0, 128, 256, 32, 64),
                                 sfTensor(DataType::UE8M0, 256, 256, 32, 64), 128, 256, 256);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->kind, umma::Kind::Mxf4);
  EXPECT_EQ(plan->ptxKind, "mxf4.block_scale.scale_vec::2X");
  // Atom 1 starts 4 columns (16 bytes) on for A, 8 (32 bytes) for B's two atoms.
  expectSteps(*plan, {{0, 0, 0, 0}, {0, 0, 2, 2}, {16, 32, 0, 0}, {16, 32, 2, 2}});
}

TEST(BlockScaledMma, Nvfp4TakesAColumnGroupPerKBlock) {
  auto plan = planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1,
                                 sfTensor(DataType::UE4M3, 128, 256, 16, 64),
                                 sfTensor(DataType::UE4M3, 192, 256, 16, 64), 128, 192, 256);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->kind, umma::Kind::Mxf4nvf4);
  EXPECT_EQ(plan->ptxKind, "mxf4nvf4.block_scale.block16");
  EXPECT_EQ(plan->scale, DataType::UE4M3);
  expectSteps(*plan, {{0, 0, 0, 0}, {16, 32, 0, 0}, {32, 64, 0, 0}, {48, 96, 0, 0}});
  // block16 also takes ue8m0 factors.
  plan = planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1,
                            sfTensor(DataType::UE8M0, 128, 256, 16, 64),
                            sfTensor(DataType::UE8M0, 256, 256, 16, 64), 128, 256, 256);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->kind, umma::Kind::Mxf4nvf4);
  EXPECT_EQ(plan->scale, DataType::UE8M0);
}

TEST(BlockScaledMma, KindMxf4nvf4TakesMxfp4AsScaleVec2X) {
  ir::Type sfa = sfTensor(DataType::UE8M0, 128, 256, 32, 64),
           sfb = sfTensor(DataType::UE8M0, 256, 256, 32, 64);
  auto plan = planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1, sfa, sfb, 128, 256, 256, 0,
                                 "mxf4nvf4");
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->kind, umma::Kind::Mxf4nvf4);
  EXPECT_EQ(plan->ptxKind, "mxf4nvf4.block_scale.scale_vec::2X");
  // The factors sit where kind::mxf4 reads them.
  expectSteps(*plan, {{0, 0, 0, 0}, {0, 0, 2, 2}, {16, 32, 0, 0}, {16, 32, 2, 2}});
  plan = planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1, sfa, sfb, 128, 256, 256, 0,
                            "mxf4");
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  EXPECT_EQ(plan->kind, umma::Kind::Mxf4);
}

TEST(BlockScaledMma, RefusesAKindTheOperandsDoNotFit) {
  auto error = [](llvm::Expected<BlockScaledMma> plan) {
    return plan ? std::string() : llvm::toString(plan.takeError());
  };
  EXPECT_NE(error(planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1,
                                     sfTensor(DataType::UE4M3, 128, 256, 16, 64),
                                     sfTensor(DataType::UE4M3, 256, 256, 16, 64), 128, 256, 256,
                                     0, "mxf4"))
                .find("kind::mxf4 takes one scale factor per 32"),
            std::string::npos);
  EXPECT_NE(error(planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1,
                                     sfTensor(DataType::UE8M0, 128, 256, 32, 64),
                                     sfTensor(DataType::UE8M0, 256, 256, 32, 64), 128, 256, 256,
                                     0, "mxf8f6f4"))
                .find("kind::mxf8f6f4 does not multiply f4e2m1 by f4e2m1"),
            std::string::npos);
  EXPECT_NE(error(planBlockScaledMma(DataType::F8E4M3, DataType::F8E4M3,
                                     sfTensor(DataType::UE8M0, 128, 128, 32, 32),
                                     sfTensor(DataType::UE8M0, 256, 128, 32, 32), 128, 256, 128,
                                     0, "mxf4nvf4"))
                .find("kind::mxf4nvf4 does not multiply f8e4m3 by f8e4m3"),
            std::string::npos);
}

TEST(BlockScaledMma, RefusesWhatNoInstructionReads) {
  auto error = [](llvm::Expected<BlockScaledMma> plan) {
    return plan ? std::string() : llvm::toString(plan.takeError());
  };
  // One CTA multiplies 128 rows of A.
  EXPECT_NE(error(planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1,
                                     sfTensor(DataType::UE4M3, 128, 256, 16, 64),
                                     sfTensor(DataType::UE4M3, 256, 256, 16, 64), 64, 256, 256))
                .find("M = 128, not 64"),
            std::string::npos);
  // The factors cover K = 256, the tiles 512.
  EXPECT_NE(error(planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1,
                                     sfTensor(DataType::UE4M3, 128, 256, 16, 64),
                                     sfTensor(DataType::UE4M3, 256, 256, 16, 64), 128, 256, 512))
                .find("cover K = 256 (A) and 256 (B); the tiles have K = 512"),
            std::string::npos);
  // A and B with different block sizes.
  EXPECT_NE(error(planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1,
                                     sfTensor(DataType::UE8M0, 128, 256, 16, 64),
                                     sfTensor(DataType::UE8M0, 256, 256, 32, 64), 128, 256, 256))
                .find("per 16 elements of K, B per 32"),
            std::string::npos);
  // Not a scale-factor layout at all.
  ir::Type flat = ir::Type::tensor(DataType::UE8M0, ir::MemorySpace::Tensor,
                                   makeLayout(IntTuple(128)));
  EXPECT_NE(error(planBlockScaledMma(DataType::F4E2M1, DataType::F4E2M1, flat, flat, 128, 256, 256))
                .find("not one of sf_tmem_layout's"),
            std::string::npos);
}

} // namespace
} // namespace cutec
