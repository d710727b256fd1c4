//===- TileToShape.cpp - Fold layout constructors into concrete layouts ---===//
//
// A layout written inside a kernel body (tile_to_shape of an atom, a
// make_layout, a composition...) reaches the IR as `layout.call` over other
// layouts and integers. This pass evaluates each call whose operands are
// known, with the same function table `cutec layout` uses, and replaces it by
// a `layout.constant`. Errors of the algebra (a tile that does not divide, a
// non-injective layout) are reported at the call.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "ir/core/Builder.h"
#include "ir/layout/LayoutValue.h"

namespace cutec {
namespace {

using namespace ir;

/// The compile-time value of a layout.call operand, if it has one.
std::optional<LayoutValue> constantValue(const Value *v) {
  const Operation *def = v->definingOp();
  if (!def)
    return std::nullopt;
  if (def->kind() == OpKind::LayoutConstant)
    if (const Layout *l = def->get(attr::layout))
      return LayoutValue(*l);
  if (def->kind() == OpKind::Constant)
    if (const int64_t *i = def->get<int64_t>(attr::value))
      return LayoutValue(IntTuple(*i));
  return std::nullopt;
}

class TileToShapePass : public Pass {
public:
  llvm::StringRef name() const override { return "tile-to-shape"; }

  void run(Operation &kernel, PassContext &context) override {
    // Program order is definition order, so a call's layout operands are
    // folded before the call itself.
    for (Operation *call : collect(kernel, OpKind::LayoutCall))
      fold(kernel, *call, context);
  }

private:
  void fold(Operation &kernel, Operation &call, PassContext &context) {
    const std::string *function = call.get(attr::function);
    if (!function)
      return context.error(call.loc(), "layout.call without a 'function'");
    std::vector<LayoutValue> args;
    for (const Value *v : call.operands()) {
      std::optional<LayoutValue> arg = constantValue(v);
      if (!arg)
        return context.error(call.loc(), "the arguments of " + *function +
                                             " must be known at compile time");
      args.push_back(std::move(*arg));
    }
    auto result = callLayoutFunction(*function, args);
    if (!result)
      return context.error(call.loc(), llvm::toString(result.takeError()));
    const Layout *layout = result->get<Layout>();
    if (!layout)
      return context.error(call.loc(), *function + " gives the " + result->kindName() + " " +
                                           result->str() + ", not a layout");
    Builder b;
    b.setInsertionPoint(call);
    Operation &constant = b.create(OpKind::LayoutConstant, call.loc(), {}, {Type::layout()});
    constant.set(attr::layout, *layout);
    replaceAllUsesWith(kernel, call.result(), constant.result());
    erase(call);
  }
};

} // namespace

std::unique_ptr<Pass> createTileToShapePass() { return std::make_unique<TileToShapePass>(); }

} // namespace cutec
