//===- LayoutDetail.h - Helpers shared by the layout algebra files --------===//
//
// Internal to ir/layout: not part of the public layout API.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_LAYOUT_LAYOUTDETAIL_H
#define CUTEC_IR_LAYOUT_LAYOUTDETAIL_H

#include "ir/layout/Layout.h"

namespace cutec::detail {

/// CuTe's bw_coalesce: folds flat leaves [0, count) from the back onto the
/// front mode (frontShape, frontStride).
Layout coalesceBackwards(const std::vector<IntTuple> &shapes, const std::vector<IntTuple> &strides,
                         size_t count, IntExpr frontShape, IntExpr frontStride);

/// CuTe's coalesce_x: coalesce that keeps a trailing size-1 mode's stride, so
/// the function is preserved outside the domain as well.
Layout coalesceKeepingTail(const Layout &l);

/// Propagates the error of an llvm::Expected out of the enclosing function,
/// binding its value to `var` otherwise.
#define CUTEC_TRY(var, expr)                                                                       \
  auto var##OrErr = (expr);                                                                        \
  if (!var##OrErr)                                                                                 \
    return var##OrErr.takeError();                                                                 \
  auto &var = *var##OrErr

} // namespace cutec::detail

#endif
