// wgmma.mma_async on the emulator's shared memory and the warpgroup's
// registers (see runtime/tensorcore/WgmmaMma.h).
#include "runtime/tensorcore/WgmmaMma.h"

#include "runtime/tensorcore/GmmaDescriptor.h"
#include "runtime/tensorcore/WgmmaAccumulate.h"

#include <vector>

namespace cutec::rt {
namespace {

/// The gatherer's element format of a wgmma element type.
MmaElementFormat elementFormat(WgmmaElement t) {
  MmaElement element = MmaElement::F16;
  switch (t) {
  case WgmmaElement::F16:
    element = MmaElement::F16;
    break;
  case WgmmaElement::BF16:
    element = MmaElement::BF16;
    break;
  case WgmmaElement::TF32:
    element = MmaElement::TF32;
    break;
  case WgmmaElement::E4M3:
    element = MmaElement::E4M3;
    break;
  case WgmmaElement::E5M2:
    element = MmaElement::E5M2;
    break;
  case WgmmaElement::S8:
    element = MmaElement::S8;
    break;
  case WgmmaElement::U8:
    element = MmaElement::U8;
    break;
  }
  const uint32_t bits = 8 * wgmmaElementBytes(t);
  return {element, bits, 128 / bits, wgmmaElementName(t)};
}

MmaProblem gather(const SharedView &shared, uint64_t desc, bool mnMajor, WgmmaElement type,
                  uint32_t rows, uint32_t k, bool transposed, const char *name,
                  GatheredOperand &out) {
  std::string bad = checkGmmaDescriptor(desc);
  if (!bad.empty())
    return {"the matrix descriptor of " + std::string(name) + " (" + hex(desc) +
            ") is not valid: " + bad};
  return gatherSharedOperand(shared, decodeGmmaDescriptor(desc), mnMajor, elementFormat(type),
                             rows, k, transposed, name, out);
}

/// A (64 x K) from the warpgroup's registers: `a[t]` holds thread t's.
void gatherRegisterA(const WgmmaShape &shape, const uint32_t *const *a, GatheredOperand &out) {
  const MmaElementFormat f = elementFormat(shape.a);
  const float *table = mmaValueTable(f.element);
  const uint32_t K = wgmmaK(shape), perRegister = 32 / f.bits;
  const uint32_t mask = f.bits == 32 ? ~0u : (1u << f.bits) - 1;
  out.values.assign(size_t(64) * K, 0.0f);
  out.rowStride = K;
  out.kStride = 1;
  out.hasNaN = false;
  for (uint32_t t = 0; t < kWarpgroupThreads; ++t)
    for (uint32_t r = 0; r < kWgmmaARegisters; ++r)
      for (uint32_t e = 0; e < perRegister; ++e) {
        const WgmmaPosition p = wgmmaRegisterAPosition(t, r, e, perRegister);
        const float v = mmaElementValue(f.element, table, a[t][r] >> (e * f.bits) & mask);
        out.hasNaN |= v != v;
        out.values[size_t(p.row) * K + p.column] = v;
      }
}

/// Calls `visit(element, registerIndex, high)` for each of thread t's
/// elements: f32/s32 elements fill a register, f16 ones half of one.
template <typename Visit> void forEachElement(const WgmmaShape &shape, Visit &&visit) {
  const bool f16 = shape.d == WgmmaAccum::F16;
  for (uint32_t e = 0; e < shape.n / 2; ++e)
    visit(e, f16 ? e / 2 : e, f16 && e % 2);
}

} // namespace

MmaProblem executeWgmma(const WgmmaShape &shape, uint64_t aDesc, uint64_t bDesc, bool scaleD,
                        const SharedView &shared, uint32_t *const *d,
                        const uint32_t *const *a) {
  std::string bad = checkWgmmaShape(shape);
  if (!bad.empty())
    return {"wgmma.mma_async." + wgmmaShapeText(shape) + ": " + bad};
  const uint32_t N = shape.n, K = wgmmaK(shape), M = 64;
  thread_local GatheredOperand ga, gb;
  if (shape.aInRegisters)
    gatherRegisterA(shape, a, ga);
  else if (MmaProblem p = gather(shared, aDesc, shape.transposeA, shape.a, M, K, false, "A", ga))
    return p;
  if (MmaProblem p = gather(shared, bDesc, shape.transposeB, shape.b, N, K, true, "B", gb))
    return p;
  // D, row-major, from the fragments of the 128 threads.
  thread_local std::vector<uint32_t> matrix;
  matrix.assign(size_t(M) * N, 0);
  if (scaleD)
    for (uint32_t t = 0; t < kWarpgroupThreads; ++t)
      forEachElement(shape, [&](uint32_t e, uint32_t r, bool high) {
        WgmmaPosition p = wgmmaAccumulatorPosition(t, e);
        matrix[p.row * N + p.column] = high ? d[t][r] >> 16 : (shape.d == WgmmaAccum::F16
                                                                   ? d[t][r] & 0xFFFF
                                                                   : d[t][r]);
      });
  wgmmaAccumulate(shape, ga, gb, matrix.data(), scaleD);
  for (uint32_t t = 0; t < kWarpgroupThreads; ++t) {
    if (shape.d == WgmmaAccum::F16) // both halves are written below
      std::fill_n(d[t], wgmmaAccumulatorRegisters(shape), 0u);
    forEachElement(shape, [&](uint32_t e, uint32_t r, bool high) {
      WgmmaPosition p = wgmmaAccumulatorPosition(t, e);
      uint32_t value = matrix[p.row * N + p.column];
      if (shape.d != WgmmaAccum::F16)
        d[t][r] = value;
      else
        d[t][r] |= (value & 0xFFFF) << (high ? 16 : 0);
    });
  }
  return {};
}

} // namespace cutec::rt
