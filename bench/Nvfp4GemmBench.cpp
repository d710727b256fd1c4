// The NVFP4 GEMM examples (examples/nvfp4_gemm.cute, a CTA per tile, and
// examples/nvfp4_gemm_persistent.cute, a CTA per SM of a 148-SM B200 walking
// the tiles: e2m1 A and B with ue4m3 factors per 16 elements, f32
// accumulation, f16 out) through their emitted emulation, next to OpenBLAS's
// cblas_sgemm on the dequantised matrices (each element times its scale
// factor, in f32), in the same run: prints the GFLOP/s of each (2 M N K /
// seconds, dequantisation not counted) and the ratios. The inputs are drawn
// as in the tests, whose dequantised values are multiples of 1/4 with small
// sums, so both sums are exact and each emulated C must equal OpenBLAS's C
// rounded to f16, bit for bit.
//   build/bin/nvfp4_gemm_bench            2048x2048x2048
//   build/bin/nvfp4_gemm_bench M N K      one shape (multiples of 128, 256, 256)
#include "BlasCore.h"
#include "BlockScaledGemmReference.h"
#include "nvfp4_gemm_emu.h"
#include "nvfp4_gemm_persistent_emu.h"

#include <cblas.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

double secondsOf(auto &&work) {
  auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The SMs the persistent kernel's grid is sized for (a B200's).
constexpr uint32_t kSms = 148;

/// Runs one emulated kernel; its seconds, or a negative number on failure.
double timeEmulated(const char *name, auto &&run) {
  cutec::rt::Status status = cutec::rt::ok();
  double seconds = secondsOf([&] { status = run(); });
  if (!status) {
    std::fprintf(stderr, "%s: emulation failed: %s\n", name, status.error().c_str());
    return -1;
  }
  return seconds;
}

/// How many of `c` differ from `reference` rounded to f16 (the first few
/// are printed).
size_t countDifferences(const char *name, const std::vector<uint16_t> &c,
                        const std::vector<float> &reference, uint32_t n) {
  size_t bad = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    _Float16 want = static_cast<_Float16>(reference[i]);
    uint16_t bits;
    std::memcpy(&bits, &want, 2);
    if (bits != c[i] && bad++ < 5)
      std::fprintf(stderr, "%s: C[%zu, %zu] = 0x%04x, OpenBLAS rounded 0x%04x\n", name, i / n,
                   i % n, c[i], bits);
  }
  return bad;
}

bool benchShape(uint32_t m, uint32_t n, uint32_t k) {
  using namespace cutec;
  test::ScaledGemmProblem p = test::makeScaledGemmProblem(m, n, k, test::kNvfp4, m ^ n ^ k);
  std::vector<uint16_t> tiled(size_t(m) * n), persistent(size_t(m) * n);
  double tiledSeconds = timeEmulated("nvfp4_gemm", [&] {
    return test::runEmulatedScaledGemm<nvfp4_gemm_Params>(
        cutec_kernel_nvfp4_gemm, nvfp4_gemm_grid(m, k, n), nvfp4_gemm_block(),
        nvfp4_gemm_shared_bytes, p, tiled);
  });
  double persistentSeconds = timeEmulated("nvfp4_gemm_persistent", [&] {
    return test::runEmulatedScaledGemm<nvfp4_gemm_persistent_Params>(
        cutec_kernel_nvfp4_gemm_persistent, nvfp4_gemm_persistent_grid(m, k, n, kSms),
        nvfp4_gemm_persistent_block(), nvfp4_gemm_persistent_shared_bytes, p, persistent);
  });
  if (tiledSeconds < 0 || persistentSeconds < 0)
    return false;

  std::vector<float> a = test::dequantise(p, false), b = test::dequantise(p, true);
  std::vector<float> reference(size_t(m) * n);
  double blas = 1e30; // the best of three runs (the first also warms its threads up)
  for (int run = 0; run < 3; ++run)
    blas = std::min(blas, secondsOf([&] {
                      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(m), int(n), int(k),
                                  1.0f, a.data(), int(k), b.data(), int(k), 0.0f,
                                  reference.data(), int(n));
                    }));
  size_t bad = countDifferences("nvfp4_gemm", tiled, reference, n) +
               countDifferences("nvfp4_gemm_persistent", persistent, reference, n);
  double flops = 2.0 * m * n * k, blasRate = flops / blas / 1e9;
  std::printf("%ux%ux%u: OpenBLAS sgemm (dequantised) %.4f s, %.2f GFLOP/s\n", m, n, k, blas,
              blasRate);
  for (auto [name, seconds] : {std::pair{"nvfp4_gemm", tiledSeconds},
                               std::pair{"nvfp4_gemm_persistent", persistentSeconds}}) {
    double rate = flops / seconds / 1e9;
    std::printf("  emulated %-22s %.3f s, %.2f GFLOP/s, %.1f%% of OpenBLAS\n", name, seconds,
                rate, 100 * rate / blasRate);
  }
  std::printf("  %s\n", bad ? "results DIFFER" : "results equal");
  return bad == 0;
}

} // namespace

int main(int argc, char **argv) {
  cutec::bench::useBestBlasCore(argv);
  uint32_t m = 2048, n = 2048, k = 2048;
  if (argc == 4) {
    m = uint32_t(std::atoi(argv[1]));
    n = uint32_t(std::atoi(argv[2]));
    k = uint32_t(std::atoi(argv[3]));
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: nvfp4_gemm_bench [M N K]\n");
    return 2;
  }
  std::printf("NVFP4 GEMM emulation vs OpenBLAS, %u hardware threads (all use all); the "
              "persistent kernel's grid for %u SMs\n",
              std::thread::hardware_concurrency(), kSms);
  return benchShape(m, n, k) ? 0 : 1;
}
