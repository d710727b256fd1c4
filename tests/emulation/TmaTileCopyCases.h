// The kernels of examples/tma_tile_copy.cute as test cases: their shapes,
// an emulated launch (the emitted C++, linked in), and what they must write,
// computed here independently from the source tensor: the box's bytes in
// TMA's order with the swizzle applied to each byte offset, zero past the
// tensor's edges. Used by TmaTileCopyLinkedTest (CI) and by the hardware
// check, which also runs the kernels on a GPU.
#ifndef CUTEC_TESTS_EMULATION_TMATILECOPYCASES_H
#define CUTEC_TESTS_EMULATION_TMATILECOPYCASES_H

#include "tma_tile_copy_emu.h"

#include <cstring>
#include <random>
#include <vector>

namespace cutec::test {

/// One kernel of the example.
struct TileCopyKernel {
  const char *name;
  unsigned bits;        // of an element of `src`
  unsigned rows, cols;  // the tile of the row-major (M, N[, L]) source
  unsigned swizzleBits; // B of Swizzle<B,4,3>
  bool writesTiles;
  const rt::KernelDescriptor &emulation;
  uint32_t sharedBytes;

  uint32_t imageBytes() const { return rows * cols * bits / 8; }
};

/// A launch of one kernel: the sizes, the source and the outputs.
struct TileCopyProblem {
  const TileCopyKernel *kernel;
  uint32_t m, n, l;
  std::vector<uint8_t> src;
  std::vector<uint8_t> image, tiles;

