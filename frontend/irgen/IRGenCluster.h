// IRGenCluster: the IRGen domain (IRGen::clusters()) of clusters and CTA pairs:
// cluster_ctarank/cluster_size, the cta_group=, multicast= and cta= arguments,
// mapa, and cluster launch control.
#ifndef CUTEC_FRONTEND_IRGEN_IRGENCLUSTER_H
#define CUTEC_FRONTEND_IRGEN_IRGENCLUSTER_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenCluster : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  /// cluster_ctarank() and cluster_size().
  SemaValue clusterSpecial(CallSite &site);
  /// issue_clc_query(mbar, response, multicast=True): try_cancel.
  SemaValue issueClcQuery(CallSite &site);
  /// clc_response(response): (x, y, z, is_canceled), the canceled cluster's
  /// first CTA id (undefined unless is_canceled) and whether there was one.
  SemaValue clcResponse(CallSite &site);
  /// The cta_group= keyword of `name` (1 when absent), or nullopt after an
  /// error: 2 needs clusters of an even number of CTAs, and the tcgen05
  /// operations (`tcgen05`) of a kernel must all use the same group.
  std::optional<int64_t> ctaGroupArgument(CallSite &site, llvm::StringRef name, bool tcgen05);
  /// Marks `op` as a cta_group::2 operation when `group` is 2.
  static void setCtaGroup(ir::Operation &op, int64_t group);
  /// The run-time i32 value of `name`'s cluster keyword `key`: the CTA mask
  /// of multicast= or the CTA rank of cta=; `absent` (true, null) when there
  /// is none, null after an error: both need a cluster kernel, a static mask
  /// names CTAs of the cluster and a static rank is one of them.
  ir::Value *clusterArgument(CallSite &site, llvm::StringRef name, llvm::StringRef key,
                             bool &absent);
  /// clusterArgument's checks of the value `v` of `name`'s `key`, written
  /// at `expr`; a kernel without clusters is reported at `where`.
  ir::Value *clusterOperand(llvm::StringRef name, llvm::StringRef key, const SemaValue &v,
                            const ast::Expr &expr, llvm::SMRange where);
  /// mapa(tensor, cta): the shared tensor as CTA `cta`'s of the cluster
  /// (distributed shared memory), to load from and store to.
  SemaValue mapaView(CallSite &site);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENCLUSTER_H
