//===- IselCluster.cpp - isel of clusters and CTA pairs -------------------===//
#include "target/ptx/isel/IselCluster.h"

#include "target/ptx/MachineBuilder.h"

namespace cutec {

using ir::DataType;
using ir::OpKind;
using ptx::emitInst;
using ptx::emitValue;
using ptx::PtxOpcode;

bool isClusterOp(OpKind kind) {
  return kind == OpKind::ClusterSpecial || kind == OpKind::ClusterSync ||
         kind == OpKind::MapaAddress;
}

bool isClusterLaunchControlOp(OpKind kind) {
  return kind == OpKind::ClcTryCancel || kind == OpKind::ClcLoadResponse ||
         kind == OpKind::ClcIsCanceled || kind == OpKind::ClcFirstCtaid;
}

ir::Value *selectClusterLaunchControl(ir::Builder &b, const ir::Operation &op,
                                      llvm::ArrayRef<ir::Value *> in) {
  llvm::SMLoc loc = op.loc();
  switch (op.kind()) {
  case OpKind::ClcTryCancel: {
    const bool *multicast = op.get(ir::attr::multicast);
    emitInst(b, loc,
             multicast && *multicast ? PtxOpcode::ClusterlaunchcontrolTryCancelMulticast
                                     : PtxOpcode::ClusterlaunchcontrolTryCancel,
             {}, in);
    return nullptr;
  }
  case OpKind::ClcLoadResponse:
    return emitValue(b, loc, PtxOpcode::LdSharedB128, DataType::U128, in);
  case OpKind::ClcIsCanceled:
    return emitValue(b, loc, PtxOpcode::ClusterlaunchcontrolQueryCancelIsCanceled, DataType::Bool,
                     in);
  default: // ClcFirstCtaid: (response, is_canceled) -> x, y, z
    return emitInst(b, loc, PtxOpcode::ClusterlaunchcontrolQueryCancelGetFirstCtaid,
                    {DataType::I32, DataType::I32, DataType::I32}, {in[1], in[0]})
        .result(0);
  }
}

static ir::Value *clusterRegister(ir::Builder &b, llvm::SMLoc loc, const std::string &name) {
  ir::Operation &mov = emitInst(b, loc, PtxOpcode::MovU32, {DataType::U32});
  mov.set(ir::attr::special, name);
  return mov.result();
}

/// The rank of the executing CTA's pair leader: %cluster_ctarank & ~1.
static ir::Value *leaderRank(ir::Builder &b, llvm::SMLoc loc) {
  return emitValue(
      b, loc, PtxOpcode::AndB32, DataType::U32,
      {clusterRegister(b, loc, "%cluster_ctarank"), ptx::emitImmediate(b, loc, DataType::U32, -2)});
}

ir::Value *pairLeaderAddress(ir::Builder &b, llvm::SMLoc loc, ir::Value *address) {
  return emitValue(b, loc, PtxOpcode::MapaSharedClusterU32, DataType::U32,
                   {address, leaderRank(b, loc)});
}

ir::Value *pairMask(ir::Builder &b, llvm::SMLoc loc) {
  ir::Value *mask = emitValue(b, loc, PtxOpcode::ShlB32, DataType::U32,
                              {ptx::emitImmediate(b, loc, DataType::U32, 3), leaderRank(b, loc)});
  return emitValue(b, loc, PtxOpcode::CvtU16U32, DataType::U16, {mask});
}

ir::Value *selectCluster(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in) {
  if (op.kind() == OpKind::ClusterSpecial)
    return clusterRegister(b, op.loc(), *op.get(ir::attr::clusterRegister));
  if (op.kind() == OpKind::MapaAddress)
    return emitValue(b, op.loc(), PtxOpcode::MapaSharedClusterU32, DataType::U32, in);
  // cluster_sync: every thread arrives (release), then waits (acquire).
  emitInst(b, op.loc(), PtxOpcode::BarrierClusterArriveReleaseAligned, {});
  emitInst(b, op.loc(), PtxOpcode::BarrierClusterWaitAcquireAligned, {});
  return nullptr;
}

} // namespace cutec
