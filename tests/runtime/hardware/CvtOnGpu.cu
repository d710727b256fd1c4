// Compares runtime/PtxCvt with the GPU's own cvt, bit for bit: every one of the
// 2^32 f32 inputs for the down-conversions an sm_90 GPU has, and every 16-bit
// input for the fp8 up-conversions. Not part of ctest (it needs a GPU); run it
// from the repository root on a Hopper or newer machine:
//   nvcc -std=c++20 -O2 -arch=sm_90 -I. tests/runtime/hardware/CvtOnGpu.cu \
//     runtime/numerics/FloatFormat.cpp runtime/numerics/PtxCvt.cpp -o cvt-on-gpu && ./cvt-on-gpu
// It prints the mismatch count of each form (all 0 on an H100, CUDA 13.0) and
// needs about 4 GiB each of GPU memory and pinned host memory.
#include "runtime/numerics/PtxCvt.h"
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <mutex>
#include <thread>
#include <vector>
using namespace cutec::rt;
using namespace cutec::rt::ptx;

constexpr int kForms = 16;
const char *kNames[kForms] = {"e4m3x2",
                              "e4m3x2.relu",
                              "e5m2x2",
                              "e5m2x2.relu",
                              "f16.rn",
                              "f16.rn.satfinite",
                              "f16.rn.relu",
                              "f16.rz",
                              "f16x2.rn",
                              "bf16.rn",
                              "bf16.rn.satfinite",
                              "bf16.rn.relu",
                              "bf16.rz",
                              "tf32.rna",
                              "tf32.rna.satfinite",
                              "bf16x2.rn"};

__global__ void down(uint32_t base, uint32_t n, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uint32_t bits = base + i;
  float a = __uint_as_float(bits), b = __uint_as_float(bits ^ 0x80000000u);
  uint16_t h;
  uint32_t r;
  uint32_t *o = out + size_t(i) * kForms;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(h) : "f"(a), "f"(b));
  o[0] = h;
  asm("cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;" : "=h"(h) : "f"(a), "f"(b));
  o[1] = h;
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(h) : "f"(a), "f"(b));
  o[2] = h;
  asm("cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;" : "=h"(h) : "f"(a), "f"(b));
  o[3] = h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(a));
  o[4] = h;
  asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h) : "f"(a));
  o[5] = h;
  asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(h) : "f"(a));
  o[6] = h;
  asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(a));
  o[7] = h;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b));
  o[8] = r;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(a));
  o[9] = h;
  asm("cvt.rn.satfinite.bf16.f32 %0, %1;" : "=h"(h) : "f"(a));
  o[10] = h;
  asm("cvt.rn.relu.bf16.f32 %0, %1;" : "=h"(h) : "f"(a));
  o[11] = h;
  asm("cvt.rz.bf16.f32 %0, %1;" : "=h"(h) : "f"(a));
  o[12] = h;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(a));
  o[13] = r;
  asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(r) : "f"(a));
  o[14] = r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b));
  o[15] = r;
}

uint32_t mine(int form, float a, float b) {
  using R = Rounding;
  switch (form) {
  case 0:
    return cvtRnSatfiniteE4m3x2F32(a, b);
  case 1:
    return cvtRnSatfiniteE4m3x2F32(a, b, Relu::On);
  case 2:
    return cvtRnSatfiniteE5m2x2F32(a, b);
  case 3:
    return cvtRnSatfiniteE5m2x2F32(a, b, Relu::On);
  case 4:
    return cvtF16F32(a);
  case 5:
    return cvtF16F32(a, R::NearestEven, Relu::Off, Satfinite::On);
  case 6:
    return cvtF16F32(a, R::NearestEven, Relu::On);
  case 7:
    return cvtF16F32(a, R::TowardZero);
  case 8:
    return cvtF16x2F32(a, b);
  case 9:
    return cvtBf16F32(a);
  case 10:
    return cvtBf16F32(a, R::NearestEven, Relu::Off, Satfinite::On);
  case 11:
    return cvtBf16F32(a, R::NearestEven, Relu::On);
  case 12:
    return cvtBf16F32(a, R::TowardZero);
  case 13:
    return cvtRnaTf32F32(a);
  case 14:
    return cvtRnaTf32F32(a, Satfinite::On);
  case 15:
    return cvtBf16x2F32(a, b);
  }
  return 0;
}

