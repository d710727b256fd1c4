// Launches an emitted GEMM kernel (a kernel of examples/fp16_gemm.cute's
// interface: mA, mB, mC and the sizes M, N, K) on the runtime. The linked
// tests and the benchmark share it.
#ifndef CUTEC_TESTS_EMULATION_GEMMEMULATED_H
#define CUTEC_TESTS_EMULATION_GEMMEMULATED_H

#include "runtime/Emulation.h"

#include <cstdint>
#include <tuple>

namespace cutec::test {

/// Launches an emitted GEMM kernel whose parameters are mA, mB, mC and the
/// sizes M, N, K, on buffers of the given bytes (every GEMM test kernel has
/// this interface).
template <typename Params>
rt::Status runEmulatedGemm(const rt::KernelDescriptor &kernel, rt::Dim3 grid, rt::Dim3 block,
                           uint32_t sharedBytes, const void *a, size_t aBytes, const void *b,
                           size_t bBytes, void *c, size_t cBytes, uint32_t m, uint32_t n,
                           uint32_t k, unsigned workers = 0) {
  rt::MemoryMap memory;
  for (auto [data, size, name] : {std::tuple<const void *, size_t, const char *>{a, aBytes, "mA"},
                                  {b, bBytes, "mB"},
                                  {c, cBytes, "mC"}})
    if (rt::Status added = memory.add(data, size, name); !added)
      return added;
  Params params{};
  params.mA = reinterpret_cast<uintptr_t>(a);
  params.mB = reinterpret_cast<uintptr_t>(b);
  params.mC = reinterpret_cast<uintptr_t>(c);
  params.M = m;
  params.N = n;
  params.K = k;
  rt::LaunchConfig config;
  config.grid = grid;
  config.block = block;
  config.dynamicSharedBytes = sharedBytes;
  config.workerThreads = workers;
  return rt::launch(kernel, config, &params, memory);
}

} // namespace cutec::test

#endif
