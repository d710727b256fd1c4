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
         kind == OpKind::ClusterArrive || kind == OpKind::ClusterArriveRelaxed ||
         kind == OpKind::ClusterWait || kind == OpKind::MapaAddress;
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

/// The CTAs of the cluster that runs `op`'s kernel, when its shape is static.
static std::optional<int64_t> clusterCtas(const ir::Operation &op) {
  // The kernel is the enclosing op with a block shape.
  const ir::Operation *kernel = &op;
  while (kernel && !kernel->has(ir::attr::block))
    kernel = kernel->parentBlock() && kernel->parentBlock()->parent()
                 ? kernel->parentBlock()->parent()->parent()
                 : nullptr;
  if (!kernel)
    return std::nullopt;
  const IntTuple *shape = kernel->get(ir::attr::cluster);
  int64_t ctas = 1;
  for (size_t d = 0; shape && d < shape->rank(); ++d) {
    std::optional<int64_t> extent = (*shape)[d].leaf().getStatic();
    if (!extent)
      return std::nullopt;
    ctas *= *extent;
  }
  return ctas;
}

/// The rank of the executing CTA's pair leader: %cluster_ctarank & ~1, or
/// 0 when the cluster is the pair itself (two CTAs), which ptxas can then
/// fold and hoist.
static ir::Value *leaderRank(ir::Builder &b, const ir::Operation &op) {
  if (clusterCtas(op) == 2)
    return ptx::emitImmediate(b, op.loc(), DataType::U32, 0);
  return emitValue(b, op.loc(), PtxOpcode::AndB32, DataType::U32,
                   {clusterRegister(b, op.loc(), "%cluster_ctarank"),
                    ptx::emitImmediate(b, op.loc(), DataType::U32, -2)});
}

ir::Value *pairLeaderAddress(ir::Builder &b, const ir::Operation &op, ir::Value *address) {
  return emitValue(b, op.loc(), PtxOpcode::MapaSharedClusterU32, DataType::U32,
                   {address, leaderRank(b, op)});
}

ir::Value *pairMask(ir::Builder &b, const ir::Operation &op) {
  ir::Value *both = ptx::emitImmediate(b, op.loc(), DataType::U32, 3);
  ir::Value *mask = clusterCtas(op) == 2 ? both
                                         : emitValue(b, op.loc(), PtxOpcode::ShlB32, DataType::U32,
                                                     {both, leaderRank(b, op)});
  return emitValue(b, op.loc(), PtxOpcode::CvtU16U32, DataType::U16, {mask});
}

ir::Value *selectCluster(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in) {
  if (op.kind() == OpKind::ClusterSpecial)
    return clusterRegister(b, op.loc(), *op.get(ir::attr::clusterRegister));
  if (op.kind() == OpKind::MapaAddress)
    return emitValue(b, op.loc(), PtxOpcode::MapaSharedClusterU32, DataType::U32, in);
  // cluster_sync: every thread arrives (release), then waits (acquire);
  // cluster_arrive(_relaxed) and cluster_wait are its halves.
  if (op.kind() != OpKind::ClusterWait)
    emitInst(b, op.loc(),
             op.kind() == OpKind::ClusterArriveRelaxed
                 ? PtxOpcode::BarrierClusterArriveRelaxedAligned
                 : PtxOpcode::BarrierClusterArriveReleaseAligned,
             {});
  if (op.kind() != OpKind::ClusterArrive && op.kind() != OpKind::ClusterArriveRelaxed)
    emitInst(b, op.loc(), PtxOpcode::BarrierClusterWaitAcquireAligned, {});
  return nullptr;
}

} // namespace cutec
