// IRGenCopy: the IRGen domain (IRGen::copies()) of copy atoms and tiled copies
// for SIMT kernels: make_copy_atom, make_tiled_copy_tv, partition_S/D,
// make_fragment_like and copy.
#ifndef CUTEC_FRONTEND_IRGEN_IRGENCOPY_H
#define CUTEC_FRONTEND_IRGEN_IRGENCOPY_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenCopy : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  SemaValue copyUniversalOp(CallSite &site);
  SemaValue makeCopyAtom(CallSite &site);
  SemaValue makeLayoutTvCall(CallSite &site);
  SemaValue makeTiledCopyTv(CallSite &site);
  SemaValue makeTiledCopy(CallSite &site);
  /// The TiledCopy object of `atom` over `tv` and its tile `tiler`; an
  /// error at `valuesExpr` where a thread's values do not divide into the
  /// atom's accesses (or these into them).
  SemaValue tiledCopy(const SemaValue &atom, const IntTuple &tiler, const Layout &tv,
                      const ast::Expr &valuesExpr);
  SemaValue tiledCopyGetSlice(CallSite &site);
  /// partition_S and partition_D of a thread's slice.
  SemaValue thrCopyPartition(CallSite &site);
  /// make_fragment_like and make_rmem_tensor_like.
  SemaValue makeFragmentLike(CallSite &site);
  /// copy(atom, src, dst, pred=): group by group, predicated where asked.
  SemaValue copyCall(CallSite &site);
  /// autovec_copy(src, dst): copy with a 128-bit universal atom.
  SemaValue autovecCopy(CallSite &site);
  /// What copy moves, and where each is written (for messages).
  struct CopyOperands {
    const SemaValue &src, &dst, &pred;
    const ast::Expr &srcExpr, &dstExpr, &predExpr;
  };
  /// Static shapes and one element type; false after an error.
  bool checkCopyOperands(const CopyOperands &c);
  /// dst = src in groups of at most `limit` elements, predicated by `pred`
  /// (unless None).
  SemaValue copyElements(const CopyOperands &c, int64_t limit, llvm::SMLoc loc);
  /// `count` elements of `src` (a view or a fragment) from logical element
  /// `first` on, as scalars; a view's group is one load.
  std::vector<ir::Value *> readElements(const SemaValue &src, int64_t first, int64_t count,
                                        llvm::SMLoc loc);
  /// Stores `values` into the view `dst` from logical element `first` on.
  void writeElements(const SemaValue &dst, int64_t first, llvm::ArrayRef<ir::Value *> values,
                     llvm::SMLoc loc);
  /// An IR `if` with results of `types`, its branches built by `onTrue` and
  /// `onFalse`, each giving the values its branch yields.
  std::vector<ir::Value *> ifElse(ir::Value *condition, llvm::ArrayRef<ir::Type> types,
                                  llvm::SMLoc loc,
                                  llvm::function_ref<std::vector<ir::Value *>()> onTrue,
                                  llvm::function_ref<std::vector<ir::Value *>()> onFalse);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENCOPY_H
