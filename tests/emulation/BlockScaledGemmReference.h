// Block-scaled GEMM problems (NVFP4, MXFP8, MXFP4) and an independent
// reference: C = (A * SFA) (B * SFB)^T, each element decoded with the
// reference tables of tests/runtime/MinifloatReference.h, its scale factor
// found by the global layout of seed 001 written out by hand (512-byte atoms
// of 128 rows x 4 factors, K atoms inner), products formed exactly, summed in
// K order in f32 and rounded to f16. The emitted kernels' launch sequence is
// here too (their interface: mA, mB, mSFA, mSFB, mC and the sizes).
#ifndef CUTEC_TESTS_EMULATION_BLOCKSCALEDGEMMREFERENCE_H
#define CUTEC_TESTS_EMULATION_BLOCKSCALEDGEMMREFERENCE_H

#include "GemmEmulated.h"

#include "../runtime/MinifloatReference.h"

#include <cstring>
#include <memory>
#include <new>
#include <random>
#include <vector>

namespace cutec::test {

/// What the operands and their scale factors are.
struct ScaledFormat {
  const rt::test::RefFormat &element; // e2m1 (packed two per byte) or an 8-bit format
  const rt::test::RefFormat &scale;   // ue4m3 or ue8m0
  uint32_t vec;                       // K elements per scale factor
};

inline const ScaledFormat kNvfp4{rt::test::kRefE2M1, rt::test::kRefUE4M3, 16};
inline const ScaledFormat kMxfp4{rt::test::kRefE2M1, rt::test::kRefUE8M0, 32};
inline const ScaledFormat kMxfp8{rt::test::kRefE4M3, rt::test::kRefUE8M0, 32};

struct ScaledGemmProblem {
  uint32_t m, n, k;
  const ScaledFormat *format;
  std::vector<uint8_t> a, b, sfa, sfb; // memory images
};

/// The byte of the factor of (row, k) in an operand of K extent `ks`.
inline size_t sfOffset(uint32_t row, uint32_t k, uint32_t ks, uint32_t vec) {
  size_t kAtoms = ks / (4 * vec);
  return ((row / 128) * kAtoms + k / (4 * vec)) * 512 + (row % 32) * 16 + (row / 32 % 4) * 4 +
         k / vec % 4;
}

/// The code of element i of an operand image.
inline uint32_t elementCode(const ScaledGemmProblem &p, const std::vector<uint8_t> &image,
                            size_t i) {
  if (p.format->element.bits == 4)
    return (image[i / 2] >> (4 * (i % 2))) & 15;
  return image[i];
}

/// Inputs drawn as in the GPU MODE competition (the GEMV tests' draw): e2m1
/// magnitudes 0 to 1.5 (codes 0..3), ue4m3 scales 1, 2, 3, 4, 6, 8, here
/// with random signs so that long K sums stay inside f16; e4m3 magnitudes
/// 0.25 to 3.75; ue8m0 scales 1/4 to 2.
inline ScaledGemmProblem makeScaledGemmProblem(uint32_t m, uint32_t n, uint32_t k,
                                               const ScaledFormat &format, unsigned seed) {
  ScaledGemmProblem p{m, n, k, &format, {}, {}, {}, {}};
  std::mt19937 rng(seed);
  bool fp4 = format.element.bits == 4;
  auto element = [&]() -> uint32_t {
    if (fp4)
      return (rng() % 4) | (rng() % 2) << 3;
    return (5 + rng() % 4) << 3 | (rng() % 8) | (rng() % 2) << 7;
  };
  auto operand = [&](size_t count) {
    std::vector<uint8_t> image(fp4 ? count / 2 : count, 0);
    for (size_t i = 0; i < count; ++i)
      image[fp4 ? i / 2 : i] |= uint8_t(element() << (fp4 ? 4 * (i % 2) : 0));
    return image;
  };
  const uint8_t ue4m3[] = {0x38, 0x40, 0x44, 0x48, 0x4C, 0x50};
  auto scales = [&](size_t count) {
    std::vector<uint8_t> image(count);
    for (uint8_t &byte : image)
      byte = format.scale.bits == 8 ? uint8_t(125 + rng() % 4) : ue4m3[rng() % 6];
    return image;
  };
  p.a = operand(size_t(m) * k);
  p.b = operand(size_t(n) * k);
  // The factors come in whole 128-row atoms (the rows past M or N unused).
  auto atomRows = [](uint32_t rows) { return size_t(rows + 127) / 128 * 128; };
  p.sfa = scales(atomRows(m) * k / format.vec);
  p.sfb = scales(atomRows(n) * k / format.vec);
  return p;
}

/// Operand A (`b` false, M x K) or B (N x K), row-major, each element times
/// its scale factor (exact in f32 for the formats drawn here).
inline std::vector<float> dequantise(const ScaledGemmProblem &p, bool b) {
  using rt::test::refValue;
  const ScaledFormat &f = *p.format;
  uint32_t rows = b ? p.n : p.m;
  const std::vector<uint8_t> &codes = b ? p.b : p.a, &scales = b ? p.sfb : p.sfa;
  std::vector<float> values(size_t(rows) * p.k);
  for (uint32_t row = 0; row < rows; ++row)
    for (uint32_t k = 0; k < p.k; ++k)
      values[size_t(row) * p.k + k] =
          float(refValue(f.element, elementCode(p, codes, size_t(row) * p.k + k)) *
                refValue(f.scale, scales[sfOffset(row, k, p.k, f.vec)]));
  return values;
}

/// C (M, N) row-major as f16 bits.
inline std::vector<uint16_t> referenceScaledGemm(const ScaledGemmProblem &p) {
  std::vector<float> a = dequantise(p, false), b = dequantise(p, true);
  std::vector<uint16_t> c(size_t(p.m) * p.n);
  for (uint32_t i = 0; i < p.m; ++i)
    for (uint32_t j = 0; j < p.n; ++j) {
      float acc = 0;
      for (uint32_t k = 0; k < p.k; ++k) // exact products, f32 sums in K order
        acc += float(double(a[size_t(i) * p.k + k]) * double(b[size_t(j) * p.k + k]));
      _Float16 h = static_cast<_Float16>(acc);
      std::memcpy(&c[size_t(i) * p.n + j], &h, 2);
    }
  return c;
}

/// Launches an emitted block-scaled GEMM (parameters mA, mB, mSFA, mSFB,
/// mC, M, N, K) on `p`, writing C's f16 bits to `c` (M*N elements). C is
/// staged in a buffer aligned as cudaMalloc aligns (256 bytes), which the
/// examples' aligned(mC, 32) assumption asks for.
template <typename Params>
rt::Status runEmulatedScaledGemm(const rt::KernelDescriptor &kernel, rt::Dim3 grid,
                                 rt::Dim3 block, uint32_t sharedBytes,
                                 const ScaledGemmProblem &p, std::vector<uint16_t> &c,
                                 unsigned workers = 0) {
  constexpr std::align_val_t kAlignment{256};
  size_t cBytes = c.size() * 2;
  std::unique_ptr<uint8_t[], void (*)(uint8_t *)> staged(
      static_cast<uint8_t *>(::operator new[](cBytes, kAlignment)),
      [](uint8_t *bytes) { ::operator delete[](bytes, kAlignment); });
  std::memcpy(staged.get(), c.data(), cBytes);
  Params params{};
  params.mA = reinterpret_cast<uintptr_t>(p.a.data());
  params.mB = reinterpret_cast<uintptr_t>(p.b.data());
  params.mSFA = reinterpret_cast<uintptr_t>(p.sfa.data());
  params.mSFB = reinterpret_cast<uintptr_t>(p.sfb.data());
  params.mC = reinterpret_cast<uintptr_t>(staged.get());
  params.M = p.m;
  params.N = p.n;
  params.K = p.k;
  rt::Status status = launchEmulated(kernel, grid, block, sharedBytes, params,
                                     {{p.a.data(), p.a.size(), "mA"},
                                      {p.b.data(), p.b.size(), "mB"},
                                      {p.sfa.data(), p.sfa.size(), "mSFA"},
                                      {p.sfb.data(), p.sfb.size(), "mSFB"},
                                      {staged.get(), cBytes, "mC"}},
                                     workers);
  std::memcpy(c.data(), staged.get(), cBytes);
  return status;
}

} // namespace cutec::test

#endif
