//===- IselNarrow.h - isel of products of e2m1 pairs ----------------------===//
//
// arith.product_x2: the two f16 products of the e2m1 codes at bits `low`
// and `high` of two u32 words, in one f16 pair. Which codes make a pair is
// the target's (narrowPairDistance), so that each target decodes them with
// the fewest instructions.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_ISEL_ISELNARROW_H
#define CUTEC_TARGET_PTX_ISEL_ISELNARROW_H

#include "ir/core/Builder.h"
#include "target/ptx/Targets.h"

#include <map>
#include <tuple>

namespace cutec {

/// Emits the machine IR of products of e2m1 pairs. On targets without the
/// fp4 conversions it decodes magnitudes by table lookup, and keeps what
/// the pairs of one word share (one lookup per four codes) per block.
class E2m1PairProducts {
public:
  explicit E2m1PairProducts(const TargetFeatures &target) : target(target) {}

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

  const TargetFeatures &target;
  std::map<std::tuple<const ir::Block *, ir::Value *, int64_t>, ir::Value *> magnitudes;
  std::map<std::tuple<const ir::Block *, ir::Value *, ir::Value *>, ir::Value *> xors;
};

} // namespace cutec

#endif
