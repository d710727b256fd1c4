// The hardware check of Hopper's warpgroup MMA: examples/hopper_gemm.cute
// (f16) and examples/hopper_gemm_fp8.cute (e4m3), both f32-accumulating
// with f16 output (persistent; a producer warpgroup feeding a TMA pipeline,
// two consumer warpgroups multiplying with wgmma, the accumulator in
// registers). Each
// sm_90a PTX runs on the GPU through cutec's host launcher and its
// emulation on the CPU on the same inputs; the outputs must be
// byte-identical. Two kinds of inputs: small integers (every sum exact, so
// the result is also the reference's) and random finite values (sums that
// round, where the GPU and the emulator agree only if the emulator adds as
// the tensor core does). Then each kernel is timed on larger shapes.
//   hopper_gemm_check hopper_gemm.sm_90a.ptx hopper_gemm_fp8.sm_90a.ptx
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "CudaCheck.h"
#include "hopper_gemm_emu.h"
#include "hopper_gemm_fp8_emu.h"
#include "hopper_gemm_fp8_launch.h"
#include "hopper_gemm_launch.h"

#include "runtime/numerics/FloatFormat.h"

#include <cstring>
#include <functional>
#include <random>
#include <vector>

namespace {

using cutec::rt::FloatFormat;

struct Problem {
  uint32_t m, n, k;
  std::vector<uint8_t> a, b; // element codes, (M, K) and (N, K) row-major
};

/// One GEMM kernel: its element format, and how to launch and emulate it.
struct GemmKernel {
  const char *name;
  const FloatFormat &element;
  CUfunction function = nullptr;
  std::function<CUresult(CUfunction, CUdeviceptr, CUdeviceptr, CUdeviceptr, const Problem &)>
      launch;
  std::function<cutec::rt::Status(uint8_t *, uint8_t *, uint16_t *, const Problem &,
                                  cutec::rt::MemoryMap &)>
      emulate;
};

uint32_t bytesOf(const FloatFormat &f) { return (f.codeBits() + 7) / 8; }

uint32_t codeAt(const std::vector<uint8_t> &v, size_t i, uint32_t bytes) {
  uint32_t code = 0;
  std::memcpy(&code, &v[i * bytes], bytes);
  return code;
}

Problem makeProblem(const GemmKernel &kernel, uint32_t m, uint32_t n, uint32_t k, bool integers) {
  const uint32_t bytes = bytesOf(kernel.element);
  Problem p{m, n, k, std::vector<uint8_t>(size_t(m) * k * bytes),
            std::vector<uint8_t>(size_t(n) * k * bytes)};
  std::mt19937 rng(m * 31 + n * 7 + k + integers);
  std::uniform_int_distribution<int> small(-4, 4);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (auto *v : {&p.a, &p.b})
    for (size_t i = 0; i < v->size() / bytes; ++i) {
      float x = integers ? float(small(rng)) : normal(rng);
      uint32_t code = cutec::rt::encode(kernel.element, x);
      std::memcpy(&(*v)[i * bytes], &code, bytes);
    }
  return p;
}

/// f16 of the f64 sum of the products in k order: exact for the integer
/// inputs, an approximation otherwise.
std::vector<uint16_t> reference(const GemmKernel &kernel, const Problem &p) {
  const uint32_t bytes = bytesOf(kernel.element);
  std::vector<uint16_t> c(size_t(p.m) * p.n);
  for (uint32_t i = 0; i < p.m; ++i)
    for (uint32_t j = 0; j < p.n; ++j) {
      double sum = 0;
      for (uint32_t kk = 0; kk < p.k; ++kk)
        sum += double(decode(kernel.element, codeAt(p.a, size_t(i) * p.k + kk, bytes))) *
               decode(kernel.element, codeAt(p.b, size_t(j) * p.k + kk, bytes));
      c[size_t(i) * p.n + j] = uint16_t(cutec::rt::encode(cutec::rt::kF16, float(sum)));
    }
  return c;
}

struct Buffers {
  CUdeviceptr a = 0, b = 0, c = 0;
};

bool upload(const Problem &p, Buffers &d, std::string &error) {
  CUTEC_CU(cuMemAlloc(&d.a, p.a.size()));
  CUTEC_CU(cuMemcpyHtoD(d.a, p.a.data(), p.a.size()));
  CUTEC_CU(cuMemAlloc(&d.b, p.b.size()));
  CUTEC_CU(cuMemcpyHtoD(d.b, p.b.data(), p.b.size()));
  CUTEC_CU(cuMemAlloc(&d.c, size_t(p.m) * p.n * 2));
  CUTEC_CU(cuMemsetD8(d.c, 0xFF, size_t(p.m) * p.n * 2));
  return true;
}

bool release(Buffers &d, std::string &error) {
  for (CUdeviceptr ptr : {d.a, d.b, d.c})
    CUTEC_CU(cuMemFree(ptr));
  return true;
}

bool runOnGpu(const GemmKernel &kernel, const Problem &p, std::vector<uint16_t> &c,
              std::string &error) {
  Buffers d;
  if (!upload(p, d, error))
    return false;
  CUTEC_CU(kernel.launch(kernel.function, d.a, d.b, d.c, p));
  CUTEC_CU(cuCtxSynchronize());
  CUTEC_CU(cuMemcpyDtoH(c.data(), d.c, c.size() * 2));
  return release(d, error);
}

/// The mean time of `launches` launches after a warm-up, in ms.
bool timeOnGpu(const GemmKernel &kernel, const Problem &p, int launches, float &ms,
               std::string &error) {
  Buffers d;
  if (!upload(p, d, error))
    return false;
  if (!cutec::hw::timeLaunches(
          [&] { return kernel.launch(kernel.function, d.a, d.b, d.c, p); }, launches, ms, error))
    return false;
  return release(d, error);
}

cutec::rt::Status emulate(const GemmKernel &kernel, const Problem &p, std::vector<uint16_t> &c) {
  std::vector<uint8_t> a = p.a, b = p.b;
  cutec::rt::MemoryMap map;
  for (auto [data, bytes, name] : {std::tuple{static_cast<void *>(a.data()), a.size(), "mA"},
                                   std::tuple{static_cast<void *>(b.data()), b.size(), "mB"},
                                   std::tuple{static_cast<void *>(c.data()), c.size() * 2, "mC"}})
    if (cutec::rt::Status added = map.add(data, bytes, name); !added)
      return added;
  return kernel.emulate(a.data(), b.data(), c.data(), p, map);
}

/// The SMs the emulation's persistent grid is sized for: few, so that each
/// CTA walks several tiles (the GPU's launcher asks the device).
constexpr uint32_t kEmulatedSms = 4;

/// launch and emulate for the kernel of generated files `Name`_*.
#define CUTEC_GEMM_KERNEL(Name, format)                                                           \
  GemmKernel {                                                                                     \
    #Name, format, nullptr,                                                                        \
        [](CUfunction f, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, const Problem &p) {        \
          return cutec_launch_##Name(f, {a, b, c, p.m, p.k, p.n}, nullptr);                        \
        },                                                                                         \
        [](uint8_t *a, uint8_t *b, uint16_t *c, const Problem &p, cutec::rt::MemoryMap &map) {   \
          Name##_Params params{};                                                                  \
          params.mA = reinterpret_cast<uintptr_t>(a);                                              \
          params.mB = reinterpret_cast<uintptr_t>(b);                                              \
          params.mC = reinterpret_cast<uintptr_t>(c);                                              \
          params.M = p.m;                                                                          \
          params.K = p.k;                                                                          \
          params.N = p.n;                                                                          \
          cutec::rt::LaunchConfig config;                                                          \
          config.grid = Name##_grid(p.m, p.k, p.n, kEmulatedSms);                                                \
          config.block = Name##_block();                                                           \
          config.dynamicSharedBytes = Name##_shared_bytes;                                         \
          return cutec::rt::launch(cutec_kernel_##Name, config, &params, map);                     \
        }                                                                                          \
  }

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr,
                 "usage: hopper_gemm_check hopper_gemm.sm_90a.ptx hopper_gemm_fp8.sm_90a.ptx\n");
    return 2;
  }
  CUcontext context;
  if (std::optional<int> status = cutec::hw::openDevice("hopper_gemm_check", context))
    return *status;
  GemmKernel kernels[] = {CUTEC_GEMM_KERNEL(hopper_gemm, cutec::rt::kF16),
                          CUTEC_GEMM_KERNEL(hopper_gemm_fp8, cutec::rt::kE4M3)};
  std::string ptx[2] = {cutec::hw::readFile(argv[1]), cutec::hw::readFile(argv[2])};
  CUmodule modules[2];
  if (cutec_load_hopper_gemm(ptx[0].c_str(), &modules[0], &kernels[0].function) != CUDA_SUCCESS ||
      cutec_load_hopper_gemm_fp8(ptx[1].c_str(), &modules[1], &kernels[1].function) !=
          CUDA_SUCCESS) {
    std::fprintf(stderr, "hopper_gemm_check: cannot load %s or %s\n", argv[1], argv[2]);
    return 1;
  }
  int passed = 0, failed = 0;
  struct Shape {
    uint32_t m, n, k;
  };
  // The last two have edges that are not multiples of the 128 x 256 tile
  // or of the K tile.
  const Shape shapes[] = {
      {128, 256, 128}, {256, 512, 512}, {384, 768, 2048}, {200, 264, 208}, {1000, 776, 1008}};
  for (const GemmKernel &kernel : kernels)
    for (bool integers : {true, false})
      for (const Shape &s : shapes) {
        Problem p = makeProblem(kernel, s.m, s.n, s.k, integers);
        std::vector<uint16_t> gpu(size_t(s.m) * s.n), emulated(gpu.size(), 0xFFFF);
        std::string error;
        if (!runOnGpu(kernel, p, gpu, error)) {
          std::fprintf(stderr, "hopper_gemm_check: %s %ux%ux%u: %s\n", kernel.name, s.m, s.n,
                       s.k, error.c_str());
          return 1;
        }
        if (cutec::rt::Status status = emulate(kernel, p, emulated); !status) {
          std::fprintf(stderr, "hopper_gemm_check: %s %ux%ux%u: emulation failed: %s\n",
                       kernel.name, s.m, s.n, s.k, status.error().c_str());
          return 1;
        }
        std::vector<uint16_t> expected = reference(kernel, p);
        size_t differ = 0, offReference = 0;
        for (size_t i = 0; i < gpu.size(); ++i) {
          differ += gpu[i] != emulated[i];
          offReference += gpu[i] != expected[i];
        }
        std::printf("%-15s %-8s M=%-4u N=%-4u K=%-4u: GPU vs emulation %s (%zu of %zu differ), "
                    "GPU vs f64-sum reference %zu differ\n",
                    kernel.name, integers ? "integer" : "normal", s.m, s.n, s.k,
                    differ ? "DIFFERENT" : "byte-identical", differ, gpu.size(), offReference);
        bool ok = differ == 0 && (!integers || offReference == 0);
        (ok ? passed : failed)++;
      }
  // Speed: TFLOP/s on the GPU.
  for (const GemmKernel &kernel : kernels)
    for (const Shape &s : {Shape{8192, 8192, 8192}, Shape{4096, 4096, 4096},
                           Shape{128, 8192, 8192}, Shape{8192, 1024, 8192}}) {
      Problem p = makeProblem(kernel, s.m, s.n, s.k, false);
      float ms = 0;
      std::string error;
      if (!timeOnGpu(kernel, p, 10, ms, error)) {
        std::fprintf(stderr, "hopper_gemm_check: %s %ux%ux%u: %s\n", kernel.name, s.m, s.n, s.k,
                     error.c_str());
        return 1;
      }
      std::printf("%s M=%u N=%u K=%u: %.3f ms, %.1f TFLOP/s\n", kernel.name, s.m, s.n, s.k, ms,
                  2.0 * s.m * s.n * s.k / (ms * 1e9));
    }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
