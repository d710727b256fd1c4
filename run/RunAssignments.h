//===- RunAssignments.h - NAME=VALUE options of `cutec run` ---------------===//
//
// -D, --arg and --out each take NAME=VALUE; one parser gives them the same
// rules and messages: a name and a value are required, a name once.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_RUNASSIGNMENTS_H
#define CUTEC_TOOLS_RUNASSIGNMENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cutec {

struct Assignment {
  std::string name;
  std::string value;
};

/// In command-line order, so that errors name the first mistake.
using Assignments = std::vector<Assignment>;

/// Parses each `NAME=VALUE` of `option` (e.g. "--arg", for messages).
llvm::Expected<Assignments> parseAssignments(llvm::ArrayRef<std::string> items,
                                             llvm::StringRef option);

/// The assignment to `name`, or null.
const Assignment *findAssignment(const Assignments &assignments, llvm::StringRef name);

} // namespace cutec

#endif
