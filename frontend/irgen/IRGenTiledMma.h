// IRGenTiledMma: the IRGen domain (IRGen::tiledMma()) of the tiled-MMA
// vocabulary: MMA ops, make_tiled_mma, its slices, partitions and fragments,
// make_smem_layout_a/b and gemm(tiled_mma, ...).
#ifndef CUTEC_FRONTEND_IRGEN_IRGENTILEDMMA_H
#define CUTEC_FRONTEND_IRGEN_IRGENTILEDMMA_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenTiledMma : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  SemaValue callTiledMmaBuiltin(CallSite &site);
  SemaValue mmaOp(CallSite &site);
  SemaValue smemLayoutForMma(MmaOperand operand, CallSite &site);
  /// make_rmem_tensor(shape, dtype): a register fragment of zeros.
  SemaValue makeRmemTensor(CallSite &site);
  SemaValue zeroFragment(const IntTuple &shape, ir::DataType element, llvm::SMLoc loc);
  std::optional<SemaValue> tiledMmaAttribute(const SemaValue &base, llvm::StringRef name);
  SemaValue callTiledMmaMethod(const SemaValue &method, CallSite &site);
  SemaValue setField(const TiledMma &mma, CallSite &site);
  SemaValue tiledMmaGemm(CallSite &site);
  SemaValue relayout(const SemaValue &tensor, const Layout &layout, llvm::SMLoc loc);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENTILEDMMA_H
