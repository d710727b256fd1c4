// The hardware check of the NVFP4 GEMV: its sm_90a PTX runs on the GPU
// (loaded and launched through cutec's host launcher) and its emulation on
// the CPU, on the same inputs; every f16 output must be byte-identical.
//   gemv_hardware_check nvfp4_gemv.sm_90a.ptx
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "Nvfp4GemvEmulated.h"
#include "nvfp4_gemv_launch.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

#define CHECK_CU(call)                                                                             \
  do {                                                                                             \
    CUresult rc = (call);                                                                          \
    if (rc != CUDA_SUCCESS) {                                                                      \
      const char *text = nullptr;                                                                  \
      cuGetErrorString(rc, &text);                                                                 \
      std::fprintf(stderr, "gemv_hardware_check: %s failed: %s\n", #call, text ? text : "?");      \
      return false;                                                                                \
    }                                                                                              \
  } while (0)

bool runOnGpu(CUfunction f, const cutec::test::GemvProblem &p, std::vector<uint16_t> &c,
              float &milliseconds) {
  CUdeviceptr a, b, sfa, sfb, out;
  CHECK_CU(cuMemAlloc(&a, p.a.size()));
  CHECK_CU(cuMemAlloc(&b, p.b.size()));
  CHECK_CU(cuMemAlloc(&sfa, p.sfa.size()));
  CHECK_CU(cuMemAlloc(&sfb, p.sfb.size()));
  CHECK_CU(cuMemAlloc(&out, c.size() * 2));
  CHECK_CU(cuMemcpyHtoD(a, p.a.data(), p.a.size()));
  CHECK_CU(cuMemcpyHtoD(b, p.b.data(), p.b.size()));
  CHECK_CU(cuMemcpyHtoD(sfa, p.sfa.data(), p.sfa.size()));
  CHECK_CU(cuMemcpyHtoD(sfb, p.sfb.data(), p.sfb.size()));
  CHECK_CU(cuMemsetD8(out, 0xFF, c.size() * 2));
  nvfp4_gemv_LaunchArgs args{a, b, sfa, sfb, out, p.m, p.k, p.l};
  CUevent start, stop;
  CHECK_CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK_CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CHECK_CU(cutec_launch_nvfp4_gemv(f, args, nullptr)); // warm-up
  CHECK_CU(cuEventRecord(start, nullptr));
  CHECK_CU(cutec_launch_nvfp4_gemv(f, args, nullptr));
  CHECK_CU(cuEventRecord(stop, nullptr));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuEventElapsedTime(&milliseconds, start, stop));
  CHECK_CU(cuMemcpyDtoH(c.data(), out, c.size() * 2));
  for (CUdeviceptr ptr : {a, b, sfa, sfb, out})
    CHECK_CU(cuMemFree(ptr));
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gemv_hardware_check nvfp4_gemv.sm_90a.ptx\n");
    return 2;
  }
  int devices = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&devices) != CUDA_SUCCESS || devices == 0) {
    std::printf("gemv_hardware_check: skipped: no CUDA device on this machine\n");
    return 0;
  }
  std::ifstream file(argv[1]);
  std::stringstream ptx;
  ptx << file.rdbuf();
  CUdevice device;
  CUcontext context;
  char name[128];
  if (cuDeviceGet(&device, 0) != CUDA_SUCCESS || cuCtxCreate(&context, nullptr, 0, device) != CUDA_SUCCESS ||
      cuDeviceGetName(name, sizeof name, device) != CUDA_SUCCESS) {
    std::fprintf(stderr, "gemv_hardware_check: cannot create a context\n");
    return 1;
  }
  CUmodule module;
  CUfunction function;
  if (CUresult rc = cutec_load_nvfp4_gemv(ptx.str().c_str(), &module, &function);
      rc != CUDA_SUCCESS) {
    std::fprintf(stderr, "gemv_hardware_check: cannot load %s (CUresult %d)\n", argv[1], int(rc));
    return 1;
  }
  std::printf("device: %s\n", name);
  struct Shape {
    uint32_t m, k, l;
  };
  int failures = 0;
  for (Shape s : {Shape{128, 256, 1}, Shape{384, 128, 3}, Shape{2432, 4608, 2},
                  Shape{4096, 7168, 1}, Shape{7168, 2048, 1}, Shape{7168, 16384, 1}}) {
    cutec::test::GemvProblem p = cutec::test::makeGemvProblem(s.m, s.k, s.l, s.m ^ s.k ^ s.l);
    std::vector<uint16_t> gpu(size_t(s.m) * s.l, 0), emulated(size_t(s.m) * s.l, 0xFFFF);
    float ms = 0;
    if (!runOnGpu(function, p, gpu, ms))
      return 1;
    if (cutec::rt::Status status = cutec::test::runEmulatedGemv(p, emulated); !status) {
      std::fprintf(stderr, "gemv_hardware_check: emulation failed: %s\n", status.error().c_str());
      return 1;
    }
    size_t differ = 0;
    for (size_t i = 0; i < gpu.size(); ++i)
      differ += gpu[i] != emulated[i];
    std::vector<uint16_t> reference = cutec::test::referenceGemv(p);
    size_t offReference = 0;
    for (size_t i = 0; i < gpu.size(); ++i)
      offReference += gpu[i] != reference[i];
    double bytes = double(p.a.size() + p.b.size() + p.sfa.size() + p.sfb.size() + gpu.size() * 2);
    std::printf("M=%u K=%u L=%u: GPU vs emulation %s (%zu of %zu differ), GPU vs reference "
                "%zu differ; kernel %.3f ms, %.1f GB/s\n",
                s.m, s.k, s.l, differ ? "DIFFERENT" : "byte-identical", differ, gpu.size(),
                offReference, ms, bytes / (ms * 1e6));
    failures += differ != 0 || offReference != 0;
  }
  std::printf("%d passed, %d failed\n", 6 - failures, failures);
  return failures ? 1 : 0;
}
