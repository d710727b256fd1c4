// Runs the tcgen05 GEMM's emitted emulation (fp16_gemm_emu.h, generated at
// build time by cutec --emit=emu from examples/fp16_gemm.cute): the one
// launch sequence the linked test and the benchmark share.
#ifndef CUTEC_TESTS_EMULATION_FP16GEMMEMULATED_H
#define CUTEC_TESTS_EMULATION_FP16GEMMEMULATED_H

#include "fp16_gemm_emu.h"

#include <cstdint>
#include <tuple>
#include <vector>

namespace cutec::test {

/// C = A B^T with A (M, K) and B (N, K) row-major f16 and C (M, N) row-major
/// f16 bits (c must hold M*N elements). `workers` as in rt::LaunchConfig
/// (0: all cores).
inline rt::Status runEmulatedFp16Gemm(const std::vector<_Float16> &a,
                                      const std::vector<_Float16> &b, std::vector<uint16_t> &c,
                                      uint32_t m, uint32_t n, uint32_t k, unsigned workers = 0) {
  rt::MemoryMap memory;
  for (auto [data, size, name] :
       {std::tuple<const void *, size_t, const char *>{a.data(), a.size() * 2, "mA"},
        {b.data(), b.size() * 2, "mB"},
        {c.data(), c.size() * 2, "mC"}})
    if (rt::Status added = memory.add(data, size, name); !added)
      return added;
  fp16_gemm_Params params{};
  params.mA = reinterpret_cast<uintptr_t>(a.data());
  params.mB = reinterpret_cast<uintptr_t>(b.data());
  params.mC = reinterpret_cast<uintptr_t>(c.data());
  params.M = m;
  params.N = n;
  params.K = k;
  rt::LaunchConfig config;
  config.grid = fp16_gemm_grid(m, k, n); // the sizes in order of appearance
  config.block = fp16_gemm_block();
  config.dynamicSharedBytes = fp16_gemm_shared_bytes;
  config.workerThreads = workers;
  return rt::launch(cutec_kernel_fp16_gemm, config, &params, memory);
}

} // namespace cutec::test

#endif
