//===- LayoutExprParser.h - Parse and evaluate layout expressions ---------===//
//
// The notation of `cutec layout` and of the reference vectors:
//   integers 12, dynamic names M, arithmetic M*K ceil_div(M,128),
//   tuples (4,(2,2)), layouts SHAPE:STRIDE, by-mode tilers [4:1,(2,2):(1,4)],
//   the wildcard _, swizzles S<3,4,3> and swizzled layouts S<3,4,3> o 0 o L,
//   and calls of the layout functions: tile_to_shape(L, (M,K,L), (2,1,3)).
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_LAYOUT_LAYOUTEXPRPARSER_H
#define CUTEC_IR_LAYOUT_LAYOUTEXPRPARSER_H

#include "ir/layout/LayoutValue.h"

namespace cutec {

struct LayoutExprResult {
  std::optional<LayoutValue> value;
  /// On failure: what went wrong, and where (a byte offset into the text).
  std::string error;
  size_t errorOffset = 0;
};

/// Parses `text` as one expression and evaluates it.
LayoutExprResult evaluateLayoutExpr(llvm::StringRef text);

} // namespace cutec

#endif
