//===- RegisterHandOver.cpp - Values that give their registers to the next ===//
#include "codegen/ptx/RegisterHandOver.h"

namespace cutec::ptx {

RegisterHandOver::RegisterHandOver(const ir::Operation &kernel) {
  ir::walk(const_cast<ir::Operation &>(kernel), [&](ir::Operation &op) {
    for (const ir::Value *v : op.operands())
      ++useCounts[v];
  });
}

bool RegisterHandOver::loopTakesRegisters(const ir::Operation &loop,
                                          const ir::Value *init) const {
  const ir::Block *defined =
      init->definingOp() ? init->definingOp()->parentBlock() : init->ownerBlock();
  return uses(init) == 1 && defined == loop.parentBlock();
}

} // namespace cutec::ptx
