//===- RunAssignments.cpp - NAME=VALUE options of `cutec run` -------------===//
#include "run/RunAssignments.h"

#include "llvm/ADT/STLExtras.h"

namespace cutec {

llvm::Expected<Assignments> parseAssignments(llvm::ArrayRef<std::string> items,
                                             llvm::StringRef option) {
  Assignments result;
  for (llvm::StringRef item : items) {
    auto [name, value] = item.split('=');
    name = name.trim();
    if (name.empty() || value.empty() || !item.contains('='))
      return llvm::createStringError(option + " '" + item + "' is not NAME=VALUE");
    if (findAssignment(result, name))
      return llvm::createStringError(option + " gives '" + name + "' twice");
    result.push_back({name.str(), value.str()});
  }
  return result;
}

const Assignment *findAssignment(const Assignments &assignments, llvm::StringRef name) {
  auto it = llvm::find_if(assignments, [&](const Assignment &a) { return a.name == name; });
  return it == assignments.end() ? nullptr : &*it;
}

} // namespace cutec
