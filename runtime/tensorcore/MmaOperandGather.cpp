// Shared-memory operands of the tensor-core MMAs: element values and the
// gathering of a whole operand through its descriptor (see
// runtime/tensorcore/MmaOperandGather.h).
#include "runtime/tensorcore/MmaOperandGather.h"

#include "runtime/numerics/HalfCodes.h"

namespace cutec::rt {
namespace {

/// Bits [offset, offset + bits) of a little-endian 16-byte chunk.
uint32_t extractBits(const std::byte *chunk, uint32_t offset, uint32_t bits) {
  uint64_t window = 0;
  uint32_t first = offset / 8;
  for (uint32_t b = 0; b < 8 && first + b < 16; ++b)
    window |= uint64_t(uint8_t(chunk[first + b])) << (8 * b);
  return uint32_t((window >> (offset % 8)) & ((uint64_t(1) << bits) - 1));
}

/// Element `position` of a chunk of `bits`-bit elements.
uint32_t elementCode(const std::byte *chunk, uint32_t position, uint32_t bits) {
  if (bits == 16)
    return uint32_t(uint8_t(chunk[2 * position])) | uint32_t(uint8_t(chunk[2 * position + 1])) << 8;
  if (bits == 8)
    return uint8_t(chunk[position]);
  return extractBits(chunk, position * bits, bits);
}

/// Decodes the first `count` elements of a chunk to out[0], out[step], ...;
/// returns whether one is NaN.
bool decodeChunk(const std::byte *chunk, const MmaElementFormat &f, const float *table, uint32_t count,
                 float *out, size_t step) {
  bool nan = false;
  for (uint32_t position = 0; position < count; ++position) {
    float v = mmaElementValue(f.element, table, elementCode(chunk, position, f.bits));
    nan |= v != v;
    out[position * step] = v;
  }
  return nan;
}

/// decodeChunk for 4-bit elements (K-major, so `count` is the whole even
/// chunk), a byte at a time: its low nibble is the earlier element.
bool decodeNibbles(const std::byte *chunk, const float *table, uint32_t count, float *out,
                   size_t step) {
  bool nan = false;
  for (uint32_t position = 0; position < count; position += 2) {
    const uint8_t byte = uint8_t(chunk[position / 2]);
    const float low = table[byte & 0xF], high = table[byte >> 4];
    nan |= low != low || high != high;
    out[position * step] = low;
    out[(position + 1) * step] = high;
  }
  return nan;
}

} // namespace

std::vector<float> mmaDecodeTable(const FloatFormat &format) {
  std::vector<float> table(size_t(1) << std::max(format.codeBits(), 8u));
  for (uint32_t code = 0; code < table.size(); ++code)
    table[code] = decode(format, code);
  return table;
}

const float *mmaValueTable(MmaElement e) {
  static const std::vector<float> f16 = mmaDecodeTable(kF16), bf16 = mmaDecodeTable(kBF16),
                                  e4m3 = mmaDecodeTable(kE4M3), e5m2 = mmaDecodeTable(kE5M2),
                                  e2m3 = mmaDecodeTable(kE2M3), e3m2 = mmaDecodeTable(kE3M2),
                                  e2m1 = mmaDecodeTable(kE2M1);
  switch (e) {
  case MmaElement::F16:
    return f16.data();
  case MmaElement::BF16:
    return bf16.data();
  case MmaElement::E4M3:
    return e4m3.data();
  case MmaElement::E5M2:
    return e5m2.data();
  case MmaElement::E2M3:
    return e2m3.data();
  case MmaElement::E3M2:
    return e3m2.data();
  case MmaElement::E2M1:
    return e2m1.data();
  default:
    return nullptr;
  }
}

/// The value of one element code (below 2^bits); every format's values are
/// f32 values. `table` is mmaValueTable(e).
float mmaElementValue(MmaElement e, const float *table, uint32_t code) {
  if (table)
    return table[code];
  switch (e) {
  case MmaElement::TF32: {
    // The tensor core reads the top 19 bits of the 32-bit container.
    uint32_t bits = code & 0xFFFFE000u;
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }
  case MmaElement::U8:
    return float(code & 0xFF);
  case MmaElement::S8:
    return float(int8_t(uint8_t(code)));
  default:
    return 0;
  }
}

MmaProblem gatherSharedOperand(const SharedView &shared, const SmemMatrixDescriptor &d,
                               bool mnMajor, const MmaElementFormat &f, uint32_t rows, uint32_t k,
                               bool transposed, const char *name, GatheredOperand &operand) {
  std::vector<float> &values = operand.values;
  values.assign(size_t(rows) * k, 0.0f);
  operand.rowStride = transposed ? 1 : k;
  operand.kStride = transposed ? rows : 1;
  const uint32_t rowStride = operand.rowStride, kStride = operand.kStride;
  std::byte chunk[16];
  // K-major: chunk (r, c) holds elements (r, c*perChunk + i). MN-major: chunk
  // (group g, k) holds elements (g*perChunk + i, k); in (r, k) order, the
  // rows of one group all read the same chunks, first with its first row.
  const uint32_t outer = mnMajor ? (rows + f.perChunk - 1) / f.perChunk : rows;
  const uint32_t inner = mnMajor ? k : k / f.perChunk;
  // 16-bit K-major operands (the common case): the chunks' codes are
  // collected in (r, k) order and decoded together at the end.
  const bool halfCodes = f.bits == 16 && !mnMajor;
  const float *table = mmaValueTable(f.element);
  thread_local std::vector<uint16_t> codes;
  codes.resize(halfCodes ? size_t(rows) * k : 0);
  for (uint32_t o = 0; o < outer; ++o)
    for (uint32_t i = 0; i < inner; ++i) {
      uint32_t r = mnMajor ? o * f.perChunk : o, kk = mnMajor ? i : i * f.perChunk;
      auto role = [&] {
        return std::string(name) + " (" + describeSmemDescriptor(d) + ") element (" +
               std::to_string(r) + ", k=" + std::to_string(kk) + ")";
      };
      uint32_t address =
          mnMajor ? ummaChunkAddress(d, true, kk, o) : ummaChunkAddress(d, false, r, i);
      if (MmaProblem p = readSharedChunk(shared, address, chunk, role))
        return p;
      if (halfCodes) {
        std::memcpy(&codes[size_t(r) * k + kk], chunk, 16);
        continue;
      }
      // The chunk's elements go to `first`, `first + step`, ...
      float *first = &values[size_t(r) * rowStride + size_t(kk) * kStride];
      const size_t step = mnMajor ? rowStride : kStride;
      const uint32_t count = mnMajor ? std::min(f.perChunk, rows - r) : f.perChunk;
      operand.hasNaN |= f.bits == 4 ? decodeNibbles(chunk, table, count, first, step)
                                    : decodeChunk(chunk, f, table, count, first, step);
    }
  if (halfCodes)
    operand.hasNaN = decodeHalfCodes(f.element == MmaElement::BF16, codes.data(), rows, k, transposed,
                                     values.data());
  return {};
}

} // namespace cutec::rt
