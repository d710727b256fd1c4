//===- WarpMatrix.h - Which tile row each lane of stmatrix/ldmatrix names -===//
//
// `stmatrix(tile, fragment)` and `ldmatrix(tile)` move N = 1, 2 or 4 8x8
// matrices of 16-bit elements of a (8a, 8c) tile, a * c = N. Matrix m is the
// 8x8 block (m mod a, m / a): column-major over the blocks, as CuTe's
// SM90_U32x4_STSM_N has them for a 16x16 tile. Lane 8m + i of the warp gives
// the address of memory row i of matrix m: the block's row i, or with
// `trans` its column i. The front end checks the tile's layout with this and
// lower-indexing computes the addresses with it.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_WARPMATRIX_H
#define CUTEC_IR_CORE_WARPMATRIX_H

#include "ir/layout/IntTuple.h"

namespace cutec::ir {

/// The tile coordinate (row, column) where the 16-byte memory row that lane
/// `lane` addresses starts; the row runs along the tile's columns, or with
/// `trans` along its rows. Lanes past 8 * `num` repeat the first ones.
inline IntTuple matrixRowStart(const IntExpr &lane, int64_t rowBlocks, int64_t num, bool trans) {
  IntExpr m = (lane / 8) % num, i = lane % 8;
  IntExpr row = (m % rowBlocks) * 8, column = (m / rowBlocks) * 8;
  if (trans)
    column = column + i;
  else
    row = row + i;
  return IntTuple::tuple({IntTuple(row), IntTuple(column)});
}

} // namespace cutec::ir

#endif
