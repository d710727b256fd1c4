// Launches an emitted GEMM kernel (a kernel of examples/fp16_gemm.cute's
// interface: mA, mB, mC and the sizes M, N, K) on the runtime. The linked
// tests and the benchmark share it.
#ifndef CUTEC_TESTS_EMULATION_GEMMEMULATED_H
#define CUTEC_TESTS_EMULATION_GEMMEMULATED_H

#include "runtime/Emulation.h"

#include <cstdint>
#include <initializer_list>

namespace cutec::test {

/// A buffer the kernel may access, named as its parameter.
struct EmulatedBuffer {
  const void *data;
  size_t size;
  const char *name;
};

/// Launches `kernel` with `params` on the runtime, which lets it access
/// `buffers`; `workers` and `numerics` as in rt::LaunchConfig.
template <typename Params>
rt::Status launchEmulated(const rt::KernelDescriptor &kernel, rt::Dim3 grid, rt::Dim3 block,
                          uint32_t sharedBytes, Params &params,
                          std::initializer_list<EmulatedBuffer> buffers, unsigned workers,
                          rt::Tcgen05Numerics numerics = rt::Tcgen05Numerics::F32Steps) {
  rt::MemoryMap memory;
  for (const EmulatedBuffer &buffer : buffers)
    if (rt::Status added = memory.add(buffer.data, buffer.size, buffer.name); !added)
      return added;
  rt::LaunchConfig config;
  config.grid = grid;
  config.block = block;
  config.dynamicSharedBytes = sharedBytes;
  config.workerThreads = workers;
  config.tcgen05Numerics = numerics;
  return rt::launch(kernel, config, &params, memory);
}

/// Launches an emitted GEMM kernel whose parameters are mA, mB, mC and the
/// sizes M, N, K, on buffers of the given bytes (every GEMM test kernel has
/// this interface).
template <typename Params>
rt::Status runEmulatedGemm(const rt::KernelDescriptor &kernel, rt::Dim3 grid, rt::Dim3 block,
                           uint32_t sharedBytes, const void *a, size_t aBytes, const void *b,
                           size_t bBytes, void *c, size_t cBytes, uint32_t m, uint32_t n,
                           uint32_t k, unsigned workers = 0,
                           rt::Tcgen05Numerics numerics = rt::Tcgen05Numerics::F32Steps) {
  Params params{};
  params.mA = reinterpret_cast<uintptr_t>(a);
  params.mB = reinterpret_cast<uintptr_t>(b);
  params.mC = reinterpret_cast<uintptr_t>(c);
  params.M = m;
  params.N = n;
  params.K = k;
  return launchEmulated(kernel, grid, block, sharedBytes, params,
                        {{a, aBytes, "mA"}, {b, bBytes, "mB"}, {c, cBytes, "mC"}}, workers,
                        numerics);
}

} // namespace cutec::test

#endif
