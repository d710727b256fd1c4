// The 8 f16 or bf16 codes of a 16-byte shared-memory chunk as f32 values:
// what tcgen05.mma's operand gathering does for the 16-bit formats, with
// vector arithmetic instead of decode() per element.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cutec::rt {

/// Writes the values of the 8 little-endian 16-bit codes at `chunk` (bf16
/// if `bf16`, else f16) to out[i * stride], each exactly decode()'s value,
/// NaNs included (decode's canonical NaN); returns whether one is NaN.
bool decodeHalfChunk(bool bf16, const std::byte *chunk, float *out, size_t stride);

} // namespace cutec::rt
