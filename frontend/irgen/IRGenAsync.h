// IRGenAsync: the IRGen domain (IRGen::async()) of shared memory, mbarriers and
// TMA: shared_tensor, as_bytes, size_in_bytes, the mbarrier operations,
// tma_load and tma_store.
#ifndef CUTEC_FRONTEND_IRGEN_IRGENASYNC_H
#define CUTEC_FRONTEND_IRGEN_IRGENASYNC_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenAsync : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  SemaValue sharedTensor(CallSite &site);
  /// A static allocation of shared memory (what shared_tensor makes), named
  /// `name` in diagnostics when not empty; poison after an error at `loc`.
  SemaValue allocateShared(ir::DataType dtype, const Layout &layout, const Swizzle &swizzle,
                           int64_t align, llvm::SMLoc loc, llvm::SMRange range,
                           const std::string &name);
  SemaValue asBytes(CallSite &site);
  SemaValue sizeInBytes(CallSite &site);
  SemaValue mbarrierOp(CallSite &site);
  ir::Value *mbarrierOperand(CallSite &site, size_t i, llvm::StringRef name);
  SemaValue tmaLoad(CallSite &site);
  SemaValue tmaStore(CallSite &site);
  /// The checks tma_load and tma_store share: the global `tile` and the
  /// shared tensor `smem` (written at `smemExpr`) hold the same element
  /// type, and `smem` has the tile's elements, or those of its memory image
  /// (the tile without its broadcast modes). False after reporting.
  bool checkTmaOperands(CallSite &site, const SemaValue &tile, const SemaValue &smem,
                        const ast::Expr &smemExpr);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENASYNC_H
