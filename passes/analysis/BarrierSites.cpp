//===- BarrierSites.cpp - The mbarriers that operations use ---------------===//
#include "passes/analysis/BarrierSites.h"

namespace cutec {

using namespace ir;

const Operation *allocationOf(const Value *v) {
  const Operation *def = v->definingOp();
  while (def && def->kind() != OpKind::SmemAlloc && !def->operands().empty())
    def = def->operand(0)->definingOp();
  return def && def->kind() == OpKind::SmemAlloc ? def : nullptr;
}

int64_t tensorBytes(const Type &t) {
  return (size(filterZeros(t.tensorLayout())).staticValue() * bitWidth(t.element()) + 7) / 8;
}

const Value *mbarrierOperand(const Operation &op) {
  switch (op.kind()) {
  case OpKind::MbarrierInit:
  case OpKind::MbarrierArrive:
  case OpKind::MbarrierExpectTx:
  case OpKind::MbarrierWait:
  case OpKind::UmmaCommit:
    return op.operand(0);
  case OpKind::TmaLoad:
    return op.operand(2);
  case OpKind::ClcTryCancel:
    return op.operand(1);
  default:
    return nullptr;
  }
}

std::string barrierElement(const Value *bar) {
  const Operation *def = bar->definingOp();
  if (!def || def->kind() != OpKind::Slice || def->operands().size() > 1)
    return "*";
  const IntTuple *coord = def->get(attr::coord);
  return coord ? coord->str() : "*";
}

const Value *barrierIndex(const Value *bar) {
  const Operation *def = bar->definingOp();
  return def && def->kind() == OpKind::Slice && def->operands().size() == 2 ? def->operand(1)
                                                                            : nullptr;
}

int64_t ctaGroupOf(const Operation &op) {
  const int64_t *group = op.get(attr::ctaGroup);
  return group ? *group : 1;
}

} // namespace cutec
