//===- RunSizes.cpp - The dynamic sizes of a `cutec run` ------------------===//
#include "run/RunSizes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

namespace cutec {
namespace {

constexpr int64_t kMaxSize = std::numeric_limits<int32_t>::max();

} // namespace

llvm::Expected<SizeBindings> bindDynamicSizes(const ir::Operation &kernel,
                                              const Assignments &defines) {
  std::string kernelName = *kernel.get(ir::attr::name);
  std::vector<std::string> names = ir::dynamicSizeNames(kernel);
  std::vector<std::string> scalars = ir::scalarParameterNames(kernel);
  std::string known = names.empty() ? "it has none" : "it has " + llvm::join(names, ", ");
  if (!scalars.empty())
    known += "; its scalar parameters: " + llvm::join(scalars, ", ");
  SizeBindings sizes;
  for (const auto &[name, text] : defines) {
    if (llvm::is_contained(scalars, name))
      continue; // a scalar parameter: RunParams binds it
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
  std::vector<std::string> symbols;
  e.collectSymbols(symbols);
  for (const std::string &name : symbols)
    if (!sizes.count(name))
      return llvm::createStringError("'" + e.str() + "' uses '" + name +
                                     "', which is not a dynamic size of the kernel");
  // IntExpr's arithmetic flags a step that overflows 64 bits.
  IntExpr::clearOverflow();
  std::optional<int64_t> value = e.evaluate(sizes);
  if (IntExpr::overflowed())
    return llvm::createStringError("'" + e.str() + "' overflows 64-bit integers");
  if (!value)
    return llvm::createStringError("'" + e.str() + "' divides by zero");
  return *value;
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
