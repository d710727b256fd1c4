//===- IRGenAssume.cpp - assume= facts about a kernel's dynamic sizes -----===//
//
// `@kernel(..., assume=(divby(K, 64), divby(M, 4)))` states that the dynamic
// size K is a multiple of 64 and M one of 4. The facts become the kernel's
// `assume_divby` attribute, ((K,64),(M,4)) in source order; lower-indexing
// uses them to prove vector accesses aligned, and every launcher checks them
// (docs/language.md, "Assumptions").
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"

#include "llvm/ADT/StringSet.h"

namespace cutec {

void IRGenModule::evalAssumptions(const ast::Expr &expr, ir::Operation &kernel,
                                  llvm::ArrayRef<std::string> dynamicSizes) {
  const ast::Expr *inner = &expr;
  while (const auto *paren = llvm::dyn_cast<ast::ParenExpr>(inner))
    inner = &paren->getInner();
  std::vector<const ast::Expr *> items;
  if (const auto *tuple = llvm::dyn_cast<ast::TupleExpr>(inner))
    for (const auto &e : tuple->getElements())
      items.push_back(e.get());
  else
    items.push_back(inner);

  std::vector<IntTuple> facts;
  llvm::StringSet<> seen;
  for (const ast::Expr *item : items) {
    const auto *call = llvm::dyn_cast<ast::CallExpr>(item);
    const auto *callee = call ? llvm::dyn_cast<ast::NameExpr>(&call->getCallee()) : nullptr;
    if (!callee || callee->getName() != "divby" || call->getArgs().size() != 2 ||
        !call->getKeywords().empty()) {
      error(*item, "an assumption is written divby(SIZE, N): the dynamic size SIZE is a "
                   "multiple of N");
      continue;
    }
    const auto *size = llvm::dyn_cast<ast::NameExpr>(call->getArgs()[0].get());
    if (!size || !llvm::is_contained(dynamicSizes, size->getName().str())) {
      error(*call->getArgs()[0], "divby assumes facts about the dynamic sizes of the parameter "
                                 "types only" +
                                     (size ? ", and '" + size->getName().str() + "' is not one"
                                           : std::string()));
      continue;
    }
    SemaValue divisor = gen.exprs().eval(*call->getArgs()[1]);
    if (divisor.isPoison())
      continue;
    if (!divisor.is(SemaValue::Kind::Int) || !divisor.intValue().isStatic() ||
        divisor.intValue().staticValue() <= 0 ||
        divisor.intValue().staticValue() > (int64_t(1) << 30)) {
      error(*call->getArgs()[1], "divby needs a compile-time integer divisor from 1 to 2^30, "
                                 "not " +
                                     divisor.describe());
      continue;
    }
    if (!seen.insert(size->getName()).second) {
      error(*item, "a second assumption about '" + size->getName() +
                       "': state one divisor per size (their least common multiple)");
      continue;
    }
    facts.push_back(IntTuple::tuple(
        {IntTuple(IntExpr::symbol(size->getName())), IntTuple(divisor.intValue().staticValue())}));
  }
  if (!facts.empty())
    kernel.set(ir::attr::assumeDivby, IntTuple::tuple(std::move(facts)));
}

} // namespace cutec
