//===- BlockScaledMma.h - kind, scale vector and SF ids of a scaled gemm ---===//
//
// A block-scaled gemm (gemm(..., sfa=, sfb=)) becomes one tcgen05.mma
// .block_scale per K block of 32 bytes. Which kind and scale vector it is
// follows from the operand types, the scale-factor type and the number of K
// elements per scale factor (the stride-0 mode of sf_tmem_layout):
//
//   A, B                      vec  scale factors   kind, .scale_vec
//   fp8/fp6 (any mix)         32   ue8m0           mxf8f6f4, 1X
//   e2m1 (packed)             32   ue8m0           mxf4, 2X (or mxf4nvf4, 2X)
//   e2m1 (packed)             16   ue4m3 or ue8m0  mxf4nvf4, 4X (block16)
//
// The gemm's kind= ("mxf8f6f4", "mxf4", "mxf4nvf4") picks the kind where two
// fit (mxf4nvf4 for e2m1 with ue8m0 per 32); a kind that does not fit the
// operands is an error.
//
// Each instruction reads, for row r of A (column n of B), the V = 1, 2 or 4
// factors of its K block from bytes id .. id+V-1 of TMEM column
// base + r/32, lane r%32 of every lane quarter. The plan gives, per K block,
// the base (a byte offset into the scale-factor tensor, a multiple of 4) and
// the id, after checking that the tensors' layouts put every factor exactly
// there; a layout that does not is an error saying which factor is misplaced.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_LOWERING_BLOCKSCALEDMMA_H
#define CUTEC_PASSES_LOWERING_BLOCKSCALEDMMA_H

#include "ir/core/Type.h"
#include "ir/layout/Layout.h"
#include "passes/lowering/UmmaDescriptors.h"

#include <vector>

namespace cutec {

/// Scale factors in tensor memory as sf_tmem_layout lays them out:
/// (((rows, 4 quarters), (vec, rest_k)), 1, mma_k) with byte strides, 4 per
/// column and 4 * 65536 per lane.
struct ScaleFactorTmem {
  static constexpr int64_t kLaneBytes = 4 * 65536;
  static constexpr int64_t kQuarterBytes = 32 * kLaneBytes;

  Layout layout;
  int64_t rows = 0;   // rows of A or B it covers (in each lane quarter)
  int64_t vec = 0;    // K elements per factor (the stride-0 mode)
  int64_t kInner = 0; // K elements of mode (0, 1)
  int64_t k = 0;      // K elements in all
  /// Modes (0, 0) (row + rows * quarter), (0, 1) (K within it) and 2 (K
  /// past it) as integer indexers: the checks of lower-s2t and lower-mma
  /// read every factor's offset.
  StaticIndexer rowMode, innerMode, outerMode;

  /// The tensor of type `t`, or an error naming it `which`.
  static llvm::Expected<ScaleFactorTmem> of(const ir::Type &t, const llvm::Twine &which);
  /// The byte offset of the factor of `row` (in lane quarter `quarter`) and
  /// K element `kElem`.
  llvm::Expected<int64_t> offset(int64_t row, int64_t quarter, int64_t kElem) const;
};

struct BlockScaledMma {
  umma::Kind kind = umma::Kind::Mxf8f6f4;
  /// The PTX spelling after `.kind::`, e.g. "mxf4nvf4.block_scale.block16".
  std::string ptxKind;
  ir::DataType scale = ir::DataType::UE8M0;
  /// Elements of K per instruction.
  int64_t kBlock = 32;
  struct Step {
    int64_t sfaOffset = 0, sfbOffset = 0; // byte offsets, multiples of 4
    uint32_t sfaId = 0, sfbId = 0;
  };
  /// One per K block.
  std::vector<Step> steps;
};

/// The plan of a gemm of A (M, K) `a` by B (N, K) `b` with scale factors
/// `sfa` and `sfb` (tensor-memory tensors), B's rows starting at row
/// `sfbRow` of `sfb` when that is known at compile time, of the kind `kind`
/// asks for ("" lets the types choose); an error says which rule fails.
llvm::Expected<BlockScaledMma> planBlockScaledMma(ir::DataType a, ir::DataType b,
                                                  const ir::Type &sfa, const ir::Type &sfb,
                                                  int64_t m, int64_t n, int64_t k,
                                                  int64_t sfbRow = 0, llvm::StringRef kind = "");

} // namespace cutec

#endif
