//===- FmaContraction.cpp - add(mul(x, y), z) into fma(x, y, z) -----------===//
#include "passes/transforms/FmaContraction.h"

#include "ir/core/Builder.h"

#include "llvm/ADT/DenseMap.h"

namespace cutec {

using namespace ir;

void contractMultiplyAdds(Operation &kernel, llvm::function_ref<bool(const Operation &)> fuse) {
  const Type f32 = Type::scalar(DataType::F32);
  llvm::DenseMap<const Value *, unsigned> uses;
  std::vector<Operation *> adds;
  walk(kernel, [&](Operation &op) {
    for (Value *v : op.operands())
      ++uses[v];
    if (op.kind() == OpKind::Add && op.result()->type() == f32)
      adds.push_back(&op);
  });
  std::vector<Operation *> replaced;
  for (Operation *add : adds)
    for (unsigned i : {1u, 0u}) {
      Operation *mul = add->operand(i)->definingOp();
      if (!mul || mul->kind() != OpKind::Mul || mul->result()->type() != f32 ||
          uses.lookup(mul->result()) != 1 || mul->parentBlock() != add->parentBlock() ||
          !fuse(*mul))
        continue;
      Builder b;
      b.setInsertionPoint(*add);
      Value *fused =
          b.create(OpKind::Fma, add->loc(),
                   {mul->operand(0), mul->operand(1), add->operand(1 - i)}, {f32})
              .result();
      fused->setNameHint(add->result()->nameHint());
      replaceAllUsesWith(kernel, add->result(), fused);
      replaced.push_back(add);
      replaced.push_back(mul);
      break;
    }
  for (Operation *op : replaced)
    erase(*op);
}

} // namespace cutec
