// The NVFP4 GEMM example (examples/nvfp4_gemm.cute: e2m1 A and B with ue4m3
// factors per 16 elements, f32 accumulation, f16 out) through its emitted
// emulation, next to OpenBLAS's cblas_sgemm on the dequantised matrices
// (each element times its scale factor, in f32), in the same run: prints
// both GFLOP/s (2 M N K / seconds, dequantisation not counted) and their
// ratio. The inputs are drawn as in the tests, whose dequantised values are
// multiples of 1/4 with small sums, so both sums are exact and the emulated
// C must equal OpenBLAS's C rounded to f16, bit for bit.
//   build/bin/nvfp4_gemm_bench            2048x2048x2048
//   build/bin/nvfp4_gemm_bench M N K      one shape (multiples of 128, 256, 256)
#include "BlockScaledGemmReference.h"
#include "nvfp4_gemm_emu.h"

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

bool benchShape(uint32_t m, uint32_t n, uint32_t k) {
  using namespace cutec;
  test::ScaledGemmProblem p = test::makeScaledGemmProblem(m, n, k, test::kNvfp4, m ^ n ^ k);
  std::vector<uint16_t> c(size_t(m) * n);
  rt::Status status = rt::ok();
  double emulated = secondsOf([&] {
    status = test::runEmulatedScaledGemm<nvfp4_gemm_Params>(
        cutec_kernel_nvfp4_gemm, nvfp4_gemm_grid(m, k, n), nvfp4_gemm_block(),
        nvfp4_gemm_shared_bytes, p, c);
  });
  if (!status) {
    std::fprintf(stderr, "emulation failed: %s\n", status.error().c_str());
    return false;
  }

  std::vector<float> a = test::dequantise(p, false), b = test::dequantise(p, true);
  std::vector<float> reference(size_t(m) * n);
  double blas = 1e30; // the best of three runs (the first also warms its threads up)
  for (int run = 0; run < 3; ++run)
    blas = std::min(blas, secondsOf([&] {
                      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(m), int(n), int(k),
                                  1.0f, a.data(), int(k), b.data(), int(k), 0.0f,
                                  reference.data(), int(n));
                    }));
  size_t bad = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    _Float16 want = static_cast<_Float16>(reference[i]);
    uint16_t bits;
    std::memcpy(&bits, &want, 2);
    if (bits != c[i] && bad++ < 5)
      std::fprintf(stderr, "C[%zu, %zu] = 0x%04x, OpenBLAS rounded 0x%04x\n", i / n, i % n, c[i],
                   bits);
  }
  double flops = 2.0 * m * n * k, emuRate = flops / emulated / 1e9, blasRate = flops / blas / 1e9;
  std::printf("%ux%ux%u: emulated NVFP4 %.3f s, %.2f GFLOP/s; OpenBLAS sgemm (dequantised) "
              "%.4f s, %.2f GFLOP/s; emulated/OpenBLAS %.1f%%; %s\n",
              m, n, k, emulated, emuRate, blas, blasRate, 100 * emuRate / blasRate,
              bad ? "results DIFFER" : "results equal");
  return bad == 0;
}

} // namespace

int main(int argc, char **argv) {
  uint32_t m = 2048, n = 2048, k = 2048;
  if (argc == 4) {
    m = uint32_t(std::atoi(argv[1]));
    n = uint32_t(std::atoi(argv[2]));
    k = uint32_t(std::atoi(argv[3]));
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: nvfp4_gemm_bench [M N K]\n");
    return 2;
  }
  std::printf("nvfp4_gemm emulation vs OpenBLAS, %u hardware threads (both use all)\n",
              std::thread::hardware_concurrency());
  return benchShape(m, n, k) ? 0 : 1;
}
