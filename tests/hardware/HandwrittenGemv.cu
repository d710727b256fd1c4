// Hand-written CUDA peers of examples/nvfp4_gemv_warp.cute for the GEMV
// hardware check: what a CUDA programmer would write for the same numerics
// and data layout, compiled by nvcc -O3 -fmad=false (no contraction, so
// that each result equals the reference bit for bit). A warp computes a
// row; lane j reads 16-byte chunks j, j + 32, ... of the row and of b and
// sums res += a * sfa * b * sfb in k order, then the warp adds its partial
// sums with a butterfly, as the cutec kernel does.
//  - handwritten_gemv_table decodes e2m1 through a 16-entry shared table;
//  - handwritten_gemv_products looks up the exact product a * b in a
//    256-entry shared table and multiplies by sfa * sfb (exact in f32 for
//    these formats, so the same bits).
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

namespace {

__device__ const float kE2m1[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,
                                    -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};

/// An unsigned e4m3 scale factor (the sign bit ignored) as a float.
__device__ float ue4m3(uint8_t code) {
  return __half2float(__half(__nv_cvt_fp8_to_halfraw(code & 0x7F, __NV_E4M3)));
}

/// The byte of scale factor `block` (16 k values each) of `row` in the
/// block-scaled MMA's layout: 128 rows as (32, 4), 64 k values as 4 blocks.
__device__ int scaleOffset(int row, int block, int l, int rowTiles, int kTiles) {
  return (row % 32) * 16 + (row / 32 % 4) * 4 + (row / 128) * 512 * kTiles + block % 4 +
         block / 4 * 512 + l * 512 * kTiles * rowTiles;
}

struct Chunk {
  uint32_t a[4], b[4];
  float sa[2], sb[2];
};

__device__ Chunk loadChunk(const uint8_t *a, const uint8_t *b, const uint8_t *sfa,
                           const uint8_t *sfb, int row, int chunk, int l, int M, int K) {
  int kTiles = (K + 63) / 64, rowTiles = (M + 127) / 128;
  uint4 wa = reinterpret_cast<const uint4 *>(a + (size_t(l) * M + row) * K / 2)[chunk];
  uint4 wb = reinterpret_cast<const uint4 *>(b + size_t(l) * 128 * K / 2)[chunk];
  Chunk c = {{wa.x, wa.y, wa.z, wa.w}, {wb.x, wb.y, wb.z, wb.w}, {}, {}};
  for (int h = 0; h < 2; ++h) {
    c.sa[h] = ue4m3(sfa[scaleOffset(row, 2 * chunk + h, l, rowTiles, kTiles)]);
    c.sb[h] = ue4m3(sfb[scaleOffset(0, 2 * chunk + h, l, 1, kTiles)]);
  }
  return c;
}

__device__ int code(const uint32_t *words, int i) { return words[i / 8] >> (4 * (i % 8)) & 15; }

__device__ void finish(float res, __half *c, int row, int l, int M) {
  for (int offset = 16; offset > 0; offset /= 2)
    res += __shfl_xor_sync(0xFFFFFFFF, res, offset);
  if (threadIdx.x % 32 == 0)
    c[size_t(l) * M + row] = __float2half_rn(res);
}

} // namespace

extern "C" __global__ void __launch_bounds__(128)
    handwritten_gemv_table(const uint8_t *a, const uint8_t *b, const uint8_t *sfa,
                           const uint8_t *sfb, __half *c, int M, int K, int L) {
  __shared__ float values[16];
  if (threadIdx.x < 16)
    values[threadIdx.x] = kE2m1[threadIdx.x];
  __syncthreads();
  int row = blockIdx.x * 4 + threadIdx.x / 32, l = blockIdx.z;
  float res = 0.0f;
  for (int chunk = threadIdx.x % 32; chunk < K / 32; chunk += 32) {
    Chunk x = loadChunk(a, b, sfa, sfb, row, chunk, l, M, K);
#pragma unroll
    for (int i = 0; i < 32; ++i)
      res += values[code(x.a, i)] * x.sa[i / 16] * values[code(x.b, i)] * x.sb[i / 16];
  }
  finish(res, c, row, l, M);
}

extern "C" __global__ void __launch_bounds__(128)
    handwritten_gemv_products(const uint8_t *a, const uint8_t *b, const uint8_t *sfa,
                              const uint8_t *sfb, __half *c, int M, int K, int L) {
  __shared__ float products[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    products[i] = kE2m1[i / 16] * kE2m1[i % 16];
  __syncthreads();
  int row = blockIdx.x * 4 + threadIdx.x / 32, l = blockIdx.z;
  float res = 0.0f;
  for (int chunk = threadIdx.x % 32; chunk < K / 32; chunk += 32) {
    Chunk x = loadChunk(a, b, sfa, sfb, row, chunk, l, M, K);
    float scale[2] = {x.sa[0] * x.sb[0], x.sa[1] * x.sb[1]};
#pragma unroll
    for (int i = 0; i < 32; ++i)
      res += products[code(x.a, i) * 16 + code(x.b, i)] * scale[i / 16];
  }
  finish(res, c, row, l, M);
}
