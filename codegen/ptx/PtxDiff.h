//===- PtxDiff.h - Compare PTX up to comments and register numbering ------===//
//
// Golden-file tests of PTX should fail on a changed instruction, not on a
// renumbered register. ptx-diff normalises both files before comparing:
// comments and blank lines go, white space is folded, and virtual registers
// (%r12, %rd3, %p1...) and labels ($L__loop_0, ...) are renamed in order of
// first appearance within each file; `.reg` declarations lose their counts.
// Two files are equivalent when their normal forms are equal. Otherwise the
// result is a unified diff of the normal forms.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_PTX_PTXDIFF_H
#define CUTEC_CODEGEN_PTX_PTXDIFF_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cutec::ptx {

/// The normal form of a PTX text, one line per statement or label.
std::vector<std::string> normalizePtx(llvm::StringRef text);

/// A unified diff (3 lines of context) of the normal forms of `a` and `b`,
/// with `---`/`+++` headers naming them; empty when they are equivalent.
std::string diffPtx(llvm::StringRef a, llvm::StringRef aName, llvm::StringRef b,
                    llvm::StringRef bName);

} // namespace cutec::ptx

#endif
