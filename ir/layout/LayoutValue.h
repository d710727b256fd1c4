//===- LayoutValue.h - Values of the layout expression language -----------===//
//
// `cutec layout` and the kernel language's compile-time evaluation share one
// vocabulary of layout functions (CuTe's names). A LayoutValue is what those
// functions take and return: an integer or IntTuple, a Layout, a by-mode
// Tiler, a Swizzle or a swizzled ComposedLayout.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_LAYOUT_LAYOUTVALUE_H
#define CUTEC_IR_LAYOUT_LAYOUTVALUE_H

#include "ir/layout/Swizzle.h"

#include "llvm/ADT/ArrayRef.h"

#include <variant>
#include <vector>

namespace cutec {

struct LayoutValue {
  std::variant<IntTuple, Layout, Tiler, Swizzle, ComposedLayout> value;

  LayoutValue(IntTuple t) : value(std::move(t)) {}
  LayoutValue(Layout l) : value(std::move(l)) {}
  LayoutValue(Tiler t) : value(std::move(t)) {}
  LayoutValue(Swizzle s) : value(s) {}
  LayoutValue(ComposedLayout c) : value(std::move(c)) {}

  template <typename T> const T *get() const { return std::get_if<T>(&value); }
  /// "integer", "tuple", "layout", "tiler", "swizzle" or "swizzled layout".
  std::string kindName() const;
  std::string str() const;
};

/// The comparison rule of the reference vectors: integers and tuples exactly;
/// layouts by identical shapes and identical strides at every leaf whose
/// extent is not 1.
bool layoutValuesMatch(const LayoutValue &actual, const LayoutValue &expected);

/// Calls the layout function `name` (CuTe's names: size, composition,
/// tile_to_shape, ...). Errors name the function and say what was wrong.
llvm::Expected<LayoutValue> callLayoutFunction(llvm::StringRef name,
                                               llvm::ArrayRef<LayoutValue> args);
bool isLayoutFunction(llvm::StringRef name);
/// The names of the layout functions, in table order.
std::vector<llvm::StringRef> layoutFunctionNames();

} // namespace cutec

#endif
