//===- IselTcgen05.cpp - isel of Blackwell's tensor memory and tcgen05 ----===//
#include "passes/IselTcgen05.h"

#include "codegen/ptx/MachineBuilder.h"
#include "passes/IselCluster.h"

namespace cutec {

using ir::OpKind;

bool isTcgen05Op(OpKind kind) {
  switch (kind) {
  case OpKind::TmemAlloc:
  case OpKind::TmemDealloc:
  case OpKind::TmemRelinquish:
  case OpKind::TmemTensor:
  case OpKind::Umma:
  case OpKind::UmmaCommit:
  case OpKind::TmemLoadWords:
  case OpKind::Tcgen05FenceBefore:
  case OpKind::Tcgen05FenceAfter:
    return true;
  default:
    return false;
  }
}

using ir::DataType;
using ptx::emitInst;
using ptx::emitValue;

/// A shared-memory matrix descriptor: the constant fields with the start
/// address (in 16-byte units, 14 bits) of the operand at `address`.
static ir::Value *matrixDescriptor(ir::Builder &b, llvm::SMLoc loc, ir::Value *address,
                                   int64_t constantBits) {
  ir::Value *wide = emitValue(b, loc, "cvt.u64.u32", DataType::U64, {address});
  ir::Value *units = emitValue(b, loc, "shr.s64", DataType::U64,
                               {wide, ptx::emitImmediate(b, loc, DataType::U32, 4)});
  ir::Value *start = emitValue(b, loc, "and.b64", DataType::U64,
                               {units, ptx::emitImmediate(b, loc, DataType::U64, 0x3FFF)});
  return emitValue(b, loc, "or.b64", DataType::U64,
                   {start, ptx::emitImmediate(b, loc, DataType::U64, constantBits)});
}

ir::Value *selectTcgen05(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in) {
  llvm::SMLoc loc = op.loc();
  // The cta_group::2 forms have the opcodes of the cta_group::1 ones + ".cg2".
  const std::string pair = op.attrAs<int64_t>("cta_group") ? ".cg2" : "";
  switch (op.kind()) {
  case OpKind::TmemTensor:
    return in[0];
  case OpKind::Umma: {
    // tcgen05.mma [d], a-desc, b-desc, idesc, enable-input-d.
    ir::Value *a = matrixDescriptor(b, loc, in[1], *op.attrAs<int64_t>("a_desc"));
    ir::Value *bd = matrixDescriptor(b, loc, in[2], *op.attrAs<int64_t>("b_desc"));
    ir::Value *idesc = ptx::emitImmediate(b, loc, DataType::U32, *op.attrAs<int64_t>("idesc"));
    emitInst(b, loc, "tcgen05.mma." + *op.attrAs<std::string>("kind") + pair, {},
             {in[0], a, bd, idesc, in[3]});
    return nullptr;
  }
  case OpKind::UmmaCommit:
    if (pair.empty())
      emitInst(b, loc, "tcgen05.commit", {}, in);
    else // arrives on the mbarrier at this offset in both CTAs of the pair
      emitInst(b, loc, "tcgen05.commit.cg2", {}, {in[0], pairMask(b, loc)});
    return nullptr;
  case OpKind::TmemLoadWords: {
    std::vector<DataType> words(op.results().size(), DataType::U32);
    ir::Operation &ld =
        emitInst(b, loc, "tcgen05.ld.32x32b.x" + std::to_string(words.size()), words, in);
    emitInst(b, loc, "tcgen05.wait::ld", {});
    return ld.result(0);
  }
  case OpKind::Tcgen05FenceBefore:
    emitInst(b, loc, "tcgen05.fence::before_thread_sync", {});
    return nullptr;
  case OpKind::Tcgen05FenceAfter:
    emitInst(b, loc, "tcgen05.fence::after_thread_sync", {});
    return nullptr;
  case OpKind::TmemAlloc:
    ptx::emitInst(b, op.loc(), "tcgen05.alloc" + pair, {}, in);
    return nullptr;
  case OpKind::TmemDealloc:
    ptx::emitInst(b, op.loc(), "tcgen05.dealloc" + pair, {}, in);
    return nullptr;
  case OpKind::TmemRelinquish:
    ptx::emitInst(b, op.loc(), "tcgen05.relinquish_alloc_permit" + pair, {});
    return nullptr;
  default:
    return nullptr;
  }
}

} // namespace cutec
