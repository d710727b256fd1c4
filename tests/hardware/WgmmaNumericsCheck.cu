// The wgmma numerics check: random tiles (tests/hardware/WgmmaCases.h) through
// every wgmma.mma_async form of tests/hardware/WgmmaInstructions.inc on the GPU
// (sm_90a), each output compared bit for bit with the model in
// runtime/numerics/WgmmaNumerics.h. Prints the mismatches per form, N and pattern and
// exits 1 if there are any.
//
//   WgmmaNumericsCheck [--scale S] [--seed X] [--dump FILE] [--record DIR]
//     --scale S    S times the default number of N = 8 tiles
//     --seed X     another set of random tiles for each X (default 0)
//     --dump FILE  also writes every GPU output (u32 cells, in plan order)
//     --record DIR writes DIR/<form>.txt: recorded cases for
//                  tests/runtime/WgmmaNumericsTest.cpp
//
// Built by tools/wgmma-numerics-check.sh with nvcc (no CMake needed).
#include "tests/hardware/WgmmaCases.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/hardware/WgmmaInstructions.inc"

using namespace cutec::wgmmacheck;
namespace rt = cutec::rt;

#define CUDA_OK(call)                                                                              \
  do {                                                                                             \
    cudaError_t rc_ = (call);                                                                      \
    if (rc_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(rc_)); \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

namespace {

/// Shared-memory offset of byte j (0..31) of row r of instruction i's K
/// chunk of an operand of `rows` rows, in the no-swizzle K-major layout:
/// 8 x 16-byte core matrices, the two 16-byte halves of K 128 bytes apart
/// (LBO), groups of 8 rows 256 bytes apart (SBO), instructions one after
/// another.
__device__ unsigned coreOffset(unsigned rows, unsigned r, unsigned i, unsigned j) {
  return i * rows * 32 + (r / 8) * 256 + (j / 16) * 128 + (r % 8) * 16 + j % 16;
}

__device__ uint64_t descriptor(const void *p, unsigned lbo, unsigned sbo) {
  const uint32_t address = uint32_t(__cvta_generic_to_shared(p));
  return uint64_t((address & 0x3FFFF) >> 4) | uint64_t(lbo >> 4) << 16 | uint64_t(sbo >> 4) << 32;
}

/// One CTA (one warpgroup) per tile: D = C + A*B over `instructions` wgmmas.
template <int Form, int N>
__global__ void __launch_bounds__(128) wgmmaTiles(const uint8_t *A, const uint8_t *B,
                                                  const uint32_t *C, uint32_t *D,
                                                  unsigned instructions, unsigned lbo,
                                                  unsigned sbo) {
  extern __shared__ __align__(128) uint8_t smem[];
  const unsigned tile = blockIdx.x, t = threadIdx.x, rowBytes = instructions * 32;
  uint8_t *sA = smem, *sB = smem + 64 * rowBytes;
  const uint8_t *gA = A + size_t(tile) * 64 * rowBytes, *gB = B + size_t(tile) * N * rowBytes;
  for (unsigned x = t; x < 64 * rowBytes; x += 128)
    sA[coreOffset(64, x / rowBytes, x % rowBytes / 32, x % 32)] = gA[x];
  for (unsigned x = t; x < N * rowBytes; x += 128)
    sB[coreOffset(N, x / rowBytes, x % rowBytes / 32, x % 32)] = gB[x];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();

  // The accumulator fragment: value v of thread t is row 16*warp + lane/4 +
  // 8*((v/2)%2), column 8*(v/4) + 2*(lane%4) + v%2; an f16 accumulator packs
  // values 2j (low half) and 2j+1 into register j.
  constexpr int R = WgmmaInstr<Form, N>::kRegisters;
  constexpr bool packed = R * 4 == N;
  const unsigned warp = t / 32, lane = t % 32;
  auto cell = [&](unsigned v) {
    const unsigned row = 16 * warp + lane / 4 + 8 * ((v / 2) % 2);
    const unsigned col = 8 * (v / 4) + 2 * (lane % 4) + v % 2;
    return size_t(tile) * 64 * N + size_t(row) * N + col;
  };
  uint32_t d[R];
#pragma unroll
  for (int j = 0; j < R; ++j)
    d[j] = packed ? (C[cell(2 * j)] & 0xFFFF) | C[cell(2 * j + 1)] << 16 : C[cell(j)];
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  for (unsigned i = 0; i < instructions; ++i)
    WgmmaInstr<Form, N>::run(d, descriptor(sA + i * 64 * 32, lbo, sbo),
                             descriptor(sB + i * N * 32, lbo, sbo));
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
  for (int j = 0; j < R; ++j) {
    if (packed) {
      D[cell(2 * j)] = d[j] & 0xFFFF;
      D[cell(2 * j + 1)] = d[j] >> 16;
    } else {
      D[cell(j)] = d[j];
    }
  }
}

using KernelFn = void (*)(const uint8_t *, const uint8_t *, const uint32_t *, uint32_t *, unsigned,
                          unsigned, unsigned);

template <int Form> KernelFn kernelFor(unsigned n) {
  switch (n) {
  case 8:
    return wgmmaTiles<Form, 8>;
  case 64:
    return wgmmaTiles<Form, 64>;
  default:
    return wgmmaTiles<Form, 256>;
  }
}

template <int... Forms> KernelFn kernelOf(unsigned form, unsigned n, std::integer_sequence<int, Forms...>) {
  KernelFn fn = nullptr;
  ((fn = int(form) == Forms ? kernelFor<Forms>(n) : fn), ...);
  return fn;
}

constexpr unsigned kMaxSmem = 200 * 1024;

/// Runs `tiles` (all of one N and instruction count) through form `form`
/// on the GPU; returns their D.
std::vector<uint32_t> runTiles(unsigned form, const std::vector<Tile> &tiles, unsigned lbo,
                               unsigned sbo) {
  const unsigned n = tiles[0].n, instructions = tiles[0].instructions;
  std::vector<uint8_t> a, b;
  std::vector<uint32_t> c;
  for (const Tile &t : tiles) {
    a.insert(a.end(), t.a.begin(), t.a.end());
    b.insert(b.end(), t.b.begin(), t.b.end());
    c.insert(c.end(), t.c.begin(), t.c.end());
  }
  uint8_t *dA, *dB;
  uint32_t *dC, *dD;
  CUDA_OK(cudaMalloc(&dA, a.size()));
  CUDA_OK(cudaMalloc(&dB, b.size()));
  CUDA_OK(cudaMalloc(&dC, c.size() * 4));
  CUDA_OK(cudaMalloc(&dD, c.size() * 4));
  CUDA_OK(cudaMemcpy(dA, a.data(), a.size(), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dB, b.data(), b.size(), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dC, c.data(), c.size() * 4, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(dD, 0xEE, c.size() * 4));
  KernelFn fn = kernelOf(form, n, std::make_integer_sequence<int, kWgmmaFormCount>());
  const unsigned smem = (64 + n) * instructions * 32;
  CUDA_OK(cudaFuncSetAttribute(reinterpret_cast<const void *>(fn),
                               cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSmem));
  fn<<<unsigned(tiles.size()), 128, smem>>>(dA, dB, dC, dD, instructions, lbo, sbo);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<uint32_t> d(c.size());
  CUDA_OK(cudaMemcpy(d.data(), dD, d.size() * 4, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaFree(dA));
  CUDA_OK(cudaFree(dB));
  CUDA_OK(cudaFree(dC));
  CUDA_OK(cudaFree(dD));
  return d;
}

/// Runs `batch` on the GPU; returns the tiles' inputs and the GPU's D.
std::vector<uint32_t> runBatch(const Batch &batch, std::vector<Tile> &tiles, unsigned lbo,
                               unsigned sbo) {
  const WgmmaKind &type = wgmmaForms()[batch.form];
  tiles.clear();
  for (unsigned i = 0; i < batch.tiles; ++i)
    tiles.push_back(makeTile(type, batch.n, batch.instructions, batch.pattern, batch.seed(i)));
  return runTiles(batch.form, tiles, lbo, sbo);
}

std::string formName(unsigned form) { return kWgmmaForms[form]; }

/// Mismatching cells of the GPU's D against the model.
size_t mismatches(const Batch &batch, const std::vector<Tile> &tiles,
                  const std::vector<uint32_t> &gpu, int *firstCell = nullptr) {
  const WgmmaKind &type = wgmmaForms()[batch.form];
  size_t bad = 0, cells = size_t(64) * batch.n;
  for (unsigned i = 0; i < tiles.size(); ++i) {
    const std::vector<uint32_t> model = modelTile(type, tiles[i]);
    for (size_t x = 0; x < cells; ++x)
      if (model[x] != gpu[i * cells + x]) {
        if (!bad && firstCell)
          *firstCell = int(i * cells + x);
        ++bad;
      }
  }
  return bad;
}

/// Writes recorded cases of every form to DIR/<form>.txt: per line, the
/// instruction count, the C code, A's and B's codes (hex) and the GPU's D,
/// `perPattern` outputs of each pattern (N = 8 batches).
void record(const std::string &dir, const std::vector<Batch> &plan,
            const std::vector<std::vector<uint32_t>> &outputs, unsigned perPattern) {
  for (unsigned form = 0; form < wgmmaForms().size(); ++form) {
    const WgmmaKind &type = wgmmaForms()[form];
    const unsigned bytes = rt::wgmmaElementBytes(type.a), K = rt::wgmmaK(type.a);
    std::string path = dir + "/" + formName(form) + ".txt";
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      std::exit(2);
    }
    std::fprintf(f, "# wgmma.mma_async .%s on an H100: instructions c a[0..K*i) b[0..K*i) d (hex)\n",
                 formName(form).c_str());
    for (size_t bi = 0; bi < plan.size(); ++bi) {
      const Batch &batch = plan[bi];
      if (batch.form != form || batch.n != 8)
        continue;
      unsigned written = 0;
      for (unsigned i = 0; i < batch.tiles && written < perPattern / 2; ++i) {
        const Tile t = makeTile(type, 8, batch.instructions, batch.pattern, batch.seed(i));
        for (unsigned x = 0; x < 64 * 8 && written < perPattern / 2; x += 37, ++written) {
          const unsigned m = x / 8, n = x % 8;
          std::fprintf(f, "%u %x", batch.instructions, t.c[x]);
          for (const auto *mat : {&t.a, &t.b}) {
            const uint8_t *row = mat->data() + size_t(mat == &t.a ? m : n) * t.rowBytes();
            for (unsigned k = 0; k < K * batch.instructions; ++k)
              std::fprintf(f, " %x", getElement(row, k, bytes));
          }
          std::fprintf(f, " %x\n", outputs[bi][size_t(i) * 512 + x]);
        }
      }
    }
    std::fclose(f);
  }
}

/// A directed probe: D = c + sum of a[k] * b over one instruction (a padded
/// with zeros), values given as floats and encoded exactly.
struct Probe {
  unsigned form;
  const char *what;
  float c;
  std::vector<float> a;
  float b = 1;
};

uint32_t bitsOf(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return u;
}

/// The directed probes of docs/emulator.md's table, each on the GPU and the
/// model: prints exact sum, GPU result, model result; returns the mismatches.
size_t runProbes(unsigned lbo, unsigned sbo) {
  size_t bad = 0;
  const float inf = INFINITY, nan = NAN;
  auto ones = [](int n, float v) { return std::vector<float>(size_t(n), v); };
  auto cat = [](std::vector<float> a, const std::vector<float> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const float p = 0x1p15f;
  const std::vector<Probe> probes = {
      {0, "2^11 + 15 x 2^-13", 0, cat({0x1p11f}, ones(15, 0x1p-13f))},
      {0, "2^15 + 15 x 2^-10", 0, cat({p}, ones(15, 0x1p-10f))},
      {0, "2^15 + 15 x 2^-11", 0, cat({p}, ones(15, 0x1p-11f))},
      {0, "2^15 - 2^15 + 14 x 2^-11", 0, cat({p, -p}, ones(14, 0x1p-11f))},
      {0, "14 x 2^-11 + 2^15 - 2^15", 0, cat(ones(14, 0x1p-11f), {p, -p})},
      {0, "c=2^15, 15 x 2^-11", p, ones(15, 0x1p-11f)},
      {0, "c=2^15, 15 x 2^-10", p, ones(15, 0x1p-10f)},
      {0, "(1.5 x 2^14)(1.5) + 15 x (2^-11)(1.5)", 0, cat({1.5f * 0x1p14f}, ones(15, 0x1p-11f)),
       1.5f},
      {0, "c=1, -2^-24 (one product)", 1, {-0x1p-24f}},
      {0, "c=-0, 16 x -0", -0.0f, ones(16, -0.0f)},
      {0, "c=-0, 1 - 1", -0.0f, {1, -1}},
      {0, "c=NaN(0x7FC00000), 1", nan, {1}},
      {0, "Inf - Inf", 0, {inf, -inf}},
      {0, "Inf x 0", 0, {inf}, 0},
      {0, "c=-Inf, 1", -inf, {1}},
      {1, "f16 acc: c=1, 2^-11", 1, {0x1p-11f}},
      {1, "f16 acc: c=1, 2^-11 + 2^-20", 1, {0x1p-11f, 0x1p-20f}},
      {1, "f16 acc: c=1, 3 x 2^-12", 1, ones(3, 0x1p-12f)},
      {2, "bf16: c=0x1p127, 2^127", 0x1p127f, {0x1p127f}},
      {2, "bf16: c=0, -2^-100 x 2^-100", 0, {-0x1p-100f}, 0x1p-100f},
      {2, "bf16: (2^-63, 2^-127) x 2^-63", 0, {0x1p-63f, 0x1p-127f}, 0x1p-63f},
      {3, "tf32: 2^11 + 7 x 2^-13", 0, cat({0x1p11f}, ones(7, 0x1p-13f))},
      {4, "e4m3: 2^8 + 31 x 2^-5", 0, cat({256}, ones(31, 0x1p-5f))},
      {4, "e4m3: 2^8 + 31 x 2^-6", 0, cat({256}, ones(31, 0x1p-6f))},
      {4, "e4m3: c=2^8, 31 x 2^-6", 256, ones(31, 0x1p-6f)},
      {4, "e4m3: c=1+2^-20, 2^-9", 1 + 0x1p-20f, {0x1p-9f}},
      {4, "e4m3: 448 x 2^-9 + 2^-9 x 2^-9", 0, {448, 0x1p-9f}, 0x1p-9f},
      {7, "e5m2: 2^15 + 31 x 2^2", 0, cat({p}, ones(31, 4))},
      {7, "e5m2: 2^15 + 31 x 2^1", 0, cat({p}, ones(31, 2))},
      {8, "f16 acc e4m3: c=1, 2^-9 x 2^-2", 1, {0x1p-9f}, 0x1p-2f},
  };
  std::printf("probes (exact sum -> GPU, model):\n");
  for (const Probe &probe : probes) {
    const WgmmaKind &type = wgmmaForms()[probe.form];
    const rt::FloatFormat &fa = elementFormat(type.a), &fb = elementFormat(type.b);
    const unsigned K = rt::wgmmaK(type.a), bytes = rt::wgmmaElementBytes(type.a);
    const unsigned shift = type.a == WgmmaElement::TF32 ? 13 : 0;
    Tile t;
    t.n = 8;
    t.instructions = 1;
    t.a.assign(64 * 32, 0);
    t.b.assign(8 * 32, 0);
    t.c.assign(64 * 8, 0);
    double exact = type.d == WgmmaAccum::F16 ? double(rt::decode(rt::kF16, rt::encode(rt::kF16, probe.c)))
                                              : double(probe.c);
    for (unsigned k = 0; k < K; ++k) {
      const float a = k < probe.a.size() ? probe.a[k] : 0.0f;
      const float b = k < probe.a.size() ? probe.b : 0.0f;
      putElement(t.a.data(), k, bytes, rt::encode(fa, a) << shift);
      for (unsigned n = 0; n < 8; ++n)
        putElement(t.b.data() + n * 32, k, bytes, rt::encode(fb, b) << shift);
      exact += double(rt::decode(fa, rt::encode(fa, a))) * double(rt::decode(fb, rt::encode(fb, b)));
    }
    t.c[0] = type.d == WgmmaAccum::F16 ? rt::encode(rt::kF16, probe.c) : bitsOf(probe.c);
    // One tile through the GPU: the runBatch path with a prepared tile.
    std::vector<Tile> tiles{t};
    const std::vector<uint32_t> gpu = runTiles(probe.form, tiles, lbo, sbo);
    const uint32_t model = modelTile(type, t)[0];
    auto value = [&](uint32_t bits) {
      if (type.d == WgmmaAccum::F16)
        return double(rt::decode(rt::kF16, bits));
      float f;
      std::memcpy(&f, &bits, 4);
      return double(f);
    };
    std::printf("  %-14s %-40s exact %-24.17g gpu %08x (%.17g) model %08x%s\n",
                kWgmmaForms[probe.form], probe.what, exact, gpu[0], value(gpu[0]), model,
                model == gpu[0] ? "" : "  MISMATCH");
    bad += model != gpu[0];
  }
  return bad;
}

} // namespace

int main(int argc, char **argv) {
  unsigned scale = 1;
  uint64_t salt = 0;
  const char *dumpPath = nullptr, *recordDir = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--scale" && i + 1 < argc)
      scale = unsigned(std::atoi(argv[++i]));
    else if (arg == "--seed" && i + 1 < argc)
      salt = std::strtoull(argv[++i], nullptr, 0);
    else if (arg == "--dump" && i + 1 < argc)
      dumpPath = argv[++i];
    else if (arg == "--record" && i + 1 < argc)
      recordDir = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--scale S] [--seed X] [--dump FILE] [--record DIR]\n",
                   argv[0]);
      return 2;
    }
  }
  cudaDeviceProp prop;
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);

  // The layouts first: exact sums must come out exact with every form.
  unsigned lbo = 128, sbo = 256;
  for (int attempt = 0; attempt < 2; ++attempt) {
    size_t bad = 0;
    std::vector<Tile> tiles;
    for (unsigned form = 0; form < wgmmaForms().size(); ++form)
      for (unsigned n : {8u, 64u, 256u}) {
        const Batch batch{form, n, 2, Pattern::Exact, 2};
        const std::vector<uint32_t> gpu = runBatch(batch, tiles, lbo, sbo);
        const size_t b = mismatches(batch, tiles, gpu);
        if (b)
          std::printf("exact sums: %s n%u: %zu mismatches (lbo %u sbo %u)\n",
                      formName(form).c_str(), n, b, lbo, sbo);
        bad += b;
      }
    if (!bad)
      break;
    std::swap(lbo, sbo);
  }
  std::printf("layout: lbo %u sbo %u\n", lbo, sbo);

  const size_t probeBad = runProbes(lbo, sbo);
  const std::vector<Batch> plan = checkPlan(scale, salt);
  std::vector<std::vector<uint32_t>> outputs;
  FILE *dump = dumpPath ? std::fopen(dumpPath, "wb") : nullptr;
  size_t total = 0, totalBad = 0;
  std::vector<size_t> formBad(wgmmaForms().size()), formCells(wgmmaForms().size());
  std::vector<Tile> tiles;
  for (const Batch &batch : plan) {
    std::vector<uint32_t> gpu = runBatch(batch, tiles, lbo, sbo);
    if (dump)
      std::fwrite(gpu.data(), 4, gpu.size(), dump);
    int first = -1;
    const size_t bad = mismatches(batch, tiles, gpu, &first);
    formBad[batch.form] += bad;
    formCells[batch.form] += gpu.size();
    total += gpu.size();
    totalBad += bad;
    if (bad)
      std::printf("  %-20s n%-3u x%u %-8s %6zu of %6zu differ\n", formName(batch.form).c_str(),
                  batch.n, batch.instructions, patternName(batch.pattern), bad, gpu.size());
    if (recordDir)
      outputs.push_back(std::move(gpu));
  }
  if (dump)
    std::fclose(dump);
  for (unsigned form = 0; form < wgmmaForms().size(); ++form)
    std::printf("%-20s %8zu outputs, %6zu mismatches\n", formName(form).c_str(), formCells[form],
                formBad[form]);
  std::printf("probes: %zu mismatches\n", probeBad);
  std::printf("total: %zu outputs, %zu mismatches\n", total, totalBad);
  totalBad += probeBad;
  if (recordDir)
    record(recordDir, plan, outputs, 40);
  return totalBad ? 1 : 0;
}
