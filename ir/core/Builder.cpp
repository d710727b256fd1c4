//===- Builder.cpp - Creates operations at an insertion point -------------===//
#include "ir/core/Builder.h"

#include "llvm/ADT/DenseMap.h"

namespace cutec::ir {

void Builder::setInsertionPoint(Operation &op) {
  block = op.parentBlock();
  point = op.position();
}

Operation &Builder::create(OpKind kind, llvm::SMLoc loc, llvm::ArrayRef<Value *> operands,
                           llvm::ArrayRef<Type> resultTypes) {
  auto op = std::make_unique<Operation>(kind, loc);
  op->setOperands(operands);
  for (const Type &t : resultTypes)
    op->addResult(t);
  Operation &created = *op;
  Operation::Position at = block->operations().insert(point, std::move(op));
  created.setParentBlock(block, at);
  return created;
}

Value *Builder::createValue(OpKind kind, llvm::SMLoc loc, Type type,
                            llvm::ArrayRef<Value *> operands) {
  return create(kind, loc, operands, {type}).result();
}

Value *Builder::constantInt(llvm::SMLoc loc, DataType type, int64_t value) {
  Operation &op = create(OpKind::Constant, loc, {}, {Type::scalar(type)});
  op.set(attr::value, value);
  return op.result();
}

Value *Builder::constantFloat(llvm::SMLoc loc, DataType type, double value) {
  Operation &op = create(OpKind::Constant, loc, {}, {Type::scalar(type)});
  op.set(attr::value, value);
  return op.result();
}

void Builder::insertAll(Block &from) {
  auto &ops = from.operations();
  while (!ops.empty()) {
    Operation::Position first = ops.begin();
    Operation &op = **first;
    // splice keeps the iterator valid, now into this block's list.
    block->operations().splice(point, ops, first);
    op.setParentBlock(block, first);
  }
}

void erase(Operation &op) { op.parentBlock()->operations().erase(op.position()); }

bool eraseDeadPureOps(Operation &root) {
  llvm::DenseMap<const Value *, unsigned> uses;
  std::vector<Operation *> ops;
  walk(root, [&](Operation &op) {
    ops.push_back(&op);
    for (Value *v : op.operands())
      ++uses[v];
  });
  // Walk order is definition order: backwards, an op's users have been
  // decided before it, so a chain that only feeds dead ops goes at once.
  bool erased = false;
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    Operation &op = **it;
    if (!isPure(op.kind()) || !op.regions().empty() ||
        llvm::any_of(op.results(), [&](const auto &r) { return uses.lookup(r.get()) > 0; }))
      continue;
    for (Value *v : op.operands())
      --uses[v];
    erase(op);
    erased = true;
  }
  return erased;
}

void moveBefore(Operation &op, Operation &anchor) {
  Block *to = anchor.parentBlock();
  // splice keeps the iterator valid, now into `to`'s list.
  to->operations().splice(anchor.position(), op.parentBlock()->operations(), op.position());
  op.setParentBlock(to, op.position());
}

} // namespace cutec::ir
