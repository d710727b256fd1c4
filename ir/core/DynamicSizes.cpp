//===- DynamicSizes.cpp - A kernel's dynamic sizes and their arguments ----===//
#include "ir/core/DynamicSizes.h"

namespace cutec::ir {

std::vector<std::string> dynamicSizeNames(const Operation &kernel) {
  std::vector<std::string> names;
  const IntTuple *sizes = kernel.get(attr::dynamicSizes);
  if (!sizes)
    return names;
  std::vector<IntTuple> leaves;
  flattenInto(*sizes, leaves);
  for (const IntTuple &leaf : leaves)
    if (leaf.leaf().kind() == IntExpr::Kind::Symbol)
      names.push_back(leaf.leaf().dynamicNode()->name);
  return names;
}

DynamicSizeArguments::DynamicSizeArguments(const Operation &kernel) {
  llvm::ArrayRef<std::unique_ptr<Value>> arguments = kernel.regions()[0]->front().arguments();
  for (std::string &name : dynamicSizeNames(kernel)) {
    // The textual IR keeps the link as the argument's name (%M for M).
    auto carrier = llvm::find_if(arguments, [&](const std::unique_ptr<Value> &arg) {
      return arg->type().isScalar() && arg->nameHint() == name;
    });
    if (carrier != arguments.end())
      sizes.push_back({std::move(name), (*carrier)->index()});
  }
}

std::optional<unsigned> DynamicSizeArguments::argumentOf(llvm::StringRef name) const {
  for (const SizeArgument &size : sizes)
    if (size.name == name)
      return size.index;
  return std::nullopt;
}

const std::string *DynamicSizeArguments::sizeAt(unsigned index) const {
  for (const SizeArgument &size : sizes)
    if (size.index == index)
      return &size.name;
  return nullptr;
}

} // namespace cutec::ir
