// decodeHalfChunk against decode(), bit for bit: every f16 and bf16 code, in
// chunks of 8 consecutive codes written with and without a stride, and (on
// x86) again with denormals flushed, which the vector path must not notice.
#include "runtime/FloatFormat.h"
#include "runtime/HalfChunk.h"

#include <gtest/gtest.h>

#include <cstring>
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

/// Decodes all 2^16 codes of `format` 8 at a time and compares.
void expectEveryCodeDecoded(bool bf16, size_t stride) {
  const FloatFormat &format = bf16 ? kBF16 : kF16;
  for (uint32_t first = 0; first < (1u << 16); first += 8) {
    uint16_t codes[8];
    bool anyNaN = false;
    for (uint32_t i = 0; i < 8; ++i) {
      codes[i] = uint16_t(first + i);
      float v = decode(format, codes[i]);
      anyNaN |= v != v;
    }
    float out[8 * 3];
    ASSERT_EQ(decodeHalfChunk(bf16, reinterpret_cast<const std::byte *>(codes), out, stride),
              anyNaN)
        << format.name << " codes from " << first;
    for (uint32_t i = 0; i < 8; ++i)
      ASSERT_EQ(bitsOf(out[i * stride]), bitsOf(decode(format, codes[i])))
          << format.name << " code " << codes[i] << " stride " << stride;
  }
}

TEST(HalfChunk, EveryF16AndBf16CodeAsDecodeGivesIt) {
  for (bool bf16 : {false, true})
    for (size_t stride : {1, 3})
      expectEveryCodeDecoded(bf16, stride);
}

TEST(HalfChunk, OneNaNAmongFiniteCodes) {
  const uint16_t codes[8] = {0x3C00, 0x0001, 0x8400, 0x7E01, 0x7BFF, 0x0000, 0x8000, 0x7C00};
  float out[8];
  EXPECT_TRUE(decodeHalfChunk(false, reinterpret_cast<const std::byte *>(codes), out, 1));
  for (uint32_t i = 0; i < 8; ++i)
    EXPECT_EQ(bitsOf(out[i]), bitsOf(decode(kF16, codes[i]))) << i;
}

#if defined(__SSE__)
TEST(HalfChunk, SubnormalsSurviveDenormalFlushing) {
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved | 0x8040); // flush-to-zero and denormals-are-zero
  expectEveryCodeDecoded(false, 1);
  _mm_setcsr(saved);
}
#endif

} // namespace
} // namespace cutec::rt
