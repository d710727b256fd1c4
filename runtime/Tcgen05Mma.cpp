// tcgen05.mma: operand formats per kind, operands gathered through the
// shared-memory descriptors, scale factors read from TMEM where the hardware
// reads them, and the products summed into D (see runtime/Tcgen05Mma.h).
//
// Scale factors (PTX ISA "Scale factor A/B layout" figures; seed 001): for
// M = 128, row m of A takes its scale factors from TMEM lane m, column
// sfa + m/32, bytes sfaId .. sfaId + V-1 (V = 1, 2, 4 for scale_vec 1X, 2X,
// 4X; byte j scales K elements [j*K/V, (j+1)*K/V)). Column n of B takes its
// scale factors, for the rows of lane quarter q, from lane 32q + n%32,
// column sfb + n/32, bytes sfbId .. sfbId + V-1. A 512-byte scale-factor tile
// copied with tcgen05.cp 32x128b.warpx4 puts exactly these bytes in every
// quarter; a kernel that fills only one quarter gets wrong numbers for the
// others, as it would on the GPU.
#include "runtime/Tcgen05Mma.h"

#include "runtime/DiagnosticText.h"
#include "runtime/FloatFormat.h"
#include "runtime/HalfCodes.h"
#include "runtime/MmaAccumulate.h"
#include "runtime/PtxCvt.h"
#include "runtime/ScaledOperands.h"
#include "runtime/Thread.h"
#include "runtime/UmmaDescriptors.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <vector>

