//===- IselAsync.cpp - isel of shared memory, mbarriers and TMA -----------===//
#include "target/ptx/isel/IselAsync.h"

#include "target/ptx/MachineBuilder.h"
#include "target/ptx/isel/IselCluster.h"

#include <cassert>

namespace cutec {

using ir::DataType;
using ir::OpKind;
using ptx::emitInst;
using ptx::emitValue;
using ptx::PtxOpcode;

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
  ir::Operation &base = emitInst(b, alloc.loc(), PtxOpcode::MovU32Smem, {DataType::U32});
  base.set(ir::attr::symbol, std::string("cutec_smem"));
  int64_t offset = *alloc.get<int64_t>(ir::attr::offset);
  if (offset == 0)
    return base.result();
  return emitValue(b, alloc.loc(), PtxOpcode::AddS32, DataType::U32,
                   {base.result(), ptx::emitImmediate(b, alloc.loc(), DataType::U32, offset)});
}

/// The TMA tile copies of 1 to 5 dimensions, one table per form.
using TmaForms = PtxOpcode[5];
constexpr TmaForms kTmaLoad = {PtxOpcode::CpAsyncBulkTensor1d, PtxOpcode::CpAsyncBulkTensor2d,
                               PtxOpcode::CpAsyncBulkTensor3d, PtxOpcode::CpAsyncBulkTensor4d,
                               PtxOpcode::CpAsyncBulkTensor5d};
constexpr TmaForms kTmaLoadPair = {
    PtxOpcode::CpAsyncBulkTensor1dCg2, PtxOpcode::CpAsyncBulkTensor2dCg2,
    PtxOpcode::CpAsyncBulkTensor3dCg2, PtxOpcode::CpAsyncBulkTensor4dCg2,
    PtxOpcode::CpAsyncBulkTensor5dCg2};
constexpr TmaForms kTmaLoadMulticast = {
    PtxOpcode::CpAsyncBulkTensor1dMc, PtxOpcode::CpAsyncBulkTensor2dMc,
    PtxOpcode::CpAsyncBulkTensor3dMc, PtxOpcode::CpAsyncBulkTensor4dMc,
    PtxOpcode::CpAsyncBulkTensor5dMc};
constexpr TmaForms kTmaLoadMulticastPair = {
    PtxOpcode::CpAsyncBulkTensor1dMcCg2, PtxOpcode::CpAsyncBulkTensor2dMcCg2,
    PtxOpcode::CpAsyncBulkTensor3dMcCg2, PtxOpcode::CpAsyncBulkTensor4dMcCg2,
    PtxOpcode::CpAsyncBulkTensor5dMcCg2};
constexpr TmaForms kTmaStore = {
    PtxOpcode::CpAsyncBulkTensor1dStore, PtxOpcode::CpAsyncBulkTensor2dStore,
    PtxOpcode::CpAsyncBulkTensor3dStore, PtxOpcode::CpAsyncBulkTensor4dStore,
    PtxOpcode::CpAsyncBulkTensor5dStore};

/// The form of `dims` dimensions (TmaBox makes boxes of at most five).
static PtxOpcode tmaForm(const TmaForms &forms, size_t dims) {
  assert(dims >= 1 && dims <= 5 && "a TMA box has 1 to 5 dimensions");
  return forms[dims - 1];
}

