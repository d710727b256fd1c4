// OperandMajorMode.K and OperandMajorMode.MN, CuTe DSL's names for which
// mode of an MMA operand is contiguous in shared memory. They are built-in
// values named by their spelling, so they compare, print and flow through
// variables like other built-ins.
#include "frontend/IRGen.h"

namespace cutec {

static constexpr llvm::StringLiteral kMajorK = "OperandMajorMode.K";
static constexpr llvm::StringLiteral kMajorMN = "OperandMajorMode.MN";

std::optional<SemaValue> IRGen::operandMajorModeAttribute(const SemaValue &base,
                                                          llvm::StringRef name) {
  if (!base.is(SemaValue::Kind::Builtin) || base.name() != "OperandMajorMode")
    return std::nullopt;
  if (name == "K")
    return SemaValue::builtin(kMajorK);
  if (name == "MN")
    return SemaValue::builtin(kMajorMN);
  return std::nullopt;
}

std::optional<bool> IRGen::mnMajorArgument(const SemaValue &v, const ast::Expr &expr) {
  if (v.is(SemaValue::Kind::Builtin) && (v.name() == kMajorK || v.name() == kMajorMN))
    return v.name() == kMajorMN;
  if (!v.isPoison())
    error(expr, "a major mode is OperandMajorMode.K or OperandMajorMode.MN, not " + v.describe());
  return std::nullopt;
}

std::optional<bool> IRGen::majorKeyword(CallSite &site) {
  const CallSite::Keyword *major = site.keyword("major");
  if (!major)
    return false;
  return mnMajorArgument(major->value, *major->expr);
}

} // namespace cutec
