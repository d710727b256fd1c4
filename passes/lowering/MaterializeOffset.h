//===- MaterializeOffset.h - Symbolic offsets as i32 IR in a kernel -------===//
//
// The passes that turn layouts into index arithmetic (partition,
// lower-indexing) bind the same symbols the same way: a dynamic size is the
// kernel's entry argument of that name, `$i` in a slice pattern is the
// slice's operand i+1, and a run-time extent `?N` is the operand of the
// `cute.runtime_extent` that names it. This is the one place that binds them.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_PASSES_LOWERING_MATERIALIZEOFFSET_H
#define CUTEC_PASSES_LOWERING_MATERIALIZEOFFSET_H

#include "ir/core/Materialize.h"
#include "passes/Pass.h"

namespace cutec {

/// Emits `expr` at the builder's insertion point. `slots` are the values of
/// `$0`, `$1`, ... An unbound symbol is reported at `loc`; returns null then.
ir::Value *materializeOffset(ir::Builder &builder, const ir::Operation &kernel, llvm::SMLoc loc,
                             const IntExpr &expr, llvm::ArrayRef<ir::Value *> slots,
                             PassContext &context);

/// A view of `view`'s base at `view`'s offset plus `delta` (a static number
/// of elements, or an i32 value); `view` itself when the delta is 0.
ir::Value *shiftView(ir::Builder &builder, llvm::SMLoc loc, ir::Value *view, int64_t delta);
ir::Value *shiftView(ir::Builder &builder, llvm::SMLoc loc, ir::Value *view, ir::Value *delta);

} // namespace cutec

#endif
