//===- LaunchChecks.cpp - What every launcher of a kernel must check ------===//
#include "ir/core/LaunchChecks.h"

namespace cutec::ir {

bool gridUsesSmCount(const Operation &kernel) {
  const IntTuple *grid = kernel.get(attr::grid);
  if (!grid)
    return false;
  std::vector<std::string> names;
  for (const IntTuple &dim : grid->elements())
    dim.leaf().collectSymbols(names);
  return llvm::is_contained(names, kSmCountSize);
}

int64_t tensorBaseAlignment(const Operation &kernel, llvm::StringRef name) {
  if (const IntTuple *facts = kernel.get(attr::assumeAligned); facts && !facts->isLeaf())
    for (const IntTuple &fact : facts->elements())
      if (!fact.isLeaf() && fact.elements().size() == 2 && fact.elements()[0].leaf().str() == name &&
          fact.elements()[1].leaf().isStatic())
        return fact.elements()[1].leaf().staticValue();
  return kTensorBaseAlignment;
}

std::vector<LaunchCheck> launchChecks(const Operation &kernel) {
  std::vector<LaunchCheck> checks;
  for (const auto &arg : kernel.regions()[0]->blocks().front()->arguments())
    if (arg->type().isTensor())
      checks.push_back({arg->nameHint(), tensorBaseAlignment(kernel, arg->nameHint()), true});
  if (const IntTuple *facts = kernel.get(attr::assumeDivby); facts && !facts->isLeaf())
    for (const IntTuple &fact : facts->elements())
      if (!fact.isLeaf() && fact.elements().size() == 2 && fact.elements()[1].leaf().isStatic())
        checks.push_back(
            {fact.elements()[0].leaf().str(), fact.elements()[1].leaf().staticValue(), false});
  return checks;
}

std::string printLaunchChecks(const Operation &kernel, const std::string &access,
                              const std::string &indent) {
  std::string text;
  for (const LaunchCheck &c : launchChecks(kernel)) {
    std::string value = "static_cast<unsigned long long>(" + access + c.field + ")";
    std::string divisor = std::to_string(c.divisor);
    std::string format;
    if (!c.isAddress)
      format = c.field + " = %llu breaks the kernel's assumption divby(" + c.field + ", " +
               divisor + "): it is not a multiple of " + divisor;
    else if (c.divisor == kTensorBaseAlignment)
      format = "the address of " + c.field + " (0x%llx) is not a multiple of " + divisor +
               " bytes, as every tensor parameter's must be";
    else
      format = "the address of " + c.field + " (0x%llx) breaks the kernel's assumption aligned(" +
               c.field + ", " + divisor + "): it is not a multiple of " + divisor + " bytes";
    text += indent + "if (" + value + " % " + divisor + "u != 0) {\n";
    text += indent + "  std::snprintf(message, size, \"" + format + "\", " + value + ");\n";
    text += indent + "  return false;\n" + indent + "}\n";
  }
  return text;
}

} // namespace cutec::ir
