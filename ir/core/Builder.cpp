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
  op.setAttr("value", value);
  return op.result();
}

Value *Builder::constantFloat(llvm::SMLoc loc, DataType type, double value) {
  Operation &op = create(OpKind::Constant, loc, {}, {Type::scalar(type)});
  op.setAttr("value", value);
  return op.result();
}

void erase(Operation &op) { op.parentBlock()->operations().erase(op.position()); }

bool eraseDeadPureOps(Operation &root) {
  llvm::DenseMap<const Value *, unsigned> uses;
  walk(root, [&](Operation &op) {
    for (Value *v : op.operands())
      ++uses[v];
  });
  std::vector<Operation *> dead;
  walk(root, [&](Operation &op) {
    if (!isPure(op.kind()) || !op.regions().empty())
      return;
    for (const auto &r : op.results())
      if (uses.lookup(r.get()))
        return;
    dead.push_back(&op);
  });
  // Erase users before the values they use: walk order is definition
  // order, so go backwards.
  for (auto it = dead.rbegin(); it != dead.rend(); ++it)
    erase(**it);
  return !dead.empty();
}

void moveBefore(Operation &op, Operation &anchor) {
  Block *to = anchor.parentBlock();
  // splice keeps the iterator valid, now into `to`'s list.
  to->operations().splice(anchor.position(), op.parentBlock()->operations(), op.position());
  op.setParentBlock(to, op.position());
}

} // namespace cutec::ir
