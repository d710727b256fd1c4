// f16/bf16 codes to f32 (see runtime/numerics/HalfCodes.h), 4 lanes at a time:
// vectors SSE2 has, so the baseline build vectorises it too.
#include "runtime/numerics/HalfCodes.h"

#include "runtime/numerics/FloatFormat.h"

#include <cstring>

namespace cutec::rt {
namespace {

// Signed lanes: SSE2 compares those (the codes are below 2^16 either way).
using Words [[gnu::vector_size(16)]] = int32_t;
using Floats [[gnu::vector_size(16)]] = float;

/// The f32 bit patterns of 4 codes; `nan` gets all ones in the lanes that
/// are NaN (their patterns are not meaningful).
[[gnu::always_inline]] inline Words halfBits(bool bf16, Words code, Words &nan) {
  const Words magnitude = code & 0x7FFF;
  if (bf16) { // the top half of an f32
    nan |= magnitude > 0x7F80;
    return code << 16;
  }
  nan |= magnitude > 0x7C00;
  // Subnormals are mantissa * 2^-24, converted exactly from the integer (no
  // f32 denormal is involved, so denormal flushing cannot change them);
  // normals move the exponent bias from 15 to 127; 0x7C00 is infinity.
  const Words subnormal = Words(__builtin_convertvector(magnitude, Floats) * 0x1p-24f);
  const Words bits = magnitude < 0x400 ? subnormal
                                       : (magnitude == 0x7C00 ? Words{} + 0x7F800000
                                                              : (magnitude << 13) + 0x38000000);
  return bits | (code & 0x8000) << 16;
}

} // namespace

bool decodeHalfCodes(bool bf16, const uint16_t *codes, uint32_t rows, uint32_t k, bool transposed,
                     float *out) {
  const FloatFormat &format = bf16 ? kBF16 : kF16;
  // Output element i comes from codes[source(i)]; 4 consecutive outputs at
  // a time while a group of 4 stays in one output row.
  const uint32_t outRows = transposed ? k : rows, outColumns = transposed ? rows : k;
  auto source = [&](uint32_t row, uint32_t column) {
    return transposed ? size_t(column) * k + row : size_t(row) * k + column;
  };
  bool anyNaN = false;
  for (uint32_t row = 0; row < outRows; ++row) {
    float *to = out + size_t(row) * outColumns;
    uint32_t column = 0;
    for (; column + 4 <= outColumns; column += 4) {
      const Words code = {codes[source(row, column)], codes[source(row, column + 1)],
                          codes[source(row, column + 2)], codes[source(row, column + 3)]};
      Words nan{};
      const Words bits = halfBits(bf16, code, nan);
      std::memcpy(to + column, &bits, 16);
      if ((nan[0] | nan[1] | nan[2] | nan[3]) != 0) { // rare: decode() gives the NaN
        anyNaN = true;
        for (uint32_t j = 0; j < 4; ++j)
          to[column + j] = decode(format, codes[source(row, column + j)]);
      }
    }
    for (; column < outColumns; ++column) {
      to[column] = decode(format, codes[source(row, column)]);
      anyNaN |= to[column] != to[column];
    }
  }
  return anyNaN;
}

} // namespace cutec::rt
