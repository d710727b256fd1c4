// tcgen05.mma: operand formats per kind, operands gathered through the
// shared-memory descriptors, scale factors read from TMEM where the hardware
// reads them, and the products summed into D (see runtime/tensorcore/Tcgen05Mma.h).
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
#include "runtime/tensorcore/Tcgen05Mma.h"

#include "runtime/base/DiagnosticText.h"
#include "runtime/numerics/FloatFormat.h"
#include "runtime/numerics/HalfCodes.h"
#include "runtime/numerics/MmaAccumulate.h"
#include "runtime/numerics/PtxCvt.h"
#include "runtime/numerics/ScaledOperands.h"
#include "runtime/tensorcore/Tcgen05HopperNumerics.h"
#include "runtime/memory/SharedWindow.h"
#include "runtime/tensorcore/UmmaDescriptors.h"
#include "runtime/tensorcore/WgmmaAccumulate.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <vector>

namespace cutec::rt {
namespace {

/// The operand format that `code` (idesc bits 7-9 or 10-12) names for
/// `kind` (hardware/UmmaFormat.h); false if none.
bool operandFormat(Tcgen05Kind kind, uint32_t code, MmaElementFormat &f) {
  std::optional<hw::UmmaElement> element = hw::ummaElementOfCode(kind, code);
  if (!element)
    return false;
  switch (*element) {
  case hw::UmmaElement::F16:
    f = {MmaElement::F16, 16, 8, "f16"};
    break;
  case hw::UmmaElement::BF16:
    f = {MmaElement::BF16, 16, 8, "bf16"};
    break;
  case hw::UmmaElement::TF32:
    f = {MmaElement::TF32, 32, 4, "tf32"};
    break;
  case hw::UmmaElement::U8:
    f = {MmaElement::U8, 8, 16, "u8"};
    break;
  case hw::UmmaElement::S8:
    f = {MmaElement::S8, 8, 16, "s8"};
    break;
  // Under f8f6f4 and mxf8f6f4, sub-byte elements are unpacked in shared
  // memory: each 16-byte chunk holds 16 elements, packed from its first byte
  // (fp6: 12 bytes, fp4: 8 bytes), the rest padding (TMA's 16U6_ALIGN16B /
  // 16U4_ALIGN16B).
  case hw::UmmaElement::E4M3:
    f = {MmaElement::E4M3, 8, 16, "e4m3"};
    break;
  case hw::UmmaElement::E5M2:
    f = {MmaElement::E5M2, 8, 16, "e5m2"};
    break;
  case hw::UmmaElement::E2M3:
    f = {MmaElement::E2M3, 6, 16, "e2m3"};
    break;
  case hw::UmmaElement::E3M2:
    f = {MmaElement::E3M2, 6, 16, "e3m2"};
    break;
  case hw::UmmaElement::E2M1: {
    // mxf4 and mxf4nvf4 pack two per byte.
    bool packed = kind == Tcgen05Kind::Mxf4 || kind == Tcgen05Kind::Mxf4nvf4;
    f = packed ? MmaElementFormat{MmaElement::E2M1, 4, 32, "e2m1 (packed)"}
               : MmaElementFormat{MmaElement::E2M1, 4, 16, "e2m1"};
    break;
  }
  }
  return true;
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

/// The values of every scale-factor byte (ue8m0 or ue4m3, whose bit 7 is
/// ignored).
const float *scaleFactorValues(bool ue8m0) {
  static const std::vector<float> ue8m0Values = mmaDecodeTable(kUE8M0),
                                  ue4m3Values = mmaDecodeTable(kUE4M3);
  return ue8m0 ? ue8m0Values.data() : ue4m3Values.data();
}

/// f32ExactFactors for a block-scaled element format (one with a value
/// table of 256 entries: codes, or bytes holding them) and factor format,
/// made once for all of them.
const std::array<bool, 256> &f32ExactFactorsOf(MmaElement e, bool ue8m0) {
  constexpr uint32_t kElements = uint32_t(MmaElement::S8) + 1;
  static const auto tables = [] {
    std::array<std::array<bool, 256>, 2 * kElements> t{};
    for (MmaElement f :
         {MmaElement::E4M3, MmaElement::E5M2, MmaElement::E2M3, MmaElement::E3M2, MmaElement::E2M1})
      for (bool scaleUe8m0 : {false, true})
        t[2 * uint32_t(f) + scaleUe8m0] =
            f32ExactFactors(mmaValueTable(f), 256, scaleFactorValues(scaleUe8m0));
    return t;
  }();
  return tables[2 * uint32_t(e) + ue8m0];
}


/// Gathers an operand through its UMMA descriptor (runtime/tensorcore/MmaOperandGather.h),
/// after the checks that only tcgen05's descriptors and layouts need.
MmaProblem gatherOperand(const SharedView &shared, uint64_t descBits, bool mnMajor,
                         const MmaElementFormat &f, uint32_t rows, uint32_t k, bool transposed,
                         const char *name, GatheredOperand &operand) {
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
  return gatherSharedOperand(shared, d, mnMajor, f, rows, k, transposed, name, operand);
}

/// A (M = 128) from tensor memory at `address`: row m in lane m, K-major,
/// 32 bits of K per column, elements packed from each cell's low bits (as
/// CUTLASS's tmem_frg<T, T> keeps an MMA's A), so one instruction reads
/// 256 / 32 = 8 columns.
MmaProblem gatherTmemOperand(TensorMemory &tmem, uint32_t address, const MmaElementFormat &f,
                                 uint32_t rows, uint32_t k, GatheredOperand &operand) {
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
  const float *table = mmaValueTable(f.element);
  for (uint32_t m = 0; m < rows; ++m)
    for (uint32_t c = 0; c < columns; ++c) {
      uint32_t cell = tmem.cell(m, column + c);
      for (uint32_t e = 0; e < perCell; ++e) {
        float v = mmaElementValue(f.element, table, (cell >> (e * f.bits)) & mask);
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

MmaProblem executeTcgen05Mma(const MmaOperands &op, Tcgen05Numerics numerics,
                             const SharedView &shared, TensorMemory &tmem, TmemRegion &written) {
  MmaInstrDescriptor d = decodeInstrDescriptor(op.idesc, op.blockScaled);
  const std::string idescText = describeInstrDescriptor(op.idesc, op.blockScaled);
  auto problem = [&](const std::string &why) {
    return MmaProblem{std::string(kindName(op.kind)) + " with " + idescText + ": " + why};
  };
  if (hw::isBlockScaled(op.kind) != op.blockScaled)
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

  MmaElementFormat fa, fb;
  if (!operandFormat(op.kind, d.aFormat, fa))
    return problem("A format code " + std::to_string(d.aFormat) + " is not valid for this kind");
  if (!operandFormat(op.kind, d.bFormat, fb))
    return problem("B format code " + std::to_string(d.bFormat) + " is not valid for this kind");
  if ((op.kind == Tcgen05Kind::F16) && fa.element != fb.element)
    return problem("A and B must have the same format (" + std::string(fa.name) + " vs " + fb.name +
                   ")");
  bool integer = op.kind == Tcgen05Kind::I8;
  auto dFormat = hw::UmmaDFormat(d.dFormat);
  const bool dIsF16 = dFormat == hw::UmmaDFormat::F16;
  if (integer ? dFormat != hw::UmmaDFormat::S32
              : (dFormat != hw::UmmaDFormat::F32 &&
                 !(dIsF16 && (op.kind == Tcgen05Kind::F16 || op.kind == Tcgen05Kind::F8f6f4))))
    return problem("D format code " + std::to_string(d.dFormat) + " is not valid for this kind");
  if (d.saturate && !integer)
    return problem("saturate (bit 3) is only valid for kind::i8");
  if ((d.negateA || d.negateB) && integer)
    return problem("negate (bits 13-14) is not valid for kind::i8");
  // kind::i8 sums exactly under either numerics.
  const bool hopper = numerics == Tcgen05Numerics::Hopper && !integer;
  WgmmaKind hopperKind;
  if (hopper) {
    std::string gap = hopperWgmmaKind(op.blockScaled, fa, fb, dIsF16, hopperKind);
    if (!gap.empty())
      return problem(gap);
  }

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

  GatheredOperand a, b;
  if (op.aFromTmem) {
    if (d.aMnMajor)
      return problem("A from tensor memory is K-major: the transpose-A bit (15) must be 0");
    if (M != 128)
      return problem("A from tensor memory is modelled for M=128 only");
    if (MmaProblem p = gatherTmemOperand(tmem, op.aTmem, fa, M, K, a))
      return p;
  } else if (MmaProblem p =
                 gatherOperand(shared, op.aDesc, d.aMnMajor, fa, M, K, false, "A", a)) {
    return p;
  }
  if (MmaProblem p = gatherOperand(op.bShared ? *op.bShared : shared, op.bDesc, d.bMnMajor, fb,
                                       N, K, true, "B", b))
    return p;
  written = {};
  for (uint32_t m = 0; m < M; ++m)
    written.lanes.add(laneOf(m));
  written.column = dColumn;
  written.columns = N;

  // Scratch is kept per worker thread: fresh vectors per instruction cost
  // page faults.
  thread_local std::vector<uint32_t *> dRows;
  dRows.resize(M);
  if (hopper) {
    for (uint32_t m = 0; m < M; ++m)
      dRows[m] = &tmem.cell(laneOf(m), dColumn);
    wgmmaDotRows(hopperKind, a, b, d.negateA, d.negateB, M, N, dRows.data(), op.enableInputD);
    return {};
  }
  auto dValue = [&](uint32_t cell) {
    float acc = 0;
    if (op.enableInputD) {
      if (dIsF16)
        acc = decode(kF16, cell & 0xFFFF);
      else
        std::memcpy(&acc, &cell, 4);
    }
    return acc;
  };
  auto setD = [&](uint32_t &cell, float acc) {
    if (dIsF16)
      cell = ptx::cvtF16F32(acc);
    else
      std::memcpy(&cell, &acc, 4);
  };
  auto isNaN = [](float v) { return v != v; };
  bool anyNaN = a.hasNaN || b.hasNaN || std::any_of(sfa.begin(), sfa.end(), isNaN) ||
                std::any_of(sfb.begin(), sfb.end(), isNaN);
  const uint32_t perSf = K / V;

  // The floating-point kinds go through the vectorised loop (which NaNs keep
  // out; see runtime/numerics/MmaAccumulate.h), on D's TMEM rows in place when D is
  // f32, on an f32 copy when it is f16; rows from the first with a NaN in D
  // on, and the integer kinds, take the loop below, one output at a time.
  thread_local std::vector<uint32_t> dF16AsF32;
  uint32_t firstScalarRow = 0;
  if (!integer && !anyNaN) {
    dF16AsF32.resize(dIsF16 ? size_t(M) * N : 0);
    for (uint32_t m = 0; m < M; ++m) {
      uint32_t *row = &tmem.cell(laneOf(m), dColumn);
      if (dIsF16) {
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
      // In f32 where every scaled element is exact there (runtime/numerics/ScaledOperands.h), else in f64.
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
    if (dIsF16)
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
  return {};
}

MmaProblem executeTcgen05Cp(uint32_t taddr, uint64_t descBits, Tcgen05CpShape shape,
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
      if (MmaProblem p = readSharedChunk(shared, ummaChunkAddress(d, false, r, j), chunk, role))
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
