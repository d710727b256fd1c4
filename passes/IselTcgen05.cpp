//===- IselTcgen05.cpp - isel of Blackwell's tensor memory and tcgen05 ----===//
#include "passes/IselTcgen05.h"

#include "codegen/ptx/MachineBuilder.h"

namespace cutec {

using ir::OpKind;

bool isTcgen05Op(OpKind kind) {
  switch (kind) {
  case OpKind::TmemAlloc:
  case OpKind::TmemDealloc:
  case OpKind::TmemRelinquish:
    return true;
  default:
    return false;
  }
}

ir::Value *selectTcgen05(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in) {
  switch (op.kind()) {
  case OpKind::TmemAlloc:
    ptx::emitInst(b, op.loc(), "tcgen05.alloc", {}, in);
    return nullptr;
  case OpKind::TmemDealloc:
    ptx::emitInst(b, op.loc(), "tcgen05.dealloc", {}, in);
    return nullptr;
  case OpKind::TmemRelinquish:
    ptx::emitInst(b, op.loc(), "tcgen05.relinquish_alloc_permit", {});
    return nullptr;
  default:
    return nullptr;
  }
}

} // namespace cutec
