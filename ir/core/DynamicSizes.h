//===- DynamicSizes.h - A kernel's dynamic sizes and their arguments ------===//
//
// The dynamic sizes of a kernel's tensor types (M, K, ...) are named in its
// `dynamic_sizes` attribute, in parameter order, and each is carried by the
// i32 entry-block argument of the same name. DynamicSizeArguments is the one
// place that links a size to its argument; everything else asks it, by
// the size's name or by the argument's index.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_DYNAMICSIZES_H
#define CUTEC_IR_CORE_DYNAMICSIZES_H

#include "ir/core/IR.h"

#include <optional>
#include <string>
#include <vector>

namespace cutec::ir {

/// The names in the kernel's `dynamic_sizes` attribute, in parameter order.
std::vector<std::string> dynamicSizeNames(const Operation &kernel);

/// Which entry-block argument carries each dynamic size of a kernel.
class DynamicSizeArguments {
public:
  explicit DynamicSizeArguments(const Operation &kernel);

  /// The index of the argument that carries size `name`; nullopt when the
  /// kernel has no such size, or no argument for it.
  std::optional<unsigned> argumentOf(llvm::StringRef name) const;
  /// The size that argument `index` carries; null when it carries none.
  const std::string *sizeAt(unsigned index) const;

private:
  struct SizeArgument {
    std::string name;
    unsigned index;
  };
  std::vector<SizeArgument> sizes;
};

} // namespace cutec::ir

#endif
