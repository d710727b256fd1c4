// The hardware check of the persistent kernel structure on Hopper:
// examples/persistent_transform.cute (a grid of at most one CTA per SM and
// a static persistent tile scheduler walking the tiles, grid_dim(); a TMA
// warp and a PipelineTmaAsync; setmaxnreg; elect.sync; a named barrier
// among the consumer warps; TMA stores double-buffered with bulk
// async-groups; scalar f32 parameters). Its sm_90a PTX runs on the GPU
// through cutec's host launcher (which sizes the grid from the device's SM
// count) and its emulation on the CPU with the same grid, on the same
// inputs, for shapes with partial tiles and with several tiles per CTA; the
// outputs must be byte-identical and equal to a reference computed here.
//   persistent_transform_check persistent_transform.sm_90a.ptx
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "CudaCheck.h"
#include "persistent_transform_emu.h"
#include "persistent_transform_launch.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

struct Shape {
  uint32_t m, n;
  float alpha, beta;
};

/// f16(x * alpha + beta), with x * alpha + beta one fma (cutec contracts
/// it, --fmad).
std::vector<uint16_t> reference(const std::vector<float> &x, float alpha, float beta) {
  std::vector<uint16_t> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    _Float16 h = static_cast<_Float16>(std::fma(x[i], alpha, beta));
    std::memcpy(&y[i], &h, 2);
  }
  return y;
}

bool runOnGpu(CUfunction f, const std::vector<float> &x, std::vector<uint16_t> &y,
              const Shape &s, std::string &error) {
  CUdeviceptr dx, dy;
  CUTEC_CU(cuMemAlloc(&dx, x.size() * 4));
  CUTEC_CU(cuMemcpyHtoD(dx, x.data(), x.size() * 4));
  CUTEC_CU(cuMemAlloc(&dy, y.size() * 2));
  CUTEC_CU(cuMemsetD8(dy, 0xFF, y.size() * 2));
  CUTEC_CU(cutec_launch_persistent_transform(f, {dx, dy, s.alpha, s.beta, s.m, s.n}, nullptr));
  CUTEC_CU(cuCtxSynchronize());
  CUTEC_CU(cuMemcpyDtoH(y.data(), dy, y.size() * 2));
  CUTEC_CU(cuMemFree(dx));
  CUTEC_CU(cuMemFree(dy));
  return true;
}

cutec::rt::Status emulate(const std::vector<float> &x, std::vector<uint16_t> &y, const Shape &s,
                          uint32_t sms) {
  std::vector<float> input = x;
  cutec::rt::MemoryMap map;
  if (cutec::rt::Status added = map.add(input.data(), input.size() * 4, "mX"); !added)
    return added;
  if (cutec::rt::Status added = map.add(y.data(), y.size() * 2, "mY"); !added)
    return added;
  persistent_transform_Params params{};
  params.mX = reinterpret_cast<uintptr_t>(input.data());
  params.mY = reinterpret_cast<uintptr_t>(y.data());
  params.alpha = s.alpha;
  params.beta = s.beta;
  params.M = s.m;
  params.N = s.n;
  cutec::rt::LaunchConfig config;
  config.grid = persistent_transform_grid(s.m, s.n, sms);
  config.block = persistent_transform_block();
  config.dynamicSharedBytes = persistent_transform_shared_bytes;
  return cutec::rt::launch(cutec_kernel_persistent_transform, config, &params, map);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: persistent_transform_check persistent_transform.sm_90a.ptx\n");
    return 2;
  }
  CUcontext context;
  if (std::optional<int> status = cutec::hw::openDevice("persistent_transform_check", context))
    return *status;
  CUdevice device;
  int sms = 0;
  if (cuCtxGetDevice(&device) != CUDA_SUCCESS ||
      cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device) !=
          CUDA_SUCCESS) {
    std::fprintf(stderr, "persistent_transform_check: cannot read the SM count\n");
    return 1;
  }
  std::string ptx = cutec::hw::readFile(argv[1]);
  CUmodule module;
  CUfunction f;
  if (cutec_load_persistent_transform(ptx.c_str(), &module, &f) != CUDA_SUCCESS) {
    std::fprintf(stderr, "persistent_transform_check: cannot load %s\n", argv[1]);
    return 1;
  }
  int passed = 0, failed = 0;
  // Partial tiles at both edges; one tile per CTA; 2 to 4 tiles per CTA on
  // a 132-SM H100; f16 overflow to infinity (alpha 300).
  const Shape shapes[] = {{300, 104, 1.5f, 0.25f},   {128, 32, 1.0f, 0.0f},
                          {1000, 200, -0.75f, 3.0f}, {2048, 512, 0.5f, -1.0f},
                          {8192, 256, 300.0f, 0.5f}, {4100, 1000, 0.1f, 0.2f}};
  for (const Shape &s : shapes) {
    std::mt19937 rng(s.m * 7 + s.n);
    std::normal_distribution<float> normal(0.0f, 300.0f);
    std::vector<float> x(size_t(s.m) * s.n);
    for (float &v : x)
      v = normal(rng);
    std::vector<uint16_t> gpu(x.size()), emulated(x.size(), 0xFFFF);
    std::string error;
    if (!runOnGpu(f, x, gpu, s, error)) {
      std::fprintf(stderr, "persistent_transform_check: M=%u N=%u: %s\n", s.m, s.n, error.c_str());
      return 1;
    }
    if (cutec::rt::Status status = emulate(x, emulated, s, uint32_t(sms)); !status) {
      std::fprintf(stderr, "persistent_transform_check: M=%u N=%u: emulation failed: %s\n", s.m,
                   s.n, status.error().c_str());
      return 1;
    }
    std::vector<uint16_t> expected = reference(x, s.alpha, s.beta);
    cutec::rt::Dim3 grid = persistent_transform_grid(s.m, s.n, uint32_t(sms));
    bool same = gpu == emulated, right = gpu == expected;
    std::printf("persistent_transform M=%u N=%u alpha=%g beta=%g (%u CTAs on %d SMs): GPU vs "
                "emulation %s, GPU vs reference %s\n",
                s.m, s.n, s.alpha, s.beta, grid.x, sms, same ? "byte-identical" : "DIFFERENT",
                right ? "byte-identical" : "DIFFERENT");
    (same && right ? passed : failed)++;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
