//===- Materialize.h - Symbolic sizes as IR arithmetic --------------------===//
//
// Layout leaves such as ceil_div(K,64) are IntExprs over the kernel's dynamic
// sizes. Wherever the kernel needs one at run time (a loop bound, a slice
// coordinate), it is rebuilt as i32 arith ops over the values of the sizes.
// The front end and the passes share this one translation.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_MATERIALIZE_H
#define CUTEC_IR_CORE_MATERIALIZE_H

#include "ir/core/Builder.h"
#include "ir/layout/IntExpr.h"

#include <functional>

namespace cutec::ir {

/// Emits i32 arithmetic computing `expr` at the builder's insertion point.
/// `symbol` returns the i32 value of a dynamic size (usually the kernel's
/// block argument of that name); when it returns null for some symbol, so
/// does materialize. ceil_div(a,b) becomes (a+b-1)/b and min(a,b) a compare
/// and select; division and remainder assume non-negative operands, as
/// IntExpr does.
Value *materialize(Builder &builder, llvm::SMLoc loc, const IntExpr &expr,
                   const std::function<Value *(llvm::StringRef symbol)> &symbol);

} // namespace cutec::ir

#endif