  uint32_t tilesM() const { return (m + kernel->rows - 1) / kernel->rows; }
  uint32_t tilesN() const { return (n + kernel->cols - 1) / kernel->cols; }
  uint32_t ctas() const { return tilesM() * tilesN() * l; }
};

inline TileCopyProblem makeTileCopyProblem(const TileCopyKernel &k, uint32_t m, uint32_t n,
                                           uint32_t l, uint32_t seed) {
  TileCopyProblem p{&k, m, n, l, {}, {}, {}};
  std::mt19937 random(seed);
  p.src.resize(size_t(m) * n * l * k.bits / 8);
  for (uint8_t &b : p.src)
    b = uint8_t(random());
  // Filled with a pattern the kernels never write, so a missed byte shows.
  p.image.assign(size_t(p.ctas()) * k.imageBytes(), 0xA5);
  if (k.writesTiles)
    p.tiles.assign(size_t(p.ctas()) * k.imageBytes(), 0xA5);
  return p;
}

/// The expected image and tiles of `p`, CTA by CTA (x fastest, as the
/// kernels number them).
inline void expectedTileCopy(const TileCopyProblem &p, std::vector<uint8_t> &image,
                             std::vector<uint8_t> &tiles) {
  const TileCopyKernel &k = *p.kernel;
  uint32_t rowBytes = k.cols * k.bits / 8, srcRowBytes = p.n * k.bits / 8;
  image.assign(p.image.size(), 0);
  tiles.assign(p.tiles.size(), 0);
  for (uint32_t cta = 0; cta < p.ctas(); ++cta) {
    uint32_t bx = cta % p.tilesM(), by = cta / p.tilesM() % p.tilesN(),
             bz = cta / (p.tilesM() * p.tilesN());
    for (uint32_t r = 0; r < k.rows; ++r)
      for (uint32_t j = 0; j < rowBytes; ++j) {
        uint64_t row = uint64_t(bx) * k.rows + r, column = uint64_t(by) * rowBytes + j;
        uint8_t value = row < p.m && column < srcRowBytes
                            ? p.src[(uint64_t(bz) * p.m + row) * srcRowBytes + column]
                            : 0;
        uint32_t offset = r * rowBytes + j;
        uint32_t mask = ((1u << k.swizzleBits) - 1) << 4;
        uint32_t swizzled = offset ^ ((offset >> 3) & mask);
        image[size_t(cta) * k.imageBytes() + swizzled] = value;
        if (k.writesTiles)
          tiles[size_t(cta) * k.imageBytes() + offset] = value;
      }
  }
}

/// Fills the fields of a kernel's parameter (or launch argument) struct that
/// it has: every kernel takes src, image, M, N and T; some take tiles or L.
template <typename Params, typename Pointer>
Params tileCopyArguments(const TileCopyProblem &p, Pointer src, Pointer image, Pointer tiles) {
  Params params{};
  params.src = src;
  params.image = image;
  params.M = p.m;
  params.N = p.n;
  params.T = p.ctas();
  if constexpr (requires { params.tiles; })
    params.tiles = tiles;
  if constexpr (requires { params.L; })
    params.L = p.l;
  return params;
}

template <typename Params> rt::Status emulateTileCopy(TileCopyProblem &p, unsigned workers) {
  rt::MemoryMap memory;
  if (rt::Status s = memory.add(p.src.data(), p.src.size(), "src"); !s)
    return s;
  if (rt::Status s = memory.add(p.image.data(), p.image.size(), "image"); !s)
    return s;
  if (!p.tiles.empty())
    if (rt::Status s = memory.add(p.tiles.data(), p.tiles.size(), "tiles"); !s)
      return s;
  auto address = [](const void *ptr) { return uint64_t(reinterpret_cast<uintptr_t>(ptr)); };
  Params params = tileCopyArguments<Params>(p, address(p.src.data()), address(p.image.data()),
                                            address(p.tiles.data()));
  rt::LaunchConfig config;
  config.grid = {p.tilesM(), p.tilesN(), p.l};
  config.block = {128, 1, 1};
  config.dynamicSharedBytes = p.kernel->sharedBytes;
  config.workerThreads = workers;
  return rt::launch(p.kernel->emulation, config, &params, memory);
}

/// The kernels, each with its emulated launch.
struct TileCopyEntry {
  TileCopyKernel kernel;
  rt::Status (*emulate)(TileCopyProblem &, unsigned workers);
};

inline const std::vector<TileCopyEntry> &tileCopyKernels() {
  static const std::vector<TileCopyEntry> kernels = {
      {{"tma_copy_u8_none", 8, 16, 64, 0, true, cutec_kernel_tma_copy_u8_none,
        tma_copy_u8_none_shared_bytes},
       emulateTileCopy<tma_copy_u8_none_Params>},
      {{"tma_copy_f16_sw32", 16, 16, 16, 1, true, cutec_kernel_tma_copy_f16_sw32,
        tma_copy_f16_sw32_shared_bytes},
       emulateTileCopy<tma_copy_f16_sw32_Params>},
      {{"tma_copy_f32_sw64", 32, 32, 16, 2, true, cutec_kernel_tma_copy_f32_sw64,
        tma_copy_f32_sw64_shared_bytes},
       emulateTileCopy<tma_copy_f32_sw64_Params>},
      {{"tma_copy_f16_sw128", 16, 32, 64, 3, true, cutec_kernel_tma_copy_f16_sw128,
        tma_copy_f16_sw128_shared_bytes},
       emulateTileCopy<tma_copy_f16_sw128_Params>},
      {{"tma_copy_fp4_sw128", 4, 16, 256, 3, false, cutec_kernel_tma_copy_fp4_sw128,
        tma_copy_fp4_sw128_shared_bytes},
       emulateTileCopy<tma_copy_fp4_sw128_Params>},
      {{"tma_copy_bf16_3d_sw64", 16, 16, 32, 2, false, cutec_kernel_tma_copy_bf16_3d_sw64,
        tma_copy_bf16_3d_sw64_shared_bytes},
       emulateTileCopy<tma_copy_bf16_3d_sw64_Params>},
  };
  return kernels;
}

/// The shapes each kernel runs: whole tiles, boxes past the right and
/// bottom edges, a tensor smaller than one tile; N keeps rows a multiple of
/// 16 bytes (TMA's stride rule).
struct TileCopyShape {
  uint32_t m, n, l;
};
inline std::vector<TileCopyShape> tileCopyShapes(const TileCopyKernel &k) {
  uint32_t step = 128 / k.bits; // elements in 16 bytes
  uint32_t l = std::string_view(k.name).find("3d") != std::string_view::npos ? 3 : 1;
  return {{2 * k.rows, 3 * k.cols, l},
          {3 * k.rows + 5, 2 * k.cols + step, l},
          {k.rows / 2 + 1, step, l},
          {1, k.cols + 3 * step, l}};
}

} // namespace cutec::test

#endif
