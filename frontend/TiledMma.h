// An MMA atom tiled over one CTA (tcgen05) or one warpgroup (sm_90a's
// wgmma): the compile-time value that make_tiled_mma returns, and the
// partitions it makes (CuTe DSL's TiledMma and ThrMma; docs/language.md,
// "Tiled MMA" and "Warpgroup MMA").
#ifndef CUTEC_FRONTEND_TILEDMMA_H
#define CUTEC_FRONTEND_TILEDMMA_H

#include "ir/core/DataType.h"
#include "ir/layout/Layout.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace cutec {
namespace ir {
class Block;
class Value;
} // namespace ir

/// What tiled_mma.set(Field.ACCUMULATE, flag) set: the bool and the block
/// it was computed in.
struct AccumulateField {
  ir::Value *flag = nullptr;
  const ir::Block *block = nullptr;
};

struct TiledMma {
  /// The MMA op's constructor (MmaF16BF16Op, ...).
  std::string op;
  ir::DataType a = ir::DataType::F16, b = ir::DataType::F16, acc = ir::DataType::F32;
  /// The instruction shape.
  int64_t m = 128, n = 256, k = 16;
  bool aMnMajor = false, bMnMajor = false;
  /// CtaGroup.TWO: a CTA pair computes the (m, n) tile, each CTA m/2 rows
  /// of A and D and n/2 rows of B.
  int ctaGroup = 1;
  /// OperandSource.TMEM: A is read from tensor memory (K-major, packed
  /// into 32-bit cells).
  bool aInTmem = false;
  /// OperandSource.RMEM (warpgroup MMA): A is a register fragment of each
  /// thread (partition_A(...).load()).
  bool aInRmem = false;
  /// `.satfinite` (warpgroup integer MMA): clamp to the s32 range instead
  /// of wrapping.
  bool satfinite = false;
  /// Shared by the copies of the value, as set() mutates the Python object.
  std::shared_ptr<AccumulateField> accumulate = std::make_shared<AccumulateField>();
  /// A get_slice(...) of the tiled MMA (a ThrMma); 1-CTA atoms have slice 0.
  bool isSlice = false;
  /// A warpgroup MMA (warpgroup.MmaF16BF16Op): M = 64, the accumulator in
  /// the registers of the warpgroup's 128 threads.
  bool warpgroup = false;
  /// A warpgroup slice's thread (get_slice(tidx)): which registers of the
  /// accumulator it holds.
  ir::Value *thread = nullptr;

  /// "MmaF16BF16Op(f16, f16 -> f32, 128x256x16, A K-major, B K-major)",
  /// with ", CTA pair" and ", A in TMEM" where they apply.
  std::string str() const;
  bool operator==(const TiledMma &o) const;
};

/// Which operand a partition is for: A (M, K), B (N, K) or C (M, N).
enum class MmaOperand { A, B, C };

/// One CTA's part of the instruction tile of `operand`: (M, K), (N, K) or
/// (M, N), with M and N of B halved for a CTA pair.
std::pair<int64_t, int64_t> instructionTile(const TiledMma &mma, MmaOperand operand);

/// `layout` (an (X, Y, rest...) tile of the operand) divided into
/// instruction tiles: ((instX, instY), X/instX, Y/instY, rest...), CuTe's
/// tiled_divide. An error when the instruction tile does not divide it.
llvm::Expected<Layout> partitionLayout(const TiledMma &mma, MmaOperand operand,
                                       const Layout &layout);

/// One CTA's share of an (X, Y, rest...) tile of the operand: the tile
/// itself, or for a CTA pair the first half of X (M of A and C, N of B).
IntTuple ctaShare(const TiledMma &mma, const IntTuple &shape);

/// Elements of `operand` a thread of a warpgroup MMA holds per 32-bit
/// register: 2 for the accumulator (its f16 pairs share one, f32 and s32
/// take one each but are numbered alike), 32 / bits for A in registers.
int64_t warpgroupElementsPerRegister(const TiledMma &mma, MmaOperand operand);

/// A warpgroup MMA's partition_shape_A/C of an (M, X') tile: one thread's
/// values of A in registers or of the accumulator, ((E, 2, X/(4E)), M/64,
/// X'/X) with X the instruction's K or N and E the elements per register.
llvm::Expected<IntTuple> warpgroupFragmentShape(const TiledMma &mma, MmaOperand operand,
                                                const IntTuple &shape);

/// make_fragment_C: the layout in tensor memory of the accumulator of one
/// CTA, ((instM, instN), 1, MMA_N, rest...) with row r in lane r and the
/// instruction tiles and further modes (stages) side by side in columns.
/// `shape` is partition_shape_C's or the (M, N, rest...) tile it takes.
llvm::Expected<Layout> accumulatorLayout(const TiledMma &mma, const IntTuple &shape);

} // namespace cutec

#endif
