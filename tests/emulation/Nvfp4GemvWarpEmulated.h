// Runs examples/nvfp4_gemv_warp.cute's emitted emulation (nvfp4_gemv_warp_emu.h,
// generated at build time) on a problem.
#ifndef CUTEC_TESTS_EMULATION_NVFP4GEMVWARPEMULATED_H
#define CUTEC_TESTS_EMULATION_NVFP4GEMVWARPEMULATED_H

#include "Nvfp4GemvEmulated.h"
#include "nvfp4_gemv_warp_emu.h"

namespace cutec::test {

inline rt::Status runEmulatedGemvWarp(const GemvProblem &p, std::vector<uint16_t> &c,
                                      unsigned workers = 0) {
  return runEmulatedGemvKernel<nvfp4_gemv_warp_Params>(
      cutec_kernel_nvfp4_gemv_warp, nvfp4_gemv_warp_grid(p.m, p.k, p.l), nvfp4_gemv_warp_block(),
      p, c, workers);
}

} // namespace cutec::test

#endif
