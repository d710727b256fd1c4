// The block-scaled GEMM examples' emitted C++ (generated at build time),
// linked in and launched on the runtime: every f16 output equals the
// independent reference of BlockScaledGemmReference.h (dequantise with the
// scales, multiply exactly, add in K order in f32, round), bit for bit, for
// the competition's shapes and others; the same for the CTA-pair NVFP4 GEMM
// (nvfp4_gemm_2cta.cute, cta_group::2).
#include "BlockScaledGemmReference.h"
#include "OperandMemory.h"
#include "block_scaled_gemm_emu.h"
#include "nvfp4_gemm_2cta_emu.h"
#include "nvfp4_gemm_emu.h"
#include "nvfp4_gemm_persistent_emu.h"

#include <gtest/gtest.h>

#include <functional>

namespace cutec {
namespace {

/// An example kernel: its formats and how to launch it.
struct Kernel {
  const char *name;
  const test::ScaledFormat *format;
  std::function<rt::Status(const test::ScaledGemmProblem &, std::vector<uint16_t> &)> run;
};

// Each example's header declares its kernel, grid (sizes in order of
// appearance: M, K, N), block and shared bytes under its name.
#define CUTEC_SCALED_KERNEL(name, format)                                                          \
  Kernel {                                                                                         \
    #name, &test::format, [](const test::ScaledGemmProblem &p, std::vector<uint16_t> &c) {        \
      return test::runEmulatedScaledGemm<name##_Params>(cutec_kernel_##name,                       \
                                                        name##_grid(p.m, p.k, p.n), name##_block(), \
                                                        name##_shared_bytes, p, c);                \
    }                                                                                              \
  }

// A persistent kernel's grid also takes the SM count of the GPU it stands for.
#define CUTEC_PERSISTENT_KERNEL(name, sms)                                                          \
  Kernel {                                                                                         \
    #name "_" #sms "sms", &test::kNvfp4,                                                          \
        [](const test::ScaledGemmProblem &p, std::vector<uint16_t> &c) {                           \
          return test::runEmulatedScaledGemm<name##_Params>(                                      \
              cutec_kernel_##name, name##_grid(p.m, p.k, p.n, sms), name##_block(),                \
              name##_shared_bytes, p, c);                                                          \
        }                                                                                          \
  }

const Kernel kKernels[] = {
    CUTEC_SCALED_KERNEL(nvfp4_gemm, kNvfp4),      CUTEC_SCALED_KERNEL(mxfp8_gemm, kMxfp8),
    CUTEC_SCALED_KERNEL(mxfp4_gemm, kMxfp4),      CUTEC_SCALED_KERNEL(nvfp4_gemm_n64, kNvfp4),
    CUTEC_SCALED_KERNEL(nvfp4_gemm_n192, kNvfp4), CUTEC_SCALED_KERNEL(nvfp4_gemm_2cta, kNvfp4),
    CUTEC_SCALED_KERNEL(mxf4nvf4_2x_gemm, kMxfp4),
    CUTEC_PERSISTENT_KERNEL(nvfp4_gemm_persistent, 148),
    CUTEC_PERSISTENT_KERNEL(nvfp4_gemm_persistent, 3),
    CUTEC_PERSISTENT_KERNEL(nvfp4_gemm_persistent_2cta, 148),
    CUTEC_PERSISTENT_KERNEL(nvfp4_gemm_persistent_2cta, 4),
};

struct Case {
  size_t kernel;
  uint32_t m, n, k;
};

void PrintTo(const Case &c, std::ostream *os) {
  *os << kKernels[c.kernel].name << " M=" << c.m << " N=" << c.n << " K=" << c.k;
}

class BlockScaledGemmLinked : public ::testing::TestWithParam<Case> {};

TEST_P(BlockScaledGemmLinked, MatchesTheReferenceBitForBit) {
  Case s = GetParam();
  const Kernel &kernel = kKernels[s.kernel];
  test::ScaledGemmProblem p =
      test::makeScaledGemmProblem(s.m, s.n, s.k, *kernel.format, s.m * 31 + s.n * 7 + s.k);
  std::vector<uint16_t> c(size_t(s.m) * s.n, 0xFFFF);
  rt::Status status = kernel.run(p, c);
  ASSERT_TRUE(status) << status.error();
  std::vector<uint16_t> expected = test::referenceScaledGemm(p);
  size_t mismatches = 0;
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] != expected[i] && mismatches++ < 5)
      ADD_FAILURE() << "C[" << i / s.n << ", " << i % s.n << "] = 0x" << std::hex << c[i]
                    << ", expected 0x" << expected[i];
  EXPECT_EQ(mismatches, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, BlockScaledGemmLinked,
    ::testing::Values(
        // NVFP4, 128 x 256 tiles: the competition's shapes and others.
        Case{0, 128, 256, 256}, Case{0, 256, 7168, 256}, Case{0, 512, 512, 7168},
        Case{0, 384, 768, 512}, Case{0, 128, 1536, 1280},
        // MXFP8 (K tiles of 128) and MXFP4 (scale_vec::2X).
        Case{1, 128, 256, 128}, Case{1, 256, 7168, 256}, Case{1, 384, 512, 1152},
        Case{2, 128, 256, 256}, Case{2, 256, 768, 1280},
        // N = 64 and 192 tiles sharing SFB atoms; odd tile counts leave the
        // last atom half used.
        Case{3, 128, 64, 256}, Case{3, 256, 448, 512}, Case{4, 128, 192, 256},
        Case{4, 256, 576, 512}, Case{4, 128, 960, 256},
        // CTA pairs: 256 x 256 tiles, SFA split between the pair, SFB of
        // the pair's 256 rows in both CTAs.
        Case{5, 256, 256, 256}, Case{5, 512, 512, 1024}, Case{5, 768, 256, 512},
        Case{5, 256, 1792, 256}, Case{5, 256, 7168, 256}, Case{5, 512, 512, 7168},
        // MXFP4 data through kind::mxf4nvf4.block_scale.scale_vec::2X.
        Case{6, 128, 256, 256}, Case{6, 256, 768, 1280}, Case{6, 384, 512, 512},
        // Persistent: a tile per CTA, several tiles per CTA (two
        // accumulators in turn), N not a multiple of 256 (the last tile
        // clipped), K = 7168, and the CTA pairs.
        Case{7, 128, 256, 7168}, Case{7, 384, 768, 512}, Case{8, 384, 768, 512},
        Case{8, 256, 640, 256}, Case{8, 128, 1536, 512}, Case{9, 512, 512, 1024},
        Case{9, 256, 384, 512}, Case{10, 512, 768, 512}, Case{10, 768, 1280, 256}),
    [](const auto &info) {
      const Case &c = info.param;
      return std::string(kKernels[c.kernel].name) + "_M" + std::to_string(c.m) + "_N" +
             std::to_string(c.n) + "_K" + std::to_string(c.k);
    });

