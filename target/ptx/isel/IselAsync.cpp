//===- IselAsync.cpp - isel of shared memory, mbarriers and TMA -----------===//
#include "target/ptx/isel/IselAsync.h"

#include "target/ptx/MachineBuilder.h"
#include "target/ptx/isel/IselCluster.h"

namespace cutec {

using ir::DataType;
using ir::OpKind;
using ptx::emitInst;
using ptx::emitValue;

bool isAsyncOp(OpKind kind) {
  switch (kind) {
  case OpKind::SmemAlloc:
  case OpKind::MbarrierInit:
  case OpKind::MbarrierArrive:
  case OpKind::MbarrierExpectTx:
  case OpKind::MbarrierWait:
  case OpKind::TmaLoadTile:
  case OpKind::TmaStoreTile:
  case OpKind::BulkCommitGroup:
  case OpKind::BulkWaitGroup:
  case OpKind::PrefetchTensormap:
  case OpKind::FenceProxyAsync:
  case OpKind::FenceMbarrierInit:
  case OpKind::BarrierSync:
    return true;
  default:
    return false;
  }
}

/// An allocation's window address: the dynamic shared memory plus its offset.
static ir::Value *sharedAddress(ir::Builder &b, const ir::Operation &alloc) {
  ir::Operation &base = emitInst(b, alloc.loc(), "mov.u32.smem", {DataType::U32});
  base.setAttr("symbol", std::string("cutec_smem"));
  int64_t offset = *alloc.attrAs<int64_t>("offset");
  if (offset == 0)
    return base.result();
  return emitValue(b, alloc.loc(), "add.s32", DataType::U32,
                   {base.result(), ptx::emitImmediate(b, alloc.loc(), DataType::U32, offset)});
}

ir::Value *selectAsync(ir::Builder &b, const ir::Operation &op,
                       llvm::ArrayRef<ir::Value *> in) {
  llvm::SMLoc loc = op.loc();
  switch (op.kind()) {
  case OpKind::SmemAlloc:
    return sharedAddress(b, op);
  case OpKind::MbarrierInit:
    emitInst(b, loc, "mbarrier.init.shared::cta.b64", {}, in);
    return nullptr;
  case OpKind::MbarrierArrive:
    if (in.size() == 2) {
      // cta=rank: a signal that a buffer is free, which publishes nothing,
      // so release at CTA scope (no cluster-wide memory barrier).
      emitInst(b, loc, "mbarrier.arrive.shared::cluster.b64", {},
               {emitValue(b, loc, "mapa.shared::cluster.u32", DataType::U32, in)});
      return nullptr;
    }
    if (op.attrAs<int64_t>("cta_group")) {
      // cta_group=2: the arrival counts on the pair leader's mbarrier.
      emitInst(b, loc, "mbarrier.arrive.release.cluster.shared::cluster.b64", {},
               {pairLeaderAddress(b, loc, in[0])});
      return nullptr;
    }
    emitInst(b, loc, "mbarrier.arrive.shared::cta.b64", {DataType::U64}, in);
    return nullptr;
  case OpKind::MbarrierExpectTx:
    emitInst(b, loc, "mbarrier.arrive.expect_tx.shared::cta.b64", {DataType::U64}, in);
    return nullptr;
  case OpKind::MbarrierWait:
    emitInst(b, loc, "mbarrier.wait.parity", {}, in);
    return nullptr;
  case OpKind::TmaLoadTile: {
    bool multicast = op.attrAs<bool>("multicast") != nullptr;
    std::vector<ir::Value *> operands(in.begin(), in.end());
    std::string opcode =
        "cp.async.bulk.tensor." + std::to_string(in.size() - 3 - multicast) + "d";
    if (multicast) {
      // .multicast::cluster: the CTA mask, a b16, goes after the mbarrier.
      operands.pop_back();
      operands.insert(operands.begin() + 3,
                      emitValue(b, loc, "cvt.u16.u32", DataType::U16, {in.back()}));
      opcode += ".mc";
    }
    if (!op.attrAs<int64_t>("cta_group")) {
      emitInst(b, loc, opcode, {}, operands);
      return nullptr;
    }
    // .cta_group::2: the bytes complete on the pair leader's mbarrier.
    operands[2] = pairLeaderAddress(b, loc, in[2]);
    emitInst(b, loc, opcode + ".cg2", {}, operands);
    return nullptr;
  }
  case OpKind::TmaStoreTile:
    emitInst(b, loc, "cp.async.bulk.tensor." + std::to_string(in.size() - 2) + "d.store", {}, in);
    return nullptr;
  case OpKind::BulkCommitGroup:
    emitInst(b, loc, "cp.async.bulk.commit_group", {});
    return nullptr;
  case OpKind::BulkWaitGroup: {
    // .read: only until the groups' stores have read their shared sources.
    bool read = *op.attrAs<bool>("read");
    ir::Operation &wait =
        emitInst(b, loc, read ? "cp.async.bulk.wait_group.read" : "cp.async.bulk.wait_group", {});
    wait.setAttr("imm", *op.attrAs<int64_t>("n"));
    return nullptr;
  }
  case OpKind::PrefetchTensormap:
    emitInst(b, loc, "prefetch.tensormap", {}, in);
    return nullptr;
  case OpKind::FenceProxyAsync:
    emitInst(b, loc, "fence.proxy.async.shared::cta", {});
    return nullptr;
  case OpKind::FenceMbarrierInit:
    emitInst(b, loc, "fence.mbarrier_init.release.cluster", {});
    return nullptr;
  case OpKind::BarrierSync:
    if (const int64_t *threads = op.attrAs<int64_t>("threads")) {
      // A named barrier: bar.sync id, threads.
      ir::Operation &sync = emitInst(b, loc, "bar.sync", {});
      sync.setAttr("imms",
                   IntTuple::tuple({IntTuple(*op.attrAs<int64_t>("barrier")), IntTuple(*threads)}));
      return nullptr;
    }
    emitInst(b, loc, "bar.sync.0", {});
    return nullptr;
  default:
    return nullptr;
  }
}

} // namespace cutec
