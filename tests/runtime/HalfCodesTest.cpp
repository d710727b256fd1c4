// decodeHalfCodes against decode(), bit for bit: every f16 and bf16 code, as
// 64 x 16 blocks decoded in place and transposed, a shape whose rows do not
// fill whole vectors, and (on x86) every f16 code again with denormals
// flushed, which the vector arithmetic must not notice.
#include "runtime/numerics/HalfCodes.h"
#include "runtime/numerics/FloatFormat.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace cutec::rt {
namespace {

uint32_t bitsOf(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits;
}

/// Decodes `rows` x `k` blocks of consecutive codes from `first` on, up to
/// 2^16 codes, and compares each value and the NaN flag with decode().
void expectDecoded(bool bf16, uint32_t rows, uint32_t k, bool transposed) {
  const FloatFormat &format = bf16 ? kBF16 : kF16;
  const uint32_t block = rows * k;
  std::vector<uint16_t> codes(block);
  std::vector<float> out(block);
  for (uint32_t first = 0; first + block <= (1u << 16); first += block) {
    bool anyNaN = false;
    for (uint32_t i = 0; i < block; ++i) {
      codes[i] = uint16_t(first + i);
      float v = decode(format, codes[i]);
      anyNaN |= v != v;
    }
    ASSERT_EQ(decodeHalfCodes(bf16, codes.data(), rows, k, transposed, out.data()), anyNaN)
        << format.name << " codes from " << first;
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t kk = 0; kk < k; ++kk) {
        uint16_t code = codes[r * k + kk];
        float got = out[transposed ? kk * rows + r : r * k + kk];
        ASSERT_EQ(bitsOf(got), bitsOf(decode(format, code)))
            << format.name << " code " << code << (transposed ? " transposed" : "");
      }
  }
}

TEST(HalfCodes, EveryF16AndBf16CodeAsDecodeGivesIt) {
  for (bool bf16 : {false, true})
    for (bool transposed : {false, true})
      expectDecoded(bf16, 64, 16, transposed);
}

TEST(HalfCodes, RowsThatDoNotFillWholeVectors) {
  for (bool transposed : {false, true})
    expectDecoded(false, 6, 7, transposed);
}

#if defined(__SSE__)
TEST(HalfCodes, SubnormalsSurviveDenormalFlushing) {
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved | 0x8040); // flush-to-zero and denormals-are-zero
  expectDecoded(false, 64, 16, false);
  _mm_setcsr(saved);
}
#endif

} // namespace
} // namespace cutec::rt
