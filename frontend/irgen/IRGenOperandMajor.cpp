// OperandMajorMode.K and OperandMajorMode.MN, CuTe DSL's names for which
// mode of an MMA operand is contiguous in shared memory. They are built-in
// values named by their spelling (rows of frontend/Builtins.def), so they
// compare, print and flow through variables like other built-ins.
#include "frontend/irgen/IRGen.h"

namespace cutec {

static constexpr llvm::StringLiteral kMajorK = "OperandMajorMode.K";
static constexpr llvm::StringLiteral kMajorMN = "OperandMajorMode.MN";

std::optional<bool> IRGenTcgen05::mnMajorArgument(const SemaValue &v, const ast::Expr &expr) {
  if (v.is(SemaValue::Kind::Builtin) && (v.name() == kMajorK || v.name() == kMajorMN))
    return v.name() == kMajorMN;
  if (!v.isPoison())
    error(expr, "a major mode is OperandMajorMode.K or OperandMajorMode.MN, not " + v.describe());
  return std::nullopt;
}

std::optional<bool> IRGenTcgen05::majorKeyword(CallSite &site) {
  const CallSite::Keyword *major = site.keyword("major");
  if (!major)
    return false;
  return mnMajorArgument(major->value, *major->expr);
}

} // namespace cutec
