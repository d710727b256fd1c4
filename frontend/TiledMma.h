// A tcgen05 MMA atom tiled over one CTA: the compile-time value that
// make_tiled_mma returns, and the partitions it makes (CuTe DSL's TiledMma
// and ThrMma; docs/language.md, "Tiled MMA").
#ifndef CUTEC_FRONTEND_TILEDMMA_H
#define CUTEC_FRONTEND_TILEDMMA_H

#include "ir/core/DataType.h"
#include "ir/layout/Layout.h"

#include "llvm/Support/Error.h"

#include <string>

namespace cutec {

struct TiledMma {
  /// The MMA op's constructor (MmaF16BF16Op, ...).
  std::string op;
  ir::DataType a = ir::DataType::F16, b = ir::DataType::F16, acc = ir::DataType::F32;
  /// The instruction shape.
  int64_t m = 128, n = 256, k = 16;
  bool aMnMajor = false, bMnMajor = false;
  /// A get_slice(...) of the tiled MMA (a ThrMma); 1-CTA atoms have slice 0.
  bool isSlice = false;

  /// "MmaF16BF16Op(f16, f16 -> f32, 128x256x16, A K-major, B K-major)"
  std::string str() const;
  bool operator==(const TiledMma &o) const;
};

/// Which operand a partition is for: A (M, K), B (N, K) or C (M, N).
enum class MmaOperand { A, B, C };

/// The instruction tile of `operand`: (M, K), (N, K) or (M, N).
std::pair<int64_t, int64_t> instructionTile(const TiledMma &mma, MmaOperand operand);

/// `layout` (an (X, Y, rest...) tile of the operand) divided into
/// instruction tiles: ((instX, instY), X/instX, Y/instY, rest...), CuTe's
/// tiled_divide. An error when the instruction tile does not divide it.
llvm::Expected<Layout> partitionLayout(const TiledMma &mma, MmaOperand operand,
                                       const Layout &layout);

} // namespace cutec

#endif