__global__ void up(uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536)
    return;
  uint16_t a = uint16_t(i);
  uint32_t r;
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(a));
  out[i * 4 + 0] = r;
  asm("cvt.rn.relu.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(a));
  out[i * 4 + 1] = r;
  asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(r) : "h"(a));
  out[i * 4 + 2] = r;
  asm("cvt.rn.relu.f16x2.e5m2x2 %0, %1;" : "=r"(r) : "h"(a));
  out[i * 4 + 3] = r;
}

int main() {
  const uint32_t chunk = 1u << 26;
  uint32_t *dOut, *hOut;
  cudaMalloc(&dOut, size_t(chunk) * kForms * 4);
  cudaMallocHost(&hOut, size_t(chunk) * kForms * 4);
  unsigned long long bad[kForms] = {};
  int printed[kForms] = {};
  std::mutex m;
  for (uint64_t base = 0; base < (1ull << 32); base += chunk) {
    down<<<chunk / 256, 256>>>(uint32_t(base), chunk, dOut);
    cudaMemcpy(hOut, dOut, size_t(chunk) * kForms * 4, cudaMemcpyDeviceToHost);
    std::vector<std::thread> ts;
    for (int t = 0; t < 16; ++t)
      ts.emplace_back([&, t] {
        unsigned long long local[kForms] = {};
        for (uint32_t i = t; i < chunk; i += 16) {
          uint32_t bits = uint32_t(base) + i;
          float a, b;
          uint32_t nb = bits ^ 0x80000000u;
          memcpy(&a, &bits, 4);
          memcpy(&b, &nb, 4);
          for (int f = 0; f < kForms; ++f) {
            uint32_t hw = hOut[size_t(i) * kForms + f], sw = mine(f, a, b);
            if (hw != sw) {
              ++local[f];
              std::lock_guard<std::mutex> g(m);
              if (printed[f] < 6) {
                ++printed[f];
                printf("MISMATCH %s in=%08x hw=%08x mine=%08x\n", kNames[f], bits, hw, sw);
              }
            }
          }
        }
        std::lock_guard<std::mutex> g(m);
        for (int f = 0; f < kForms; ++f)
          bad[f] += local[f];
      });
    for (auto &th : ts)
      th.join();
  }
  for (int f = 0; f < kForms; ++f)
    printf("%-20s mismatches %llu / 2^32\n", kNames[f], bad[f]);
  up<<<256, 256>>>(dOut);
  cudaMemcpy(hOut, dOut, 65536 * 16, cudaMemcpyDeviceToHost);
  const char *un[4] = {"f16x2.e4m3x2", "f16x2.e4m3x2.relu", "f16x2.e5m2x2", "f16x2.e5m2x2.relu"};
  for (int f = 0; f < 4; ++f) {
    int nbad = 0;
    for (uint32_t i = 0; i < 65536; ++i) {
      uint32_t sw = f == 0   ? cvtRnF16x2E4m3x2(i)
                    : f == 1 ? cvtRnF16x2E4m3x2(i, Relu::On)
                    : f == 2 ? cvtRnF16x2E5m2x2(i)
                             : cvtRnF16x2E5m2x2(i, Relu::On);
      uint32_t hw = hOut[i * 4 + f];
      if (hw != sw && nbad++ < 6)
        printf("MISMATCH %s in=%04x hw=%08x mine=%08x\n", un[f], i, hw, sw);
    }
    printf("%-20s mismatches %d / 65536\n", un[f], nbad);
  }
  printf("cuda: %s\n", cudaGetErrorString(cudaGetLastError()));
}
