//===- LayoutCommand.h - `cutec layout`: evaluate layout algebra ----------===//
#ifndef CUTEC_TOOLS_LAYOUTCOMMAND_H
#define CUTEC_TOOLS_LAYOUTCOMMAND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace cutec {

struct LayoutCommandOptions {
  /// The expression to evaluate; none means one per line from `input`.
  std::optional<std::string> expression;
  bool check = false; // compare with `=> EXPECTED` and report mismatches
  bool draw = false;  // print the index table after the result
  std::string svgPath; // write the index table as SVG here
};

/// Runs `cutec layout`; returns the process exit code.
int runLayoutCommand(const LayoutCommandOptions &options, llvm::StringRef inputName,
                     llvm::StringRef input, llvm::raw_ostream &out);

} // namespace cutec

#endif
