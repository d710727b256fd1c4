//===- IselNarrow.h - isel of products of e2m1 pairs ----------------------===//
//
// arith.product_x2: the two f16 products of the e2m1 codes at bits `low`
// and `high` of two u32 words, in one f16 pair. Which codes make a pair is
// the target's (narrowPairDistance), so that each target decodes them with
// the fewest instructions.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_ISELNARROW_H
#define CUTEC_PASSES_ISELNARROW_H

#include "ir/core/Builder.h"
#include "passes/IselTarget.h"

#include <map>
#include <tuple>

namespace cutec {

/// How far apart, in bits, the two codes of a pair are on `target`: 4 (the
/// two codes of a byte, which cvt.rn.f16x2.e2m1x2 decodes at once) where
/// the target has the fp4 conversions, else 16 (code k and code k + 4 of a
/// word, which share every shift and mask as the two halves of an f16
/// pair). A pair's low code is then at a multiple of 8, or below 16 in its
/// 32-bit word.
int64_t narrowPairDistance(const IselTarget &target);

/// Emits the machine IR of products of e2m1 pairs. On targets without the
/// fp4 conversions it decodes magnitudes by table lookup, and keeps what
/// the pairs of one word share (one lookup per four codes) per block.
class E2m1PairProducts {
public:
  explicit E2m1PairProducts(const IselTarget &target) : target(target) {}

  /// The f16 pair of products of the codes at `low` and low +
  /// narrowPairDistance of the machine words `wordA` and `wordB`, emitted in
  /// `block` at b's insertion point.
  ir::Value *emit(ir::Builder &b, llvm::SMLoc loc, const ir::Block *block, ir::Value *wordA,
                  ir::Value *wordB, int64_t low);

private:
  ir::Value *lookUpMagnitudes(ir::Builder &b, llvm::SMLoc loc, const ir::Block *block,
                              ir::Value *word, int64_t half);
  ir::Value *signs(ir::Builder &b, llvm::SMLoc loc, const ir::Block *block, ir::Value *wordA,
                   ir::Value *wordB);

  const IselTarget &target;
  std::map<std::tuple<const ir::Block *, ir::Value *, int64_t>, ir::Value *> magnitudes;
  std::map<std::tuple<const ir::Block *, ir::Value *, ir::Value *>, ir::Value *> xors;
};

} // namespace cutec

#endif
