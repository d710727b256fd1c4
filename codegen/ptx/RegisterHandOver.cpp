//===- RegisterHandOver.cpp - Values that give their registers to the next ===//
#include "codegen/ptx/RegisterHandOver.h"

namespace cutec::ptx {

RegisterHandOver::RegisterHandOver(const ir::Operation &kernel) {
  ir::walk(const_cast<ir::Operation &>(kernel), [&](ir::Operation &op) {
    for (const ir::Value *v : op.operands())
      ++useCounts[v];
  });
}

bool RegisterHandOver::takesRegisters(const ir::Operation &user, const ir::Value *v) const {
  const ir::Block *defined = v->definingOp() ? v->definingOp()->parentBlock() : v->ownerBlock();
  return useCounts.lookup(v) == 1 && defined == user.parentBlock();
}

} // namespace cutec::ptx
