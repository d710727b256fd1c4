// IRGenWarpgroupMma: the IRGen domain (IRGen::wgmma()) of Hopper's warpgroup
// MMA (wgmma): the warpgroup MMA ops, their partitions and gemm into a register
// accumulator.
#ifndef CUTEC_FRONTEND_IRGEN_IRGENWARPGROUPMMA_H
#define CUTEC_FRONTEND_IRGEN_IRGENWARPGROUPMMA_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenWarpgroupMma : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  SemaValue warpgroupMmaOp(CallSite &site, TiledMma mma, size_t shapeArgument);
  /// A warpgroup slice's partition_C (partition_A, A from registers) of an
  /// (M, X') tile in memory: the thread's elements, laid out as its register
  /// fragment.
  SemaValue warpgroupPartition(const TiledMma &slice, MmaOperand operand, CallSite &site);
  /// gemm(tiled_mma, acc, a, b, flag) of a warpgroup MMA: the new
  /// accumulator, after the checks and regrouping tiledMmaGemm did.
  SemaValue warpgroupGemm(const TiledMma &mma, CallSite &site);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENWARPGROUPMMA_H