ir::Value *selectAsync(ir::Builder &b, const ir::Operation &op,
                       llvm::ArrayRef<ir::Value *> in) {
  llvm::SMLoc loc = op.loc();
  switch (op.kind()) {
  case OpKind::SmemAlloc:
    return sharedAddress(b, op);
  case OpKind::MbarrierInit:
    emitInst(b, loc, PtxOpcode::MbarrierInitSharedCtaB64, {}, in);
    return nullptr;
  case OpKind::MbarrierArrive:
    if (in.size() == 2) {
      // cta=rank: a signal that a buffer is free, which publishes nothing,
      // so release at CTA scope (no cluster-wide memory barrier).
      emitInst(b, loc, PtxOpcode::MbarrierArriveSharedClusterB64, {},
               {emitValue(b, loc, PtxOpcode::MapaSharedClusterU32, DataType::U32, in)});
      return nullptr;
    }
    if (op.get(ir::attr::ctaGroup)) {
      // cta_group=2: the arrival counts on the pair leader's mbarrier.
      emitInst(b, loc, PtxOpcode::MbarrierArriveReleaseClusterSharedClusterB64, {},
               {pairLeaderAddress(b, op, in[0])});
      return nullptr;
    }
    emitInst(b, loc, PtxOpcode::MbarrierArriveSharedCtaB64, {DataType::U64}, in);
    return nullptr;
  case OpKind::MbarrierExpectTx:
    emitInst(b, loc, PtxOpcode::MbarrierArriveExpectTxSharedCtaB64, {DataType::U64}, in);
    return nullptr;
  case OpKind::MbarrierWait:
    emitInst(b, loc, PtxOpcode::MbarrierWaitParity, {}, in);
    return nullptr;
  case OpKind::TmaLoadTile: {
    bool multicast = op.get(ir::attr::multicast) != nullptr;
    bool pair = op.get(ir::attr::ctaGroup) != nullptr;
    std::vector<ir::Value *> operands(in.begin(), in.end());
    const TmaForms &forms = multicast ? (pair ? kTmaLoadMulticastPair : kTmaLoadMulticast)
                                      : (pair ? kTmaLoadPair : kTmaLoad);
    PtxOpcode opcode = tmaForm(forms, in.size() - 3 - multicast);
    if (multicast) {
      // .multicast::cluster: the CTA mask, a b16, goes after the mbarrier.
      operands.pop_back();
      operands.insert(operands.begin() + 3,
                      emitValue(b, loc, PtxOpcode::CvtU16U32, DataType::U16, {in.back()}));
    }
    if (!pair) {
      emitInst(b, loc, opcode, {}, operands);
      return nullptr;
    }
    // .cta_group::2: the bytes complete on the pair leader's mbarrier.
    operands[2] = pairLeaderAddress(b, op, in[2]);
    emitInst(b, loc, opcode, {}, operands);
    return nullptr;
  }
  case OpKind::TmaStoreTile:
    emitInst(b, loc, tmaForm(kTmaStore, in.size() - 2), {}, in);
    return nullptr;
  case OpKind::BulkCommitGroup:
    emitInst(b, loc, PtxOpcode::CpAsyncBulkCommitGroup, {});
    return nullptr;
  case OpKind::BulkWaitGroup: {
    // .read: only until the groups' stores have read their shared sources.
    bool read = *op.get(ir::attr::read);
    ir::Operation &wait = emitInst(
        b, loc, read ? PtxOpcode::CpAsyncBulkWaitGroupRead : PtxOpcode::CpAsyncBulkWaitGroup, {});
    wait.set(ir::attr::imm, *op.get(ir::attr::n));
    return nullptr;
  }
  case OpKind::PrefetchTensormap:
    emitInst(b, loc, PtxOpcode::PrefetchTensormap, {}, in);
    return nullptr;
  case OpKind::FenceProxyAsync:
    emitInst(b, loc, PtxOpcode::FenceProxyAsyncSharedCta, {});
    return nullptr;
  case OpKind::FenceMbarrierInit:
    emitInst(b, loc, PtxOpcode::FenceMbarrierInitReleaseCluster, {});
    return nullptr;
  case OpKind::BarrierSync:
    if (const int64_t *threads = op.get(ir::attr::threads)) {
      // A named barrier: bar.sync id, threads.
      ir::Operation &sync = emitInst(b, loc, PtxOpcode::BarSync, {});
      sync.set(ir::attr::imms, IntTuple::tuple({IntTuple(*op.get(ir::attr::barrier)), IntTuple(*threads)}));
      return nullptr;
    }
    emitInst(b, loc, PtxOpcode::BarSync0, {});
    return nullptr;
  default:
    return nullptr;
  }
}

} // namespace cutec
