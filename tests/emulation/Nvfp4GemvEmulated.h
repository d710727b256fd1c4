// Runs the NVFP4 GEMV's emitted emulation (nvfp4_gemv_emu.h, generated at
// build time by cutec --emit=emu) on a problem: the one launch sequence the
// linked test, the benchmark and the hardware check share.
#ifndef CUTEC_TESTS_EMULATION_NVFP4GEMVEMULATED_H
#define CUTEC_TESTS_EMULATION_NVFP4GEMVEMULATED_H

#include "Nvfp4GemvReference.h"
#include "nvfp4_gemv_emu.h"

namespace cutec::test {

/// Runs one of the GEMV kernels (their parameters are mA, mB, mSFA, mSFB, mC,
/// M, K, L in this order) and writes c[m + l*M] (f16 bits; c must hold M*L
/// elements). `workers` as in rt::LaunchConfig (0: all cores).
template <typename Params>
rt::Status runEmulatedGemvKernel(const rt::KernelDescriptor &kernel, rt::Dim3 grid,
                                 rt::Dim3 block, const GemvProblem &p, std::vector<uint16_t> &c,
                                 unsigned workers) {
  rt::MemoryMap memory;
  for (auto [data, size, name] : {std::tuple<const void *, size_t, const char *>{
                                      p.a.data(), p.a.size(), "mA"},
                                  {p.b.data(), p.b.size(), "mB"},
                                  {p.sfa.data(), p.sfa.size(), "mSFA"},
                                  {p.sfb.data(), p.sfb.size(), "mSFB"},
                                  {c.data(), c.size() * 2, "mC"}})
    if (rt::Status added = memory.add(data, size, name); !added)
      return added;
  auto address = [](const void *ptr) { return uint64_t(reinterpret_cast<uintptr_t>(ptr)); };
  Params params{address(p.a.data()),   address(p.b.data()), address(p.sfa.data()),
                address(p.sfb.data()), address(c.data()),   p.m,
                p.k,                   p.l};
  rt::LaunchConfig config;
  config.grid = grid;
  config.block = block;
  config.workerThreads = workers;
  return rt::launch(kernel, config, &params, memory);
}

/// examples/nvfp4_gemv.cute (the seed's kernel).
inline rt::Status runEmulatedGemv(const GemvProblem &p, std::vector<uint16_t> &c,
                                  unsigned workers = 0) {
  return runEmulatedGemvKernel<nvfp4_gemv_Params>(cutec_kernel_nvfp4_gemv,
                                                  nvfp4_gemv_grid(p.m, p.k, p.l),
                                                  nvfp4_gemv_block(), p, c, workers);
}

} // namespace cutec::test

#endif
