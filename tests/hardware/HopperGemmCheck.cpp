// The hardware check of Hopper's warpgroup MMA: examples/hopper_gemm.cute
// (TMA loads into a 4-stage pipeline, wgmma from 128B-swizzled shared
// memory with the accumulator in registers, fence/commit/wait, each thread
// storing its accumulator registers). Its sm_90a PTX runs on the GPU
// through cutec's host launcher and its emulation on the CPU on the same
// inputs; the f16 outputs must be byte-identical. Two kinds of inputs:
// small integers (every sum exact, so the result is the reference's too)
// and normally distributed f16 values (sums that round, where the GPU and
// the emulator agree only if the emulator adds as the tensor core does).
// Then the kernel is timed on larger shapes (TFLOP/s).
//   hopper_gemm_check hopper_gemm.sm_90a.ptx
// Without a CUDA device it says so and exits 0 (CI has no GPU).
#include "CudaCheck.h"
#include "hopper_gemm_emu.h"
#include "hopper_gemm_launch.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

struct Problem {
  uint32_t m, n, k;
  std::vector<uint16_t> a, b; // f16 bits, (M, K) and (N, K) row-major
};

uint16_t toF16(float x) {
  _Float16 h = static_cast<_Float16>(x);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

float fromF16(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return float(h);
}

Problem makeProblem(uint32_t m, uint32_t n, uint32_t k, bool integers) {
  Problem p{m, n, k, std::vector<uint16_t>(size_t(m) * k), std::vector<uint16_t>(size_t(n) * k)};
  std::mt19937 rng(m * 31 + n * 7 + k + integers);
  std::uniform_int_distribution<int> small(-4, 4);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (auto *v : {&p.a, &p.b})
    for (uint16_t &x : *v)
      x = toF16(integers ? float(small(rng)) : normal(rng));
  return p;
}

/// f16 of the f32 sum of exact products in k order: exact for the integer
/// inputs, an approximation otherwise.
std::vector<uint16_t> reference(const Problem &p) {
  std::vector<uint16_t> c(size_t(p.m) * p.n);
  for (uint32_t i = 0; i < p.m; ++i)
    for (uint32_t j = 0; j < p.n; ++j) {
      double sum = 0;
      for (uint32_t kk = 0; kk < p.k; ++kk)
        sum += double(fromF16(p.a[size_t(i) * p.k + kk])) * fromF16(p.b[size_t(j) * p.k + kk]);
      c[size_t(i) * p.n + j] = toF16(float(sum));
    }
  return c;
}

struct Buffers {
  CUdeviceptr a = 0, b = 0, c = 0;
};

bool upload(const Problem &p, Buffers &d, std::string &error) {
  CUTEC_CU(cuMemAlloc(&d.a, p.a.size() * 2));
  CUTEC_CU(cuMemcpyHtoD(d.a, p.a.data(), p.a.size() * 2));
  CUTEC_CU(cuMemAlloc(&d.b, p.b.size() * 2));
  CUTEC_CU(cuMemcpyHtoD(d.b, p.b.data(), p.b.size() * 2));
  CUTEC_CU(cuMemAlloc(&d.c, size_t(p.m) * p.n * 2));
  CUTEC_CU(cuMemsetD8(d.c, 0xFF, size_t(p.m) * p.n * 2));
  return true;
}

bool release(Buffers &d, std::string &error) {
  for (CUdeviceptr ptr : {d.a, d.b, d.c})
    CUTEC_CU(cuMemFree(ptr));
  return true;
}

bool runOnGpu(CUfunction f, const Problem &p, std::vector<uint16_t> &c, std::string &error) {
  Buffers d;
  if (!upload(p, d, error))
    return false;
  CUTEC_CU(cutec_launch_hopper_gemm(f, {d.a, d.b, d.c, p.m, p.k, p.n}, nullptr));
  CUTEC_CU(cuCtxSynchronize());
  CUTEC_CU(cuMemcpyDtoH(c.data(), d.c, c.size() * 2));
  return release(d, error);
}

/// The mean time of `launches` launches after a warm-up, in ms.
bool timeOnGpu(CUfunction f, const Problem &p, int launches, float &ms, std::string &error) {
  Buffers d;
  if (!upload(p, d, error))
    return false;
  hopper_gemm_LaunchArgs args{d.a, d.b, d.c, p.m, p.k, p.n};
  CUTEC_CU(cutec_launch_hopper_gemm(f, args, nullptr));
  CUevent start, stop;
  CUTEC_CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CUTEC_CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CUTEC_CU(cuEventRecord(start, nullptr));
  for (int i = 0; i < launches; ++i)
    CUTEC_CU(cutec_launch_hopper_gemm(f, args, nullptr));
  CUTEC_CU(cuEventRecord(stop, nullptr));
  CUTEC_CU(cuEventSynchronize(stop));
  CUTEC_CU(cuEventElapsedTime(&ms, start, stop));
  ms /= float(launches);
  return release(d, error);
}

cutec::rt::Status emulate(const Problem &p, std::vector<uint16_t> &c) {
  std::vector<uint16_t> a = p.a, b = p.b;
  cutec::rt::MemoryMap map;
  for (auto [data, bytes, name] : {std::tuple{static_cast<void *>(a.data()), a.size() * 2, "mA"},
                                   std::tuple{static_cast<void *>(b.data()), b.size() * 2, "mB"},
                                   std::tuple{static_cast<void *>(c.data()), c.size() * 2, "mC"}})
    if (cutec::rt::Status added = map.add(data, bytes, name); !added)
      return added;
  hopper_gemm_Params params{};
  params.mA = reinterpret_cast<uintptr_t>(a.data());
  params.mB = reinterpret_cast<uintptr_t>(b.data());
  params.mC = reinterpret_cast<uintptr_t>(c.data());
  params.M = p.m;
  params.K = p.k;
  params.N = p.n;
  cutec::rt::LaunchConfig config;
  config.grid = hopper_gemm_grid(p.m, p.k, p.n);
  config.block = hopper_gemm_block();
  config.dynamicSharedBytes = hopper_gemm_shared_bytes;
  return cutec::rt::launch(cutec_kernel_hopper_gemm, config, &params, map);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hopper_gemm_check hopper_gemm.sm_90a.ptx\n");
    return 2;
  }
  CUcontext context;
  if (std::optional<int> status = cutec::hw::openDevice("hopper_gemm_check", context))
    return *status;
  std::string ptx = cutec::hw::readFile(argv[1]);
  CUmodule module;
  CUfunction f;
  if (cutec_load_hopper_gemm(ptx.c_str(), &module, &f) != CUDA_SUCCESS) {
    std::fprintf(stderr, "hopper_gemm_check: cannot load %s\n", argv[1]);
    return 1;
  }
  int passed = 0, failed = 0;
  struct Shape {
    uint32_t m, n, k;
  };
  const Shape shapes[] = {{128, 256, 64}, {256, 512, 512}, {512, 256, 1024}, {384, 768, 2048}};
  for (bool integers : {true, false})
    for (const Shape &s : shapes) {
      Problem p = makeProblem(s.m, s.n, s.k, integers);
      std::vector<uint16_t> gpu(size_t(s.m) * s.n), emulated(gpu.size(), 0xFFFF);
      std::string error;
      if (!runOnGpu(f, p, gpu, error)) {
        std::fprintf(stderr, "hopper_gemm_check: %ux%ux%u: %s\n", s.m, s.n, s.k, error.c_str());
        return 1;
      }
      if (cutec::rt::Status status = emulate(p, emulated); !status) {
        std::fprintf(stderr, "hopper_gemm_check: %ux%ux%u: emulation failed: %s\n", s.m, s.n,
                     s.k, status.error().c_str());
        return 1;
      }
      std::vector<uint16_t> expected = reference(p);
      size_t differ = 0, offReference = 0;
      for (size_t i = 0; i < gpu.size(); ++i) {
        differ += gpu[i] != emulated[i];
        offReference += gpu[i] != expected[i];
      }
      std::printf("hopper_gemm %-8s M=%-4u N=%-4u K=%-4u: GPU vs emulation %s (%zu of %zu "
                  "differ), GPU vs f64-sum reference %zu differ\n",
                  integers ? "integer" : "normal", s.m, s.n, s.k,
                  differ ? "DIFFERENT" : "byte-identical", differ, gpu.size(), offReference);
      bool ok = differ == 0 && (!integers || offReference == 0);
      (ok ? passed : failed)++;
    }
  // Speed: TFLOP/s on the GPU.
  for (const Shape &s : {Shape{8192, 8192, 8192}, Shape{4096, 4096, 4096},
                         Shape{128, 8192, 8192}, Shape{8192, 1024, 8192}}) {
    Problem p = makeProblem(s.m, s.n, s.k, false);
    float ms = 0;
    std::string error;
    if (!timeOnGpu(f, p, 10, ms, error)) {
      std::fprintf(stderr, "hopper_gemm_check: %ux%ux%u: %s\n", s.m, s.n, s.k, error.c_str());
      return 1;
    }
    std::printf("hopper_gemm M=%u N=%u K=%u: %.3f ms, %.1f TFLOP/s\n", s.m, s.n, s.k, ms,
                2.0 * s.m * s.n * s.k / (ms * 1e9));
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
