//===- IselCluster.h - isel of clusters and CTA pairs ---------------------===//
//
// The cluster registers and barrier exist on sm_90a and sm_100a; the
// cta_group::2 forms that use the helpers below (pair TMA loads and
// multicast commits) only on datacenter Blackwell (target/ptx/Targets.h), and
// cluster launch control from sm_100 on.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_ISEL_ISELCLUSTER_H
#define CUTEC_TARGET_PTX_ISEL_ISELCLUSTER_H

#include "ir/core/Builder.h"

namespace cutec {

/// Whether `kind` is a cluster operation, selected by selectCluster: the
/// cluster registers, cluster_sync and mapa of an address.
bool isClusterOp(ir::OpKind kind);

/// Emits the machine IR of `op` (operands `in`); returns its result or null.
ir::Value *selectCluster(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in);

/// Whether `kind` is a cluster launch control op (sm_100a), selected by
/// selectClusterLaunchControl: try_cancel, the response's ld.shared.b128
/// and its query_cancel forms (several results map to one instruction's).
bool isClusterLaunchControlOp(ir::OpKind kind);
ir::Value *selectClusterLaunchControl(ir::Builder &b, const ir::Operation &op,
                                      llvm::ArrayRef<ir::Value *> in);

/// The .shared::cluster address of the byte at .shared::cta address
/// `address` in the leader (even CTA) of the executing CTA's pair: mapa to
/// %cluster_ctarank & ~1, or to 0 when `op`'s kernel has clusters of two.
ir::Value *pairLeaderAddress(ir::Builder &b, const ir::Operation &op, ir::Value *address);

/// The 16-bit multicast mask of the executing CTA's pair: 3 << (rank & ~1),
/// 3 when `op`'s kernel has clusters of two.
ir::Value *pairMask(ir::Builder &b, const ir::Operation &op);

} // namespace cutec

#endif
