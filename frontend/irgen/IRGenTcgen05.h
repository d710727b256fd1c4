// IRGenTcgen05: the IRGen domain (IRGen::tcgen05()) of Blackwell's tensor
// memory and tcgen05 MMA: tmem_alloc and friends, tmem_tensor,
// tmem_load/tmem_store, gemm, block-scaled MMA (scale factors in tensor memory,
// tmem_copy) and OperandMajorMode.
//
// Implemented in:
//   IRGenTcgen05.cpp       tensor memory allocation, tmem_tensor, gemm
//   IRGenTmemLoadStore.cpp tmem_load and tmem_store
//   IRGenBlockScaled.cpp   scale factors in tensor memory, tmem_copy
//   IRGenOperandMajor.cpp  OperandMajorMode.K/.MN
#ifndef CUTEC_FRONTEND_IRGEN_IRGENTCGEN05_H
#define CUTEC_FRONTEND_IRGEN_IRGENTCGEN05_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenTcgen05 : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  /// tmem_alloc, tmem_dealloc, tmem_relinquish_alloc_permit, umma_commit.
  SemaValue tmemAllocation(CallSite &site);
  std::optional<int64_t> tmemColumnsArgument(CallSite &site, size_t i);
  SemaValue ummaSmemLayout(CallSite &site);
  /// Whether `v` is OperandMajorMode.MN (false for .K); an error otherwise.
  std::optional<bool> mnMajorArgument(const SemaValue &v, const ast::Expr &expr);
  /// The `major=` keyword of `site`, K-major when absent.
  std::optional<bool> majorKeyword(CallSite &site);
  SemaValue tmemTensor(CallSite &site);
  /// tmem_tensor's tensor of `layout` at its address argument.
  SemaValue tmemTensorAt(CallSite &site, const Layout &layout);
  /// The tensor of `layout` at tmem_tensor's address argument, once it is
  /// checked to be a 32-bit value (what tmem_alloc wrote).
  SemaValue tmemTensorValue(CallSite &site, const Layout &layout);
  /// tmem_load (store false) and tmem_store (IRGenTmemLoadStore.cpp).
  SemaValue tmemLoadStore(CallSite &site);
  SemaValue tmemScaleFactorTensor(CallSite &site);
  SemaValue tmemCopy(CallSite &site);
  /// Appends gemm's sfa, sfb (and sfb_row) operands when the call has them
  /// and sets `kind` to its kind= keyword ("" without); false after an error.
  bool blockScaledGemmOperands(CallSite &site, std::vector<ir::Value *> &operands,
                               llvm::StringRef &kind);
  /// gemm(acc, a, b, accumulate) at arguments `first`... (1 after a tiled MMA).
  SemaValue gemm(CallSite &site, size_t first = 0);
  SemaValue gemmCall(CallSite &site) { return inKernel(site) ? gemm(site) : SemaValue::poison(); }
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENTCGEN05_H