// nvfp4_gemm assumes aligned(mC, 32) for its 32-byte stores: a C 16 bytes
// past a 32-byte boundary is refused before the kernel runs.
TEST(BlockScaledGemmLinked, RefusesACOffTheAssumedAlignment) {
  test::ScaledGemmProblem p = test::makeScaledGemmProblem(128, 256, 256, test::kNvfp4, 1);
  std::vector<uint16_t> c(size_t(128) * 256 + 16);
  using test::addressOf;
  uint64_t misaligned = (addressOf(c.data()) + 31) / 32 * 32 + 16;
  rt::MemoryMap memory;
  ASSERT_TRUE(test::addOperandMemory(memory, p, c.data(), c.size() * 2));
  // The tensor maps are the launch's to encode.
  nvfp4_gemm_Params params{};
  params.mA = addressOf(p.a.data());
  params.mB = addressOf(p.b.data());
  params.mSFA = addressOf(p.sfa.data());
  params.mSFB = addressOf(p.sfb.data());
  params.mC = misaligned;
  params.M = 128;
  params.K = 256;
  params.N = 256;
  rt::LaunchConfig config;
  config.grid = nvfp4_gemm_grid(128, 256, 256);
  config.block = nvfp4_gemm_block();
  config.dynamicSharedBytes = nvfp4_gemm_shared_bytes;
  rt::Status status = rt::launch(cutec_kernel_nvfp4_gemm, config, &params, memory);
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().find("breaks the kernel's assumption aligned(mC, 32): it is not a "
                                "multiple of 32 bytes"),
            std::string::npos)
      << status.error();
}

} // namespace
} // namespace cutec
