// Runs the tcgen05 GEMM's emitted emulation (fp16_gemm_emu.h, generated at
// build time by cutec --emit=emu from examples/fp16_gemm.cute): the one
// launch sequence the linked test and the benchmark share.
#ifndef CUTEC_TESTS_EMULATION_FP16GEMMEMULATED_H
#define CUTEC_TESTS_EMULATION_FP16GEMMEMULATED_H

#include "GemmEmulated.h"
#include "fp16_gemm_emu.h"

#include <cstdint>
#include <vector>

namespace cutec::test {

/// C = A B^T with A (M, K) and B (N, K) row-major f16 and C (M, N) row-major
/// f16 bits (c must hold M*N elements). `workers` and `numerics` as in
/// rt::LaunchConfig (0 workers: all cores).
inline rt::Status
runEmulatedFp16Gemm(const std::vector<_Float16> &a, const std::vector<_Float16> &b,
                    std::vector<uint16_t> &c, uint32_t m, uint32_t n, uint32_t k,
                    unsigned workers = 0,
                    rt::Tcgen05Numerics numerics = rt::Tcgen05Numerics::F32Steps) {
  return runEmulatedGemm<fp16_gemm_Params>(
      cutec_kernel_fp16_gemm, fp16_gemm_grid(m, k, n), // the sizes in order of appearance
      fp16_gemm_block(), fp16_gemm_shared_bytes, a.data(), a.size() * 2, b.data(), b.size() * 2,
      c.data(), c.size() * 2, m, n, k, workers, numerics);
}

} // namespace cutec::test

#endif
