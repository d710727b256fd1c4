// wgmma's numerics (see runtime/tensorcore/WgmmaAccumulate.h): every element of D goes
// through runtime/numerics/WgmmaNumerics.h's wgmmaDot, the model measured on an H100.
// The gathered operands hold values; each is exact in its element format,
// so encoding it again gives its code (a NaN may come back as another NaN,
// which the model treats alike).
#include "runtime/tensorcore/WgmmaAccumulate.h"

#include "runtime/numerics/FloatFormat.h"

#include <cstring>
#include <vector>

namespace cutec::rt {
namespace {

/// The code of an element value of `element` (exact in it).
uint32_t elementCode(WgmmaElement element, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  switch (element) {
  case WgmmaElement::F16:
    return encode(kF16, value);
  case WgmmaElement::BF16:
    return bits >> 16;
  case WgmmaElement::TF32:
    return bits;
  case WgmmaElement::E4M3:
    return encode(kE4M3, value);
  case WgmmaElement::E5M2:
    return encode(kE5M2, value);
  case WgmmaElement::S8:
    return uint32_t(uint8_t(int8_t(value)));
  case WgmmaElement::U8:
    return uint32_t(value);
  }
  return 0;
}

/// The sign bit of a code of `element` (imm-scale -1 flips it; the integer
/// kinds have no imm-scale).
uint32_t signBit(WgmmaElement element) {
  switch (element) {
  case WgmmaElement::F16:
  case WgmmaElement::BF16:
    return 0x8000;
  case WgmmaElement::TF32:
    return 0x80000000u;
  default:
    return 0x80;
  }
}

/// All codes of an operand, row by row: codes[r * K + k].
std::vector<uint32_t> codesOf(const GatheredOperand &operand, WgmmaElement element, uint32_t rows,
                              uint32_t K, bool negate) {
  std::vector<uint32_t> codes(size_t(rows) * K);
  const uint32_t flip = negate ? signBit(element) : 0;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t k = 0; k < K; ++k)
      codes[size_t(r) * K + k] = elementCode(element, operand.at(r, k)) ^ flip;
  return codes;
}

} // namespace

void wgmmaDotRows(const WgmmaKind &kind, const GatheredOperand &a, const GatheredOperand &b,
                  bool negateA, bool negateB, uint32_t M, uint32_t N, uint32_t *const *dRows,
                  bool accumulate) {
  const uint32_t K = wgmmaK(kind.a);
  const std::vector<uint32_t> aCodes = codesOf(a, kind.a, M, K, negateA),
                              bCodes = codesOf(b, kind.b, N, K, negateB);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      uint32_t &cell = dRows[m][n];
      // Without scale-d (enable-input-d) the instruction starts from +0.
      uint32_t start = accumulate ? cell : 0u;
      cell = wgmmaDot(kind, &aCodes[size_t(m) * K], &bCodes[size_t(n) * K],
                      kind.d == WgmmaAccum::F16 ? start & 0xFFFF : start);
    }
}

void wgmmaAccumulate(const WgmmaShape &shape, const GatheredOperand &a, const GatheredOperand &b,
                     uint32_t *d, bool accumulate) {
  constexpr uint32_t kM = 64;
  uint32_t *rows[kM];
  for (uint32_t m = 0; m < kM; ++m)
    rows[m] = d + size_t(m) * shape.n;
  wgmmaDotRows(WgmmaKind{shape.a, shape.b, shape.d, shape.satfinite}, a, b, shape.scaleA < 0,
               shape.scaleB < 0, kM, shape.n, rows, accumulate);
}

} // namespace cutec::rt
