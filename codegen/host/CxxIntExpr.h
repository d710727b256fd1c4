//===- CxxIntExpr.h - Symbolic sizes as C++ expressions -------------------===//
//
// The host launcher and the emulation compute grids and tensor-map extents
// from the kernel's dynamic sizes at launch. This prints an IntExpr as a C++
// expression over uint64_t, reading each size the way the caller says, and
// remembers which helper lambdas (div, mod, ceil_div, min) it called so the
// caller can define them first.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_HOST_CXXINTEXPR_H
#define CUTEC_CODEGEN_HOST_CXXINTEXPR_H

#include "ir/layout/IntExpr.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <set>

namespace cutec::host {

class CxxIntExpr {
public:
  /// `sizes` are the names that may occur; `read` gives the C++ that reads
  /// one (e.g. "uint64_t{args.M}"); `what` names the expressions' owner in
  /// errors ("the grid of kernel 'k'").
  CxxIntExpr(std::string what, const llvm::StringSet<> &sizes,
             std::function<std::string(llvm::StringRef)> read);

  llvm::Expected<std::string> print(const IntExpr &e);
  /// The definitions of the helpers printed expressions call, one per line,
  /// each after `indent`. A division by zero gives 0 instead of trapping.
  std::string helperDefinitions(llvm::StringRef indent) const;

private:
  std::string what;
  const llvm::StringSet<> &sizes;
  std::function<std::string(llvm::StringRef)> read;
  std::set<IntExpr::Kind> used;
};

} // namespace cutec::host

#endif
