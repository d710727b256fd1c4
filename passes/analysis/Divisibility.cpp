//===- Divisibility.cpp - Powers of two that divide integer IR values -----===//
#include "passes/analysis/Divisibility.h"

#include "ir/core/DynamicSizes.h"
#include "ir/core/LaunchChecks.h"

#include <algorithm>
#include <bit>

namespace cutec {

namespace attr = ir::attr;
using ir::OpKind;

namespace {
unsigned ctz(int64_t v) { return v == 0 ? 64 : unsigned(std::countr_zero(uint64_t(v))); }
} // namespace

Divisibility::Divisibility(const ir::Operation &kernel) : kernel(kernel) {
  const IntTuple *facts = kernel.get(attr::assumeDivby);
  if (!facts || facts->isLeaf())
    return;
  ir::DynamicSizeArguments sizes(kernel);
  for (const IntTuple &fact : facts->elements()) {
    if (fact.isLeaf() || fact.elements().size() != 2)
      continue;
    const IntExpr &size = fact.elements()[0].leaf();
    const IntExpr &divisor = fact.elements()[1].leaf();
    if (size.kind() != IntExpr::Kind::Symbol || !divisor.isStatic() || divisor.staticValue() <= 0)
      continue;
    if (std::optional<unsigned> arg = sizes.argumentOf(size.dynamicNode()->name))
      assumed[*arg] = ctz(divisor.staticValue());
  }
}

unsigned Divisibility::trailingZeros(const ir::Value *v) {
  auto it = known.find(v);
  if (it != known.end())
    return it->second;
  unsigned zeros = compute(v);
  known[v] = zeros;
  return zeros;
}

int64_t Divisibility::powerOfTwoDivisor(const ir::Value *v, int64_t cap) {
  unsigned zeros = std::min(trailingZeros(v), 62u);
  return std::min(int64_t(1) << zeros, cap);
}

unsigned Divisibility::compute(const ir::Value *v) {
  if (!v->type().isScalar() || !ir::isInteger(v->type().element()))
    return 0;
  const ir::Operation *op = v->definingOp();
  if (!op) {
    // A block argument: a dynamic size of the kernel, or a loop's
    // induction variable (start + i * step).
    const ir::Operation *owner = v->ownerBlock()->parent()->parent();
    if (owner == &kernel) {
      auto fact = assumed.find(v->index());
      return fact == assumed.end() ? 0 : fact->second;
    }
    if (owner->kind() == OpKind::For && v->index() == 0)
      return std::min(trailingZeros(owner->operand(0)), trailingZeros(owner->operand(2)));
    return 0;
  }
  auto operand = [&](unsigned i) { return trailingZeros(op->operand(i)); };
  switch (op->kind()) {
  case OpKind::Constant:
    if (const int64_t *value = op->get<int64_t>(attr::value))
      return ctz(*value);
    return 0;
  case OpKind::Add:
  case OpKind::Sub:
    return std::min(operand(0), operand(1));
  case OpKind::Mul:
    return std::min(operand(0) + operand(1), 64u);
  case OpKind::Neg:
    return operand(0);
  case OpKind::Convert:
  case OpKind::Bitcast:
    // Integer widening or reinterpretation keeps the low bits.
    if (ir::isInteger(op->operand(0)->type().element()) &&
        ir::bitWidth(v->type().element()) >= ir::bitWidth(op->operand(0)->type().element()))
      return operand(0);
    return 0;
  case OpKind::ShiftRight: {
    const ir::Operation *amount = op->operand(1)->definingOp();
    const int64_t *shift =
        amount && amount->kind() == OpKind::Constant ? amount->get<int64_t>(attr::value) : nullptr;
    if (!shift || *shift < 0)
      return 0;
    if (operand(0) == 64)
      return 64;
    return operand(0) > *shift ? unsigned(operand(0) - *shift) : 0;
  }
  case OpKind::BitAnd:
    return std::max(operand(0), operand(1));
  case OpKind::BaseAddress: {
    // A tensor parameter starts at a multiple of 16 bytes, or of what an
    // `assume_aligned` fact states.
    const ir::Value *tensor = op->operand(0);
    if (tensor->definingOp() || !tensor->type().isTensor() ||
        tensor->ownerBlock()->parent()->parent() != &kernel)
      return 0;
    return ctz(ir::tensorBaseAlignment(kernel, tensor->nameHint()));
  }
  case OpKind::Rem:
    // a - (a / b) * b: b's and a's common low zeros survive.
    return std::min(operand(0), operand(1));
  default:
    return 0;
  }
}

} // namespace cutec
