//===- RunSizes.cpp - The dynamic sizes of a `cutec run` ------------------===//
#include "tools/cutec/RunSizes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

namespace cutec {
namespace {

constexpr int64_t kMaxSize = std::numeric_limits<int32_t>::max();

llvm::Error overflow(const IntExpr &e) {
  return llvm::createStringError("'" + e.str() + "' overflows 64-bit integers");
}

/// IntExpr::evaluate with every step checked; the same rounding (division
/// toward zero, ceil_div as (a+b-1)/b on positive operands).
llvm::Expected<int64_t> evaluateChecked(const IntExpr &root, const IntExpr &e,
                                        const SizeBindings &sizes) {
  if (e.isStatic())
    return e.staticValue();
  const IntExpr::Node &node = *e.dynamicNode();
  if (node.kind == IntExpr::Kind::Symbol) {
    auto it = sizes.find(node.name);
    if (it == sizes.end())
      return llvm::createStringError("'" + root.str() + "' uses '" + node.name +
                                     "', which is not a dynamic size of the kernel");
    return it->second;
  }
  llvm::SmallVector<int64_t, 4> values;
  for (const IntExpr &operand : node.operands) {
    llvm::Expected<int64_t> value = evaluateChecked(root, operand, sizes);
    if (!value)
      return value.takeError();
    values.push_back(*value);
  }
  int64_t result = node.coeff;
  switch (node.kind) {
  case IntExpr::Kind::Add:
    for (int64_t v : values)
      if (__builtin_add_overflow(result, v, &result))
        return overflow(root);
    return result;
  case IntExpr::Kind::Mul:
    for (int64_t v : values)
      if (__builtin_mul_overflow(result, v, &result))
        return overflow(root);
    return result;
  case IntExpr::Kind::Min:
    return std::min(values[0], values[1]);
  default:
    break;
  }
  auto [a, b] = std::pair(values[0], values[1]);
  if (b == 0)
    return llvm::createStringError("'" + root.str() + "' divides by zero");
  if (b == -1 && a == std::numeric_limits<int64_t>::min())
    return overflow(root);
  if (node.kind == IntExpr::Kind::Div)
    return a / b;
  if (node.kind == IntExpr::Kind::Mod)
    return a % b;
  if (__builtin_add_overflow(a, b - 1, &result))
    return overflow(root);
  return result / b;
}

} // namespace

std::vector<std::string> dynamicSizeNames(const ir::Operation &kernel) {
  std::vector<std::string> names;
  const IntTuple *sizes = kernel.attrAs<IntTuple>("dynamic_sizes");
  if (!sizes)
    return names;
  std::vector<IntTuple> leaves;
  flattenInto(*sizes, leaves);
  for (const IntTuple &leaf : leaves)
    if (leaf.leaf().kind() == IntExpr::Kind::Symbol)
      names.push_back(leaf.leaf().dynamicNode()->name);
  return names;
}

llvm::Expected<SizeBindings> bindDynamicSizes(const ir::Operation &kernel,
                                              const Assignments &defines) {
  std::string kernelName = *kernel.attrAs<std::string>("name");
  std::vector<std::string> names = dynamicSizeNames(kernel);
  std::string known = names.empty() ? "it has none" : "it has " + llvm::join(names, ", ");
  SizeBindings sizes;
  for (const auto &[name, text] : defines) {
    if (!llvm::is_contained(names, name))
      return llvm::createStringError("-D " + name + ": kernel '" + kernelName +
                                     "' has no dynamic size '" + name + "' (" + known + ")");
    int64_t value;
    if (llvm::StringRef(text).trim().getAsInteger(10, value) || value < 1 || value > kMaxSize)
      return llvm::createStringError("-D " + name + "=" + text +
                                     ": a size must be an integer from 1 to " +
                                     llvm::Twine(kMaxSize));
    sizes[name] = value;
  }
  std::vector<std::string> missing;
  llvm::copy_if(names, std::back_inserter(missing),
                [&](const std::string &name) { return !sizes.count(name); });
  if (!missing.empty())
    return llvm::createStringError("missing -D for " + llvm::join(missing, ", ") + ": kernel '" +
                                   kernelName + "' has the dynamic sizes " +
                                   llvm::join(names, ", "));
  return sizes;
}

llvm::Expected<int64_t> evaluateExactly(const IntExpr &e, const SizeBindings &sizes) {
  return evaluateChecked(e, e, sizes);
}

llvm::Expected<rt::Dim3> evaluateDim3(const ir::Operation &kernel, llvm::StringRef attrName,
                                      const SizeBindings &sizes) {
  const IntTuple *tuple = kernel.attrAs<IntTuple>(attrName);
  if (!tuple)
    return llvm::createStringError("the kernel has no '" + attrName + "' attribute");
  std::vector<IntTuple> leaves;
  flattenInto(*tuple, leaves);
  if (leaves.size() > 3)
    return llvm::createStringError(attrName + " " + tuple->str() + " has more than 3 extents");
  uint32_t extents[3] = {1, 1, 1};
  for (size_t i = 0; i < leaves.size(); ++i) {
    llvm::Expected<int64_t> value = evaluateExactly(leaves[i].leaf(), sizes);
    if (!value)
      return llvm::createStringError(attrName + " " + tuple->str() + ": " +
                                     llvm::toString(value.takeError()));
    if (*value < 1 || *value > std::numeric_limits<uint32_t>::max())
      return llvm::createStringError(attrName + " " + tuple->str() + " has the extent " +
                                     llvm::Twine(*value) + " ('" + leaves[i].leaf().str() +
                                     "'), outside [1, 2^32-1]");
    extents[i] = uint32_t(*value);
  }
  return rt::Dim3{extents[0], extents[1], extents[2]};
}

std::string describeSizes(llvm::ArrayRef<std::string> names, const SizeBindings &sizes) {
  std::string text;
  for (const std::string &name : names) {
    auto it = sizes.find(name);
    text += (text.empty() ? "" : ", ") + name + "=" +
            (it == sizes.end() ? std::string("?") : std::to_string(it->second));
  }
  return text;
}

} // namespace cutec
