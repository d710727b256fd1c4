//===- IselNarrow.cpp - isel of products of e2m1 pairs --------------------===//
//
// Without cvt.rn.f16x2.e2m1x2 (sm_90a), a pair of products is formed from
// magnitudes and signs apart:
//
// - Each e2m1 magnitude (code & 7) is an f16 whose low byte is zero: 0,
//   0.5, 1, 1.5, 2, 3, 4, 6 are 0x0000, 0x3800, 0x3C00, 0x3E00, 0x4000,
//   0x4200, 0x4400, 0x4600. prmt looks up eight bytes by four 3-bit
//   selectors, so one prmt turns four codes (a masked half word) into the
//   high bytes of their f16 magnitudes, and a second prmt places the bytes
//   of code k and code k + 4 as an f16 pair, zeros below each (a selector
//   of 8 replicates the sign of a byte below 0x80: zero).
// - The product of two magnitudes is exact in f16 (mul.rn.f16x2), and its
//   sign is the xor of the codes' signs: bits 4k + 3 and 4k + 19 of
//   a ^ b, shifted to 15 and 31. Zeros keep IEEE signs this way too.
//
//===----------------------------------------------------------------------===//
#include "target/ptx/isel/IselNarrow.h"

#include "target/ptx/MachineBuilder.h"

namespace cutec {

using ir::DataType;
using ir::Value;
using ptx::emitImmediate;
using ptx::emitValue;
using ptx::PtxOpcode;

namespace {

/// The f16 high bytes of the eight e2m1 magnitudes, as prmt's {b, a}.
constexpr int64_t kMagnitudesLow = 0x3E3C3800, kMagnitudesHigh = 0x46444240;

Value *immediate(ir::Builder &b, llvm::SMLoc loc, int64_t value) {
  return emitImmediate(b, loc, DataType::U32, value);
}

Value *binary(ir::Builder &b, llvm::SMLoc loc, PtxOpcode opcode, Value *x, Value *y) {
  return emitValue(b, loc, opcode, DataType::U32, {x, y});
}

Value *prmt(ir::Builder &b, llvm::SMLoc loc, Value *low, Value *high, Value *selector) {
  return emitValue(b, loc, PtxOpcode::PrmtB32, DataType::U32, {low, high, selector});
}

/// The two codes of the byte at `shift` as an f16 pair (sm_100a and later).
Value *convertPair(ir::Builder &b, llvm::SMLoc loc, Value *word, int64_t shift) {
  Value *byte = shift ? binary(b, loc, PtxOpcode::ShrU32, word, immediate(b, loc, shift)) : word;
  Value *b16 = emitValue(b, loc, PtxOpcode::CvtU16U32, DataType::U16, {byte});
  Value *b8 =
      ptx::emitInst(b, loc, PtxOpcode::MovB16Unpack, {DataType::U8, DataType::U8}, {b16}).result(0);
  return emitValue(b, loc, PtxOpcode::CvtRnF16x2E2m1x2, DataType::U32, {b8});
}

} // namespace

Value *E2m1PairProducts::emit(ir::Builder &b, llvm::SMLoc loc, const ir::Block *block,
                              Value *wordA, Value *wordB, int64_t low) {
  // One statement per emission: the order of arguments' evaluation is not.
  if (target.hasFp4AndUe8m0Conversions) {
    Value *pairA = convertPair(b, loc, wordA, low);
    Value *pairB = convertPair(b, loc, wordB, low);
    return binary(b, loc, PtxOpcode::MulRnF16x2, pairA, pairB);
  }
  int64_t k = low / 4;
  Value *selector = immediate(b, loc, (4 + k) << 12 | 8 << 8 | k << 4 | 8);
  auto pair = [&](Value *word) {
    Value *low4 = lookUpMagnitudes(b, loc, block, word, 0);
    Value *high4 = lookUpMagnitudes(b, loc, block, word, 1);
    return prmt(b, loc, low4, high4, selector);
  };
  Value *pairA = pair(wordA);
  Value *pairB = pair(wordB);
  Value *magnitude = binary(b, loc, PtxOpcode::MulRnF16x2, pairA, pairB);
  Value *sign = signs(b, loc, block, wordA, wordB);
  if (low < 12)
    sign = binary(b, loc, PtxOpcode::ShlB32, sign, immediate(b, loc, 12 - low));
  sign = binary(b, loc, PtxOpcode::AndB32, sign, immediate(b, loc, int64_t(0x80008000u)));
  return binary(b, loc, PtxOpcode::XorB32, magnitude, sign);
}

Value *E2m1PairProducts::lookUpMagnitudes(ir::Builder &b, llvm::SMLoc loc,
                                          const ir::Block *block, Value *word, int64_t half) {
  Value *&bytes = magnitudes[{block, word, half}];
  if (bytes)
    return bytes;
  Value *codes = half ? binary(b, loc, PtxOpcode::ShrU32, word, immediate(b, loc, 16)) : word;
  // prmt reads the low four selectors; bit 3 of each would replicate signs.
  Value *selectors = binary(b, loc, PtxOpcode::AndB32, codes, immediate(b, loc, 0x7777));
  Value *table = immediate(b, loc, kMagnitudesLow);
  bytes = prmt(b, loc, table, immediate(b, loc, kMagnitudesHigh), selectors);
  return bytes;
}

Value *E2m1PairProducts::signs(ir::Builder &b, llvm::SMLoc loc, const ir::Block *block,
                               Value *wordA, Value *wordB) {
  Value *&x = xors[{block, wordA, wordB}];
  if (!x)
    x = binary(b, loc, PtxOpcode::XorB32, wordA, wordB);
  return x;
}

} // namespace cutec
