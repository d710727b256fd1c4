//===- PtxDiffCommand.h - `cutec ptx-diff A.ptx B.ptx` --------------------===//
#ifndef CUTEC_TOOLS_PTXDIFFCOMMAND_H
#define CUTEC_TOOLS_PTXDIFFCOMMAND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace cutec {

/// Compares two PTX files up to comments, blank lines, white space and
/// consistent renaming of registers and labels. Prints a unified diff of the
/// normal forms when they differ. Returns 0 when equivalent, 1 when
/// different, 2 when a file cannot be read.
int runPtxDiffCommand(llvm::StringRef pathA, llvm::StringRef pathB, llvm::raw_ostream &out,
                      llvm::raw_ostream &err);

} // namespace cutec

#endif
