// f16/bf16 chunks to f32 (see runtime/HalfChunk.h), 4 lanes at a time:
// vectors SSE2 has, so the baseline build vectorises it too.
#include "runtime/HalfChunk.h"

#include "runtime/FloatFormat.h"

#include <cstring>

namespace cutec::rt {

bool decodeHalfChunk(bool bf16, const std::byte *chunk, float *out, size_t stride) {
  // Signed lanes: SSE2 compares those (the codes are below 2^16 either way).
  using Words [[gnu::vector_size(16)]] = int32_t;
  using Floats [[gnu::vector_size(16)]] = float;
  uint16_t codes[8];
  std::memcpy(codes, chunk, 16);
  Words bits[2], nan{};
  for (uint32_t h = 0; h < 2; ++h) {
    const Words code = {codes[4 * h], codes[4 * h + 1], codes[4 * h + 2], codes[4 * h + 3]};
    const Words magnitude = code & 0x7FFF;
    if (bf16) { // the top half of an f32
      bits[h] = code << 16;
      nan |= magnitude > 0x7F80;
      continue;
    }
    nan |= magnitude > 0x7C00;
    // Subnormals are mantissa * 2^-24, converted exactly from the integer
    // (no f32 denormal is involved, so denormal flushing cannot change it);
    // normals move the exponent bias from 15 to 127; 0x7C00 is infinity.
    const Words subnormal = Words(__builtin_convertvector(magnitude, Floats) * 0x1p-24f);
    bits[h] = magnitude < 0x400 ? subnormal
                                : (magnitude == 0x7C00 ? Words{} + 0x7F800000
                                                       : (magnitude << 13) + 0x38000000);
    bits[h] |= (code & 0x8000) << 16;
  }
  const bool anyNaN = (nan[0] | nan[1] | nan[2] | nan[3]) != 0;
  for (uint32_t i = 0; i < 8; ++i) {
    float value;
    if (anyNaN) { // rare: decode() per element
      value = decode(bf16 ? kBF16 : kF16, codes[i]);
    } else {
      int32_t word = bits[i / 4][i % 4];
      std::memcpy(&value, &word, 4);
    }
    out[i * stride] = value;
  }
  return anyNaN;
}

} // namespace cutec::rt
