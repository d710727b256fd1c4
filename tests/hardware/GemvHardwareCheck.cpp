// The hardware check of the NVFP4 GEMVs (examples/nvfp4_gemv.cute, the seed's
// kernel, and examples/nvfp4_gemv_warp.cute, a warp per row): each one's
// sm_90a PTX runs on the GPU (loaded and launched through cutec's host
// launcher) and its emulation on the CPU, on the same inputs; every f16
// output must be byte-identical, and equal to the kernel's own reference.
// Then the GPU MODE shapes are timed, and their achieved bandwidth is printed
// as a fraction of the device-to-device copy bandwidth measured in the same
// run, next to hand-written CUDA peers (HandwrittenGemv.cu, compiled by nvcc
// to the third PTX) on the same inputs, whose outputs must equal the
// reference too.
//   gemv_hardware_check nvfp4_gemv.sm_90a.ptx nvfp4_gemv_warp.sm_90a.ptx
//                       handwritten_gemv.sm_90a.ptx
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "CudaCheck.h"
#include "Nvfp4GemvWarpEmulated.h"
#include "Nvfp4GemvWarpReference.h"
#include "nvfp4_gemv_launch.h"
#include "nvfp4_gemv_warp_launch.h"

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>

namespace {

/// A driver call whose error is printed, making the caller return false.
#define CHECK_CU(call)                                                                             \
  do {                                                                                             \
    if (std::string error; !cutec::hw::succeeded((call), #call, error)) {                          \
      std::fprintf(stderr, "gemv_hardware_check: %s\n", error.c_str());                           \
      return false;                                                                                \
    }                                                                                              \
  } while (0)

using cutec::test::GemvProblem;

/// One GEMV kernel: how to launch it on the GPU, run its emulation (none
/// for the hand-written peers), and compute its reference.
struct GemvKernel {
  const char *name;
  CUfunction function;
  std::function<CUresult(CUfunction, CUdeviceptr *, const GemvProblem &)> launch;
  std::function<cutec::rt::Status(const GemvProblem &, std::vector<uint16_t> &)> emulate;
  std::function<std::vector<uint16_t>(const GemvProblem &)> reference;
};

/// Launches a hand-written peer: a warp per row, four rows per CTA.
CUresult launchPeer(CUfunction f, CUdeviceptr *buffers, const GemvProblem &p) {
  int m = int(p.m), k = int(p.k), l = int(p.l);
  void *params[] = {&buffers[0], &buffers[1], &buffers[2], &buffers[3], &buffers[4], &m, &k, &l};
  return cuLaunchKernel(f, p.m / 4, 1, p.l, 128, 1, 1, 0, nullptr, params, nullptr);
}

constexpr int kTimedLaunches = 20;

/// Runs `kernel` on the GPU: c gets its output; `milliseconds` the mean time
/// of kTimedLaunches launches after a warm-up (0 when `timed` is false).
bool runOnGpu(const GemvKernel &kernel, const GemvProblem &p, std::vector<uint16_t> &c,
              bool timed, float &milliseconds) {
  CUdeviceptr buffers[5];
  const std::vector<uint8_t> *inputs[4] = {&p.a, &p.b, &p.sfa, &p.sfb};
  for (int i = 0; i < 4; ++i) {
    CHECK_CU(cuMemAlloc(&buffers[i], inputs[i]->size()));
    CHECK_CU(cuMemcpyHtoD(buffers[i], inputs[i]->data(), inputs[i]->size()));
  }
  CHECK_CU(cuMemAlloc(&buffers[4], c.size() * 2));
  CHECK_CU(cuMemsetD8(buffers[4], 0xFF, c.size() * 2));
  CHECK_CU(kernel.launch(kernel.function, buffers, p));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(c.data(), buffers[4], c.size() * 2));
  milliseconds = 0;
  if (timed) {
    std::string error;
    if (!cutec::hw::timeLaunches([&] { return kernel.launch(kernel.function, buffers, p); },
                                 kTimedLaunches, milliseconds, error)) {
      std::fprintf(stderr, "gemv_hardware_check: %s\n", error.c_str());
      return false;
    }
  }
  for (CUdeviceptr ptr : buffers)
    CHECK_CU(cuMemFree(ptr));
  return true;
}

/// The bytes a GEMV must move: all of a and its scale factors, one row of b
/// and of its scale factors per batch, and c.
double gemvBytes(const GemvProblem &p) {
  return double(p.a.size()) + double(p.sfa.size()) + double(p.k) * p.l / 2 +
         double(p.k) * p.l / 16 + double(p.m) * p.l * 2;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: gemv_hardware_check nvfp4_gemv.sm_90a.ptx "
                         "nvfp4_gemv_warp.sm_90a.ptx handwritten_gemv.sm_90a.ptx\n");
    return 2;
  }
  CUcontext context;
  if (std::optional<int> status = cutec::hw::openDevice("gemv_hardware_check", context))
    return *status;
  auto address = [](CUdeviceptr *b, const GemvProblem &p) {
    return std::make_tuple(b[0], b[1], b[2], b[3], b[4], p.m, p.k, p.l);
  };
  GemvKernel kernels[4] = {
      {"nvfp4_gemv", nullptr,
       [&](CUfunction f, CUdeviceptr *b, const GemvProblem &p) {
         auto [a, bb, sfa, sfb, c, m, k, l] = address(b, p);
         return cutec_launch_nvfp4_gemv(f, {a, bb, sfa, sfb, c, m, k, l}, nullptr);
       },
       [](const GemvProblem &p, std::vector<uint16_t> &c) {
         return cutec::test::runEmulatedGemv(p, c);
       },
       cutec::test::referenceGemv},
      {"nvfp4_gemv_warp", nullptr,
       [&](CUfunction f, CUdeviceptr *b, const GemvProblem &p) {
         auto [a, bb, sfa, sfb, c, m, k, l] = address(b, p);
         return cutec_launch_nvfp4_gemv_warp(f, {a, bb, sfa, sfb, c, m, k, l}, nullptr);
       },
       [](const GemvProblem &p, std::vector<uint16_t> &c) {
         return cutec::test::runEmulatedGemvWarp(p, c);
       },
       cutec::test::referenceGemvWarp},
      {"handwritten_gemv_table", nullptr, launchPeer, nullptr, cutec::test::referenceGemvWarp},
      {"handwritten_gemv_products", nullptr, launchPeer, nullptr,
       cutec::test::referenceGemvWarp},
  };
  CUmodule modules[3];
  std::string ptx[3] = {cutec::hw::readFile(argv[1]), cutec::hw::readFile(argv[2]),
                        cutec::hw::readFile(argv[3])};
  CUresult loaded[3] = {
      cutec_load_nvfp4_gemv(ptx[0].c_str(), &modules[0], &kernels[0].function),
      cutec_load_nvfp4_gemv_warp(ptx[1].c_str(), &modules[1], &kernels[1].function),
      cuModuleLoadData(&modules[2], ptx[2].c_str())};
  for (int i = 0; i < 3; ++i)
    if (loaded[i] != CUDA_SUCCESS) {
      std::fprintf(stderr, "gemv_hardware_check: cannot load %s (CUresult %d)\n", argv[1 + i],
                   int(loaded[i]));
      return 1;
    }
  for (GemvKernel *peer : {&kernels[2], &kernels[3]})
    if (CUresult found = cuModuleGetFunction(&peer->function, modules[2], peer->name);
        found != CUDA_SUCCESS) {
      std::fprintf(stderr, "gemv_hardware_check: no %s in %s (CUresult %d)\n", peer->name,
                   argv[3], int(found));
      return 1;
    }
  double copy = 0;
  if (std::string error; !cutec::hw::copyBandwidth(size_t(1) << 30, 10, copy, error)) {
    std::fprintf(stderr, "gemv_hardware_check: %s\n", error.c_str());
    return 1;
  }
  std::printf("device-to-device copy (cuMemcpyDtoD, 1 GiB, read + write): %.1f GB/s\n", copy);

  struct Shape {
    uint32_t m, k, l;
    bool timed; // the GPU MODE benchmark shapes
  };
  int checks = 0, failures = 0;
  for (Shape s : {Shape{128, 256, 1, false}, Shape{384, 128, 3, false},
                  Shape{2432, 4608, 2, false}, Shape{7168, 16384, 1, true},
                  Shape{4096, 7168, 1, true}, Shape{7168, 2048, 1, true}}) {
    GemvProblem p = cutec::test::makeGemvProblem(s.m, s.k, s.l, s.m ^ s.k ^ s.l);
    for (const GemvKernel &kernel : kernels) {
      std::vector<uint16_t> gpu(size_t(s.m) * s.l, 0), emulated(size_t(s.m) * s.l, 0xFFFF);
      float ms = 0;
      if (!runOnGpu(kernel, p, gpu, s.timed, ms))
        return 1;
      if (kernel.emulate) {
        if (cutec::rt::Status status = kernel.emulate(p, emulated); !status) {
          std::fprintf(stderr, "gemv_hardware_check: %s: emulation failed: %s\n", kernel.name,
                       status.error().c_str());
          return 1;
        }
      }
      std::vector<uint16_t> reference = kernel.reference(p);
      size_t differ = 0, offReference = 0;
      for (size_t i = 0; i < gpu.size(); ++i) {
        differ += kernel.emulate && gpu[i] != emulated[i];
        offReference += gpu[i] != reference[i];
      }
      std::printf("%-25s M=%-5u K=%-5u L=%u: ", kernel.name, s.m, s.k, s.l);
      if (kernel.emulate)
        std::printf("GPU vs emulation %s (%zu of %zu differ), ",
                    differ ? "DIFFERENT" : "byte-identical", differ, gpu.size());
      std::printf("GPU vs reference %zu differ", offReference);
      if (s.timed) {
        double gb = gemvBytes(p) / (ms * 1e6);
        std::printf("; %.4f ms, %.1f GB/s = %.1f%% of copy", ms, gb, 100 * gb / copy);
      }
      std::printf("\n");
      ++checks;
      failures += differ != 0 || offReference != 0;
    }
  }
  std::printf("%d passed, %d failed\n", checks - failures, failures);
  return failures ? 1 : 0;
}