namespace cutec::rt {
namespace {

enum class Element : uint8_t { F16, BF16, TF32, E4M3, E5M2, E2M3, E3M2, E2M1, U8, S8 };

struct ElementFormat {
  Element element;
  uint32_t bits;     // bits of one element's code
  uint32_t perChunk; // elements per 16-byte chunk
  const char *name;
};

/// The operand format that `code` (idesc bits 7-9 or 10-12) names for
/// `kind`; false if none.
bool operandFormat(Tcgen05Kind kind, uint32_t code, ElementFormat &f) {
  switch (kind) {
  case Tcgen05Kind::F16:
    if (code == 0)
      f = {Element::F16, 16, 8, "f16"};
    else if (code == 1)
      f = {Element::BF16, 16, 8, "bf16"};
    else
      return false;
    return true;
  case Tcgen05Kind::Tf32:
    if (code != 2)
      return false;
    f = {Element::TF32, 32, 4, "tf32"};
    return true;
  case Tcgen05Kind::I8:
    if (code == 0)
      f = {Element::U8, 8, 16, "u8"};
    else if (code == 1)
      f = {Element::S8, 8, 16, "s8"};
    else
      return false;
    return true;
  case Tcgen05Kind::F8f6f4:
  case Tcgen05Kind::Mxf8f6f4:
    // Sub-byte elements are unpacked in shared memory: each 16-byte chunk
    // holds 16 elements, packed from its first byte (fp6: 12 bytes, fp4: 8
    // bytes), the rest padding (TMA's 16U6_ALIGN16B / 16U4_ALIGN16B).
    switch (code) {
    case 0:
      f = {Element::E4M3, 8, 16, "e4m3"};
      return true;
    case 1:
      f = {Element::E5M2, 8, 16, "e5m2"};
      return true;
    case 3:
      f = {Element::E2M3, 6, 16, "e2m3"};
      return true;
    case 4:
      f = {Element::E3M2, 6, 16, "e3m2"};
      return true;
    case 5:
      f = {Element::E2M1, 4, 16, "e2m1"};
      return true;
    default:
      return false;
    }
  case Tcgen05Kind::Mxf4:
  case Tcgen05Kind::Mxf4nvf4:
    if (code != 1)
      return false;
    f = {Element::E2M1, 4, 32, "e2m1 (packed)"};
    return true;
  }
  return false;
}

const char *kindName(Tcgen05Kind kind) {
  switch (kind) {
  case Tcgen05Kind::F16:
    return "kind::f16";
  case Tcgen05Kind::Tf32:
    return "kind::tf32";
  case Tcgen05Kind::F8f6f4:
    return "kind::f8f6f4";
  case Tcgen05Kind::I8:
    return "kind::i8";
  case Tcgen05Kind::Mxf8f6f4:
    return "kind::mxf8f6f4";
  case Tcgen05Kind::Mxf4:
    return "kind::mxf4";
  case Tcgen05Kind::Mxf4nvf4:
    return "kind::mxf4nvf4";
  }
  return "kind::?";
}

/// decode() of every code of `format` (and of every byte, for the formats
/// narrower than 8 bits a byte may hold), made once: an MMA decodes
/// thousands of elements.
std::vector<float> decodeTable(const FloatFormat &format) {
  std::vector<float> table(size_t(1) << std::max(format.codeBits(), 8u));
  for (uint32_t code = 0; code < table.size(); ++code)
    table[code] = decode(format, code);
  return table;
}

/// The values of all codes of a floating-point element format; null for
/// the integer ones and tf32.
const float *valueTable(Element e) {
  static const std::vector<float> f16 = decodeTable(kF16), bf16 = decodeTable(kBF16),
                                  e4m3 = decodeTable(kE4M3), e5m2 = decodeTable(kE5M2),
                                  e2m3 = decodeTable(kE2M3), e3m2 = decodeTable(kE3M2),
                                  e2m1 = decodeTable(kE2M1);
  switch (e) {
  case Element::F16:
    return f16.data();
  case Element::BF16:
    return bf16.data();
  case Element::E4M3:
    return e4m3.data();
  case Element::E5M2:
    return e5m2.data();
  case Element::E2M3:
    return e2m3.data();
  case Element::E3M2:
    return e3m2.data();
  case Element::E2M1:
    return e2m1.data();
  default:
    return nullptr;
  }
}

/// The value of one element code (below 2^bits); every format's values are
/// f32 values. `table` is valueTable(e).
float elementValue(Element e, const float *table, uint32_t code) {
  if (table)
    return table[code];
  switch (e) {
  case Element::TF32: {
    // The tensor core reads the top 19 bits of the 32-bit container.
    uint32_t bits = code & 0xFFFFE000u;
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }
  case Element::U8:
    return float(code & 0xFF);
  case Element::S8:
    return float(int8_t(uint8_t(code)));
  default:
    return 0;
  }
}

/// The values of every scale-factor byte (ue8m0 or ue4m3, whose bit 7 is
/// ignored).
const float *scaleFactorValues(bool ue8m0) {
  static const std::vector<float> ue8m0Values = decodeTable(kUE8M0),
                                  ue4m3Values = decodeTable(kUE4M3);
  return ue8m0 ? ue8m0Values.data() : ue4m3Values.data();
}

/// f32ExactFactors for a block-scaled element format (one with a value
/// table of 256 entries: codes, or bytes holding them) and factor format,
/// made once for all of them.
const std::array<bool, 256> &f32ExactFactorsOf(Element e, bool ue8m0) {
  constexpr uint32_t kElements = uint32_t(Element::S8) + 1;
  static const auto tables = [] {
    std::array<std::array<bool, 256>, 2 * kElements> t{};
    for (Element f : {Element::E4M3, Element::E5M2, Element::E2M3, Element::E3M2, Element::E2M1})
      for (bool scaleUe8m0 : {false, true})
        t[2 * uint32_t(f) + scaleUe8m0] =
            f32ExactFactors(valueTable(f), 256, scaleFactorValues(scaleUe8m0));
    return t;
  }();
  return tables[2 * uint32_t(e) + ue8m0];
}

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
bool decodeChunk(const std::byte *chunk, const ElementFormat &f, const float *table, uint32_t count,
                 float *out, size_t step) {
  bool nan = false;
  for (uint32_t position = 0; position < count; ++position) {
    float v = elementValue(f.element, table, elementCode(chunk, position, f.bits));
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

/// Reads the 16 bytes at shared window address `address` into `out`, or
/// says why it cannot (outside the window, or a TMA load still writes them);
/// `role()` names what the bytes are, and is called only on a problem.
template <typename Role>
Tcgen05Problem readSharedChunk(const SharedView &shared, uint32_t address, std::byte *out,
                               Role &&role) {
  uint32_t offset = address - kSharedWindowBase;
  if (address < kSharedWindowBase || shared.size < 16 || offset > shared.size - 16)
    return {role() + " lies at shared address " + hex(address) +
            ", outside the CTA's shared memory [" + hex(kSharedWindowBase) + ", " +
            hex(kSharedWindowBase + shared.size) + ")"};
  if (shared.pendingOwner)
    for (uint32_t unit = offset / 16; unit <= (offset + 15) / 16; ++unit)
      if (uint32_t owner = shared.pendingOwner[unit]) {
        uint32_t first = std::max(offset, 16 * unit); // the first byte it writes
        Tcgen05Problem p{role() + " at shared address " + hex(kSharedWindowBase + first) +
                         " is still being written by the "};
        p.pendingCopy = owner;
        return p;
      }
  std::memcpy(out, shared.bytes + offset, 16);
  if (shared.unitsRead && (shared.unitsRead->empty() || shared.unitsRead->back() != offset))
    shared.unitsRead->push_back(offset);
  return {};
}

/// One operand (A: rows = M, B: rows = N), K elements per row, decoded, and
/// whether any is NaN. Element (r, k) is values[r*K + k], or values[k*rows +
/// r] when `transposed` (B, as the vectorised loop reads it).
struct Operand {
  std::vector<float> values;
  uint32_t rowStride = 0, kStride = 0;
  bool hasNaN = false;
  float at(uint32_t r, uint32_t k) const {
    return values[size_t(r) * rowStride + size_t(k) * kStride];
  }
};

/// Gathers an operand through its descriptor, reading each 16-byte chunk once
/// and decoding all its elements. Chunks are visited in the order the
/// elements (r, k) are, so the first problem found names the same element
/// an element-by-element walk would: the first of its chunk.
Tcgen05Problem gatherOperand(const SharedView &shared, uint64_t descBits, bool mnMajor,
                             const ElementFormat &f, uint32_t rows, uint32_t k, bool transposed,
                             const char *name, Operand &operand) {
  SmemMatrixDescriptor d = decodeSmemDescriptor(descBits);
  std::string bad = checkSmemDescriptor(d);
  if (!bad.empty())
    return {"the shared memory descriptor of " + std::string(name) + " (" + hex(descBits) +
            ") is not valid: " + bad};
  if (mnMajor && f.bits < 8)
    return {std::string(name) + " is MN-major with " + f.name +
            " elements; MN-major operands must be 8-bit, 16-bit or tf32"};
  if (!mnMajor && UmmaLayout(d.layoutCode) == UmmaLayout::B128Base32B)
    return {std::string(name) +
            " is K-major with the 128B_BASE32B layout, which only MN-major operands have"};
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
  const float *table = valueTable(f.element);
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
      if (Tcgen05Problem p = readSharedChunk(shared, address, chunk, role))
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
    operand.hasNaN = decodeHalfCodes(f.element == Element::BF16, codes.data(), rows, k, transposed,
                                     values.data());
  return {};
}

/// A (M = 128) from tensor memory at `address`: row m in lane m, K-major,
/// 32 bits of K per column, elements packed from each cell's low bits (as
/// CUTLASS's tmem_frg<T, T> keeps an MMA's A), so one instruction reads
/// 256 / 32 = 8 columns.
Tcgen05Problem gatherTmemOperand(TensorMemory &tmem, uint32_t address, const ElementFormat &f,
                                 uint32_t rows, uint32_t k, Operand &operand) {
  const uint32_t lane = address >> 16, column = address & 0xFFFF;
  if (f.bits * f.perChunk != 128)
    return {"A from tensor memory with " + std::string(f.name) +
            " elements (in padded byte containers) is not modelled"};
  if (lane != 0)
    return {"the A address " + hex(address) + " (lane " + std::to_string(lane) +
            ") must start at lane 0: A's M=128 rows take all 128 lanes"};
  const uint32_t perCell = 32 / f.bits, columns = k / perCell;
  std::string bad = tmem.checkColumns(column, columns, "A");
  if (!bad.empty())
    return {bad};
  operand.values.assign(size_t(rows) * k, 0.0f);
  operand.rowStride = k;
  operand.kStride = 1;
  const uint32_t mask = f.bits == 32 ? ~0u : (1u << f.bits) - 1;
  const float *table = valueTable(f.element);
  for (uint32_t m = 0; m < rows; ++m)
    for (uint32_t c = 0; c < columns; ++c) {
      uint32_t cell = tmem.cell(m, column + c);
      for (uint32_t e = 0; e < perCell; ++e) {
        float v = elementValue(f.element, table, (cell >> (e * f.bits)) & mask);
        operand.hasNaN |= v != v;
        operand.values[size_t(m) * k + c * perCell + e] = v;
      }
    }
  return {};
}

uint8_t sfByte(TensorMemory &tmem, uint32_t lane, uint32_t column, uint32_t byte) {
  return uint8_t(tmem.cell(lane, column) >> (8 * byte));
}

std::string tmemText(uint32_t address) {
  return hex(address) + " (lane " + std::to_string(address >> 16) + ", column " +
         std::to_string(address & 0xFFFF) + ")";
}

/// The checks of a scale-factor operand's address; "" if fine.
std::string checkSfAddress(const TensorMemory &tmem, uint32_t address, uint32_t columns,
                           const char *name) {
  // Bits 30-31 may carry the SF id (CUTLASS keeps the byte index there); the
  // lane bits below them must be 0: the tile starts at lane 0.
  if ((address >> 16) & 0x3FFF)
    return std::string(name) + " address " + tmemText(address) +
           " does not start at lane 0; scale factors occupy all 128 lanes";
  return tmem.checkColumns(address & 0xFFFF, columns, std::string("the scale factors ") + name);
}

} // namespace

Tcgen05Problem executeTcgen05Mma(const MmaOperands &op, const SharedView &shared,
                                 TensorMemory &tmem, TmemRegion &written) {
  MmaInstrDescriptor d = decodeInstrDescriptor(op.idesc, op.blockScaled);
  const std::string idescText = describeInstrDescriptor(op.idesc, op.blockScaled);
  auto problem = [&](const std::string &why) {
    return Tcgen05Problem{std::string(kindName(op.kind)) + " with " + idescText + ": " + why};
  };
  bool scaledKind = op.kind == Tcgen05Kind::Mxf8f6f4 || op.kind == Tcgen05Kind::Mxf4 ||
                    op.kind == Tcgen05Kind::Mxf4nvf4;
  if (scaledKind != op.blockScaled)
    return problem(op.blockScaled ? "this kind has no .block_scale form"
                                  : "this kind exists only with .block_scale");
  if (d.reservedBits)
    return problem("reserved bits are set (" + hex(d.reservedBits) + ")");
  if (d.sparse)
    return problem("sparse MMA (bit 2) is not modelled");
  if (d.maxShift)
    return problem("a max shift (bits 30-31) is only valid for tcgen05.mma.ws");
  if (d.kSize)
    return problem("the K-size bit (31) selects K=96, which is not modelled");
  if (d.m != 128 && !(d.m == 64 && !op.blockScaled))
    return problem("M=" + std::to_string(d.m) + " is not valid with cta_group::1" +
                   (op.blockScaled ? " for block-scaled kinds (M=128 is)" : " (M=64 and 128 are)"));
  if (d.n < 8 || d.n > 256 || d.n % 8)
    return problem("N=" + std::to_string(d.n) + " is outside 8..256 in steps of 8");

  ElementFormat fa, fb;
  if (!operandFormat(op.kind, d.aFormat, fa))
    return problem("A format code " + std::to_string(d.aFormat) + " is not valid for this kind");
  if (!operandFormat(op.kind, d.bFormat, fb))
    return problem("B format code " + std::to_string(d.bFormat) + " is not valid for this kind");
  if ((op.kind == Tcgen05Kind::F16) && fa.element != fb.element)
    return problem("A and B must have the same format (" + std::string(fa.name) + " vs " + fb.name +
                   ")");
  bool integer = op.kind == Tcgen05Kind::I8;
  // D: 0 f16, 1 f32, 2 s32.
  if (integer ? d.dFormat != 2
              : (d.dFormat != 1 && !(d.dFormat == 0 && (op.kind == Tcgen05Kind::F16 ||
                                                        op.kind == Tcgen05Kind::F8f6f4))))
    return problem("D format code " + std::to_string(d.dFormat) + " is not valid for this kind");
  if (d.saturate && !integer)
    return problem("saturate (bit 3) is only valid for kind::i8");
  if ((d.negateA || d.negateB) && integer)
    return problem("negate (bits 13-14) is not valid for kind::i8");

  const uint32_t M = d.m, N = d.n, K = 2 * fa.perChunk;
  const uint32_t dLane = op.dTmem >> 16, dColumn = op.dTmem & 0xFFFF;
  if (M == 128 && dLane != 0)
    return problem("D address " + tmemText(op.dTmem) + " must start at lane 0 for M=128");
  if (M == 64 && dLane != 0 && dLane != 16)
    return problem("D address " + tmemText(op.dTmem) +
                   " must start at lane 0 or 16 for M=64 (its rows take 16 lanes of each "
                   "lane quarter)");
  // Row m of D: lane m for M=128; for M=64 (CUTLASS tmem_frg, the M=64
  // atom ((16,4),N):((1,32),128)) lane dLane + m%16 + 32*(m/16).
  auto laneOf = [&](uint32_t m) { return M == 128 ? m : dLane + m % 16 + 32 * (m / 16); };
  std::string bad =
      tmem.checkColumns(dColumn, N, "the accumulator D (N=" + std::to_string(N) + ")");
  if (!bad.empty())
    return problem(bad);

  // Scale factors: V per row and column, each covering K/V elements.
  uint32_t V = 1;
  std::vector<float> sfa, sfb; // sfa[m*V+j], sfb[(q*N+n)*V+j]
  bool scaledInF32 = true;     // every element times its factor is exact in f32
  if (op.blockScaled) {
    V = uint32_t(op.scaleVec);
    bool ue8m0 = d.scaleUe8m0;
    if (op.kind == Tcgen05Kind::Mxf8f6f4 && V != 1)
      return problem("kind::mxf8f6f4 takes scale_vec::1X (block32)");
    if (op.kind == Tcgen05Kind::Mxf4 && V != 2)
      return problem("kind::mxf4 takes scale_vec::2X (block32)");
    if (op.kind == Tcgen05Kind::Mxf4nvf4 && V == 1)
      return problem("kind::mxf4nvf4 takes scale_vec::2X (block32) or 4X (block16)");
    if (!ue8m0 && !(op.kind == Tcgen05Kind::Mxf4nvf4 && V == 4))
      return problem("scale factors must be ue8m0 (bit 23 set); ue4m3 is only valid for "
                     "kind::mxf4nvf4 with scale_vec::4X");
    if (d.aSfId % V || d.bSfId % V)
      return problem("with scale_vec::" + std::to_string(V) + "X the SF ids must be multiples of " +
                     std::to_string(V) + " (SFA id " + std::to_string(d.aSfId) + ", SFB id " +
                     std::to_string(d.bSfId) + ")");
    if ((bad = checkSfAddress(tmem, op.sfaTmem, M / 32, "SFA")) != "" ||
        (bad = checkSfAddress(tmem, op.sfbTmem, (N + 31) / 32, "SFB")) != "")
      return problem(bad);
    const float *sf = scaleFactorValues(ue8m0);
    const std::array<bool, 256> &exactA = f32ExactFactorsOf(fa.element, ue8m0),
                                &exactB = f32ExactFactorsOf(fb.element, ue8m0);
    uint32_t aCol = op.sfaTmem & 0xFFFF, bCol = op.sfbTmem & 0xFFFF;
    sfa.resize(size_t(M) * V);
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t j = 0; j < V; ++j) {
        uint8_t code = sfByte(tmem, m, aCol + m / 32, d.aSfId + j);
        sfa[m * V + j] = sf[code];
        scaledInF32 &= exactA[code];
      }
    sfb.resize(size_t(4) * N * V);
    for (uint32_t q = 0; q < 4; ++q)
      for (uint32_t n = 0; n < N; ++n)
        for (uint32_t j = 0; j < V; ++j) {
          uint8_t code = sfByte(tmem, 32 * q + n % 32, bCol + n / 32, d.bSfId + j);
          sfb[(q * N + n) * V + j] = sf[code];
          scaledInF32 &= exactB[code];
        }
  }

  Operand a, b;
  if (op.aFromTmem) {
    if (d.aMnMajor)
      return problem("A from tensor memory is K-major: the transpose-A bit (15) must be 0");
    if (M != 128)
      return problem("A from tensor memory is modelled for M=128 only");
    if (Tcgen05Problem p = gatherTmemOperand(tmem, op.aTmem, fa, M, K, a))
      return p;
  } else if (Tcgen05Problem p =
                 gatherOperand(shared, op.aDesc, d.aMnMajor, fa, M, K, false, "A", a)) {
    return p;
  }
  if (Tcgen05Problem p = gatherOperand(op.bShared ? *op.bShared : shared, op.bDesc, d.bMnMajor, fb,
                                       N, K, true, "B", b))
    return p;
  auto dValue = [&](uint32_t cell) {
    float acc = 0;
    if (op.enableInputD) {
      if (d.dFormat == 0)
        acc = decode(kF16, cell & 0xFFFF);
      else
        std::memcpy(&acc, &cell, 4);
    }
    return acc;
  };
  auto setD = [&](uint32_t &cell, float acc) {
    if (d.dFormat == 0)
      cell = ptx::cvtF16F32(acc);
    else
      std::memcpy(&cell, &acc, 4);
  };
  auto isNaN = [](float v) { return v != v; };
  bool anyNaN = a.hasNaN || b.hasNaN || std::any_of(sfa.begin(), sfa.end(), isNaN) ||
                std::any_of(sfb.begin(), sfb.end(), isNaN);
  const uint32_t perSf = K / V;

  // The floating-point kinds go through the vectorised loop (which NaNs keep
  // out; see runtime/MmaAccumulate.h), on D's TMEM rows in place when D is
  // f32, on an f32 copy when it is f16; rows from the first with a NaN in D
  // on, and the integer kinds, take the loop below, one output at a time.
  // Scratch is kept per worker thread: fresh vectors per instruction cost
  // page faults.
  thread_local std::vector<uint32_t *> dRows;
  thread_local std::vector<uint32_t> dF16AsF32;
  uint32_t firstScalarRow = 0;
  if (!integer && !anyNaN) {
    dRows.resize(M);
    dF16AsF32.resize(d.dFormat == 0 ? size_t(M) * N : 0);
    for (uint32_t m = 0; m < M; ++m) {
      uint32_t *row = &tmem.cell(laneOf(m), dColumn);
      if (d.dFormat == 0) {
        uint32_t *copy = &dF16AsF32[size_t(m) * N];
        for (uint32_t n = 0; n < N; ++n) {
          float v = dValue(row[n]);
          std::memcpy(&copy[n], &v, 4);
        }
        row = copy;
      } else if (!op.enableInputD) {
        std::fill_n(row, N, 0u); // +0.0f
      }
      dRows[m] = row;
    }
    // The same numbers as the loop below: the operands' signs (and scale
    // factors) are folded into them first, which is exact, so every product
    // is the one below.
    float fSignA = d.negateA ? -1 : 1, fSignB = d.negateB ? -1 : 1;
    if (!op.blockScaled) {
      if (d.negateA)
        for (float &v : a.values)
          v *= fSignA;
      if (d.negateB)
        for (float &v : b.values)
          v *= fSignB;
      firstScalarRow = accumulateProducts(a.values.data(), b.values.data(), 0, M, N, K,
                                          dRows.data(), op.enableInputD);
      if (d.negateA) // the loop below wants them as they were
        for (float &v : a.values)
          v *= fSignA;
      if (d.negateB)
        for (float &v : b.values)
          v *= fSignB;
    } else {
      // In f32 where every scaled element is exact there (runtime/ScaledOperands.h), else in f64.
      auto scaleAndAccumulate = [&](auto &scaled) {
        scaleOperands(a.values.data(), b.values.data(), sfa.data(), sfb.data(), M, N, K, V, fSignA,
                      fSignB, scaled);
        return accumulateProducts(scaled.a.data(), scaled.bT.data(), scaled.quarterStride(N, K), M,
                                  N, K, dRows.data(), op.enableInputD);
      };
      thread_local ScaledOperands<float> scaledF32;
      thread_local ScaledOperands<double> scaledF64;
      firstScalarRow = scaledInF32 ? scaleAndAccumulate(scaledF32) : scaleAndAccumulate(scaledF64);
    }
    if (d.dFormat == 0)
      for (uint32_t m = 0; m < firstScalarRow; ++m) {
        uint32_t *row = &tmem.cell(laneOf(m), dColumn);
        for (uint32_t n = 0; n < N; ++n) {
          float v;
          std::memcpy(&v, &dRows[m][n], 4);
          setD(row[n], v);
        }
      }
  }

  // Integer kinds, and operands with NaNs (whose payloads the order of each
  // add's operands decides): one output at a time.
  double signA = d.negateA ? -1 : 1, signB = d.negateB ? -1 : 1;
  for (uint32_t m = firstScalarRow; m < M; ++m) {
    for (uint32_t n = 0; n < N; ++n) {
      uint32_t &cell = tmem.cell(laneOf(m), dColumn + n);
      if (integer) {
        int64_t sum = op.enableInputD ? int64_t(int32_t(cell)) : 0;
        for (uint32_t k = 0; k < K; ++k)
          sum += int64_t(a.at(m, k)) * int64_t(b.at(n, k));
        if (d.saturate)
          sum = std::clamp<int64_t>(sum, std::numeric_limits<int32_t>::min(),
                                    std::numeric_limits<int32_t>::max());
        cell = uint32_t(sum);
        continue;
      }
      float acc = dValue(cell);
      for (uint32_t k = 0; k < K; ++k) {
        double product = signA * a.at(m, k) * signB * b.at(n, k);
        if (op.blockScaled)
          product *= double(sfa[m * V + k / perSf]) * sfb[((m / 32) * N + n) * V + k / perSf];
        acc += float(product);
      }
      setD(cell, acc);
    }
  }
  written = {};
  for (uint32_t m = 0; m < M; ++m)
    written.lanes.add(laneOf(m));
  written.column = dColumn;
  written.columns = N;
  return {};
}

Tcgen05Problem executeTcgen05Cp(uint32_t taddr, uint64_t descBits, Tcgen05CpShape shape,
                                const SharedView &shared, TensorMemory &tmem, TmemRegion &written) {
  uint32_t rows = 128, chunks = 2, copies = 1;
  const char *name = "tcgen05.cp.128x256b";
  if (shape == Tcgen05CpShape::S128x128b) {
    chunks = 1;
    name = "tcgen05.cp.128x128b";
  } else if (shape == Tcgen05CpShape::S32x128bWarpx4) {
    rows = 32;
    chunks = 1;
    copies = 4;
    name = "tcgen05.cp.32x128b.warpx4";
  }
  uint32_t lane = taddr >> 16, column = taddr & 0xFFFF, columns = 4 * chunks;
  if (lane != 0)
    return {std::string(name) + " to TMEM address " + tmemText(taddr) +
            ": the destination must start at lane 0 (it covers all 128 lanes)"};
  std::string bad = tmem.checkColumns(column, columns, std::string("the destination of ") + name);
  if (!bad.empty())
    return {bad};
  SmemMatrixDescriptor d = decodeSmemDescriptor(descBits);
  bad = checkSmemDescriptor(d);
  if (!bad.empty())
    return {std::string("the shared memory descriptor of ") + name + " (" + hex(descBits) +
            ") is not valid: " + bad};
  std::byte chunk[16];
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t j = 0; j < chunks; ++j) {
      auto role = [&] {
        return std::string(name) + " source (" + describeSmemDescriptor(d) + ") row " +
               std::to_string(r) + " bytes [" + std::to_string(16 * j) + "," +
               std::to_string(16 * j + 16) + ")";
      };
      if (Tcgen05Problem p = readSharedChunk(shared, ummaChunkAddress(d, false, r, j), chunk, role))
        return p;
      for (uint32_t q = 0; q < copies; ++q)
        for (uint32_t w = 0; w < 4; ++w) {
          uint32_t value;
          std::memcpy(&value, chunk + 4 * w, 4);
          tmem.cell(32 * q + r, column + 4 * j + w) = value;
        }
    }
  written = {TmemLanes::range(0, 128), column, columns};
  return {};
}

} // namespace cutec::rt
