// f16 or bf16 codes to f32 values in bulk: what tcgen05.mma's operand
// gathering does for the 16-bit formats, with vector arithmetic instead of
// decode() per element.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cutec::rt {

/// Decodes `rows` x `k` codes (bf16 if `bf16`, else f16; row r's at
/// codes[r * k]) to f32: element (r, kk) to out[r * k + kk], or with
/// `transposed` to out[kk * rows + r]. Each value is exactly decode()'s, NaNs
/// included (decode's canonical NaN). Returns whether one is NaN.
bool decodeHalfCodes(bool bf16, const uint16_t *codes, uint32_t rows, uint32_t k, bool transposed,
                     float *out);

} // namespace cutec::rt
