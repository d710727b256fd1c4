//===- MaterializeOffset.cpp - Symbolic offsets as i32 IR in a kernel -----===//
#include "passes/lowering/MaterializeOffset.h"

#include "ir/core/DynamicSizes.h"

namespace cutec {

/// The i32 value that `cute.runtime_extent` binds `symbol` (`?N`) to; null
/// when no such op is left.
static ir::Value *runtimeExtent(const ir::Operation &kernel, llvm::StringRef symbol) {
  ir::Value *value = nullptr;
  ir::walk(const_cast<ir::Operation &>(kernel), [&](ir::Operation &op) {
    if (op.kind() == ir::OpKind::RuntimeExtent && *op.get(ir::attr::symbol) == symbol)
      value = op.operand(0);
  });
  return value;
}

ir::Value *materializeOffset(ir::Builder &builder, const ir::Operation &kernel, llvm::SMLoc loc,
                             const IntExpr &expr, llvm::ArrayRef<ir::Value *> slots,
                             PassContext &context) {
  std::string unbound;
  ir::DynamicSizeArguments sizes(kernel);
  ir::Value *value = ir::materialize(builder, loc, expr, [&](llvm::StringRef symbol) {
    unsigned slot;
    ir::Value *v = nullptr;
    if (llvm::StringRef index = symbol; index.consume_front("$")) {
      if (!index.getAsInteger(10, slot) && slot < slots.size())
        v = slots[slot];
    } else if (std::optional<unsigned> arg = sizes.argumentOf(symbol)) {
      v = kernel.regions()[0]->front().argument(*arg);
    } else if (symbol.starts_with("?")) {
      v = runtimeExtent(kernel, symbol);
    }
    if (!v && unbound.empty())
      unbound = symbol.str();
    return v;
  });
  if (!value)
    context.error(loc, "the offset " + expr.str() + " uses '" + unbound +
                           "', which is neither a dynamic size of the kernel, a run-time extent nor a coordinate");
  return value;
}

ir::Value *shiftView(ir::Builder &builder, llvm::SMLoc loc, ir::Value *view, int64_t delta) {
  if (delta == 0)
    return view;
  return shiftView(builder, loc, view, builder.constantInt(loc, ir::DataType::I32, delta));
}

ir::Value *shiftView(ir::Builder &builder, llvm::SMLoc loc, ir::Value *view, ir::Value *delta) {
  ir::Operation *v = view->definingOp();
  ir::Value *offset = builder.createValue(ir::OpKind::Add, loc, ir::Type::scalar(ir::DataType::I32),
                                          {v->operand(1), delta});
  return builder.createValue(ir::OpKind::View, loc, view->type(), {v->operand(0), offset});
}

} // namespace cutec
