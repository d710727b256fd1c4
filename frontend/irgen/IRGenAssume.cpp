//===- IRGenAssume.cpp - assume= facts about a kernel's launch arguments --===//
//
// `@kernel(..., assume=(divby(K, 64), divby(M, 4), aligned(mC, 32)))` states
// that the dynamic size K is a multiple of 64, M one of 4, and that the
// tensor parameter mC starts at a multiple of 32 bytes. The facts become the
// kernel's `assume_divby` attribute, ((K,64),(M,4)), and `assume_aligned`,
// ((mC,32)), in source order; lower-indexing and wide-stores use them to
// prove vector accesses aligned, and every launcher checks them
// (docs/language.md, "Assumptions").
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"

#include "ir/core/LaunchChecks.h"

#include "llvm/ADT/StringSet.h"

namespace cutec {

namespace {

/// What one `assume=` item may state.
struct AssumptionForm {
  llvm::StringRef callee;
  /// Whether its first argument names a tensor parameter (else a dynamic
  /// size).
  bool aboutTensors;
};

constexpr AssumptionForm kAssumptionForms[] = {{"divby", false}, {"aligned", true}};

} // namespace

void IRGenModule::evalAssumptions(const ast::Expr &expr, ir::Operation &kernel,
                                  llvm::ArrayRef<std::string> dynamicSizes,
                                  llvm::ArrayRef<std::string> tensors) {
  const ast::Expr *inner = &expr;
  while (const auto *paren = llvm::dyn_cast<ast::ParenExpr>(inner))
    inner = &paren->getInner();
  std::vector<const ast::Expr *> items;
  if (const auto *tuple = llvm::dyn_cast<ast::TupleExpr>(inner))
    for (const auto &e : tuple->getElements())
      items.push_back(e.get());
  else
    items.push_back(inner);

  std::vector<IntTuple> divisors, alignments;
  llvm::StringSet<> seen;
  for (const ast::Expr *item : items) {
    const auto *call = llvm::dyn_cast<ast::CallExpr>(item);
    const auto *callee = call ? llvm::dyn_cast<ast::NameExpr>(&call->getCallee()) : nullptr;
    const AssumptionForm *form = nullptr;
    for (const AssumptionForm &f : kAssumptionForms)
      if (callee && callee->getName() == f.callee)
        form = &f;
    if (!form || call->getArgs().size() != 2 || !call->getKeywords().empty()) {
      error(*item, "an assumption is written divby(SIZE, N): the dynamic size SIZE is a "
                   "multiple of N, or aligned(TENSOR, N): the tensor parameter TENSOR starts at "
                   "a multiple of N bytes");
      continue;
    }
    llvm::ArrayRef<std::string> subjects = form->aboutTensors ? tensors : dynamicSizes;
    const auto *subject = llvm::dyn_cast<ast::NameExpr>(call->getArgs()[0].get());
    if (!subject || !llvm::is_contained(subjects, subject->getName().str())) {
      error(*call->getArgs()[0],
            form->callee + " assumes facts about the " +
                (form->aboutTensors ? "tensor parameters" : "dynamic sizes of the parameter types") +
                " only" +
                (subject ? ", and '" + subject->getName().str() + "' is not one" : std::string()));
      continue;
    }
    SemaValue n = gen.exprs().eval(*call->getArgs()[1]);
    if (n.isPoison())
      continue;
    bool isInt = n.is(SemaValue::Kind::Int) && n.intValue().isStatic();
    int64_t value = isInt ? n.intValue().staticValue() : 0;
    if (form->aboutTensors &&
        (!isInt || value < ir::kTensorBaseAlignment || value > (int64_t(1) << 30) ||
         !llvm::isPowerOf2_64(uint64_t(value)))) {
      error(*call->getArgs()[1], "aligned needs a compile-time power of two from " +
                                     llvm::Twine(ir::kTensorBaseAlignment) +
                                     " to 2^30 bytes, not " + n.describe());
      continue;
    }
    if (!form->aboutTensors && (!isInt || value <= 0 || value > (int64_t(1) << 30))) {
      error(*call->getArgs()[1],
            "divby needs a compile-time integer divisor from 1 to 2^30, not " + n.describe());
      continue;
    }
    if (!seen.insert(subject->getName()).second) {
      error(*item, "a second assumption about '" + subject->getName() + "': state one " +
                       (form->aboutTensors ? "alignment per tensor (the largest)"
                                           : "divisor per size (their least common multiple)"));
      continue;
    }
    (form->aboutTensors ? alignments : divisors)
        .push_back(IntTuple::tuple(
            {IntTuple(IntExpr::symbol(subject->getName())), IntTuple(value)}));
  }
  if (!divisors.empty())
    kernel.set(ir::attr::assumeDivby, IntTuple::tuple(std::move(divisors)));
  if (!alignments.empty())
    kernel.set(ir::attr::assumeAligned, IntTuple::tuple(std::move(alignments)));
}

} // namespace cutec
