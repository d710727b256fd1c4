// wgmma's numerics model (see runtime/WgmmaAccumulate.h). The floating-point
// kinds run the vectorised loop of runtime/MmaAccumulate.h where no NaN can
// make the result depend on an add's operand order, and one output at a time
// from the first row whose D holds a NaN on, or for every row when an
// operand does; both give the same bits otherwise.
#include "runtime/WgmmaAccumulate.h"

#include "runtime/FloatFormat.h"
#include "runtime/MmaAccumulate.h"
#include "runtime/PtxCvt.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace cutec::rt {
namespace {

constexpr uint32_t kM = 64;

float asFloat(uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

uint32_t asBits(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits;
}

void accumulateIntegers(const GatheredOperand &a, const GatheredOperand &b, uint32_t N, uint32_t K,
                        uint32_t *d, bool accumulate) {
  for (uint32_t m = 0; m < kM; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      uint32_t &cell = d[m * N + n];
      int64_t sum = accumulate ? int64_t(int32_t(cell)) : 0;
      for (uint32_t k = 0; k < K; ++k)
        sum += int64_t(a.at(m, k)) * int64_t(b.at(n, k));
      cell = uint32_t(sum); // wraps, as the instruction without .satfinite does
    }
}

} // namespace

void wgmmaAccumulate(const WgmmaShape &shape, GatheredOperand &a, GatheredOperand &b, uint32_t *d,
                     bool accumulate) {
  const uint32_t N = shape.n, K = wgmmaK(shape);
  if (shape.d == WgmmaAccumulator::S32) {
    accumulateIntegers(a, b, N, K, d, accumulate);
    return;
  }
  // Negating an operand is exact, so every product below is the signed one.
  if (shape.scaleA < 0)
    for (float &v : a.values)
      v = -v;
  if (shape.scaleB < 0)
    for (float &v : b.values)
      v = -v;
  const bool f16 = shape.d == WgmmaAccumulator::F16;
  // D as f32 bit patterns, in place unless it is f16.
  thread_local std::vector<uint32_t> f32Copy;
  uint32_t *acc = d;
  if (f16) {
    f32Copy.resize(size_t(kM) * N);
    for (size_t i = 0; i < f32Copy.size(); ++i)
      f32Copy[i] = accumulate ? asBits(decode(kF16, d[i] & 0xFFFF)) : 0u;
    acc = f32Copy.data();
  } else if (!accumulate) {
    std::fill_n(acc, size_t(kM) * N, 0u); // +0.0f
  }
  uint32_t firstScalarRow = 0;
  if (!a.hasNaN && !b.hasNaN) {
    uint32_t *rows[kM];
    for (uint32_t m = 0; m < kM; ++m)
      rows[m] = acc + size_t(m) * N;
    firstScalarRow = accumulateProducts(a.values.data(), b.values.data(), 0, kM, N, K, rows,
                                        /*stopAtNaN=*/accumulate);
  }
  for (uint32_t m = firstScalarRow; m < kM; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      float sum = asFloat(acc[m * N + n]);
      for (uint32_t k = 0; k < K; ++k)
        sum += float(double(a.at(m, k)) * double(b.at(n, k))); // the exact product, rounded
      acc[m * N + n] = asBits(sum);
    }
  if (f16)
    for (size_t i = 0; i < size_t(kM) * N; ++i)
      d[i] = ptx::cvtF16F32(asFloat(acc[i]));
}

} // namespace cutec::rt
