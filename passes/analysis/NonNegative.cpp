//===- NonNegative.cpp - Integer IR values that are never negative --------===//
#include "passes/analysis/NonNegative.h"

namespace cutec {

namespace attr = ir::attr;
using ir::OpKind;

NonNegative::NonNegative(const ir::Operation &kernel) : kernel(kernel), sizes(kernel) {}

bool NonNegative::known(const ir::Value *v) {
  auto it = memo.find(v);
  if (it != memo.end())
    return it->second;
  bool result = compute(v);
  memo[v] = result;
  return result;
}

bool NonNegative::compute(const ir::Value *v) {
  if (!v->type().isScalar() || !ir::isInteger(v->type().element()))
    return false;
  const ir::Operation *op = v->definingOp();
  if (!op) {
    const ir::Operation *owner = v->ownerBlock()->parent()->parent();
    if (owner == &kernel)
      return sizes.sizeAt(v->index()) != nullptr;
    // An induction variable: start, start + step, ... with step > 0.
    if (owner->kind() != OpKind::For || v->index() != 0)
      return false;
    std::optional<int64_t> step = ir::intConstantOf(owner->operand(2));
    return step && *step > 0 && known(owner->operand(0));
  }
  auto operand = [&](unsigned i) { return known(op->operand(i)); };
  switch (op->kind()) {
  case OpKind::Constant: {
    const int64_t *value = op->get<int64_t>(attr::value);
    return value && *value >= 0;
  }
  case OpKind::BlockIdx:
  case OpKind::ThreadIdx:
  case OpKind::GridDim:
  case OpKind::LaneIdx:
  case OpKind::WarpIdx:
  case OpKind::DynamicSize:
    return true;
  case OpKind::Add:
  case OpKind::Mul:
  case OpKind::Div:
  case OpKind::Rem:
    return operand(0) && operand(1);
  case OpKind::ShiftRight:
    return operand(0);
  case OpKind::BitAnd:
    return operand(0) || operand(1);
  case OpKind::Select:
    return operand(1) && operand(2);
  case OpKind::Convert:
  case OpKind::Bitcast: {
    // Zero extension is never negative; sign extension and a same-width
    // reinterpretation keep a known signed value's sign. An unsigned value
    // of the same width may have its top bit set.
    ir::DataType from = op->operand(0)->type().element();
    if (!ir::isInteger(from))
      return false;
    unsigned fromBits = ir::bitWidth(from), toBits = ir::bitWidth(v->type().element());
    if (ir::typeClass(from) != ir::DataTypeClass::SignedInt)
      return toBits > fromBits;
    return toBits >= fromBits && operand(0);
  }
  default:
    return false;
  }
}

} // namespace cutec
