// IRGenCluster, for thread block clusters and CTA pairs (docs/language.md,
// "Clusters and CTA pairs"): cluster_ctarank(), cluster_size(),
// cluster_sync(), and the cta_group= argument that the tcgen05 built-ins
// and tma_load take. cta_group=2 needs a kernel that runs in clusters of an
// even number of CTAs (@kernel(..., cluster=(2, 1, 1))), and, as in PTX, all
// tcgen05 instructions of a kernel use one CTA group. mapa: views of another
// CTA's shared memory. Cluster launch control: issue_clc_query and
// clc_response.
#include "frontend/irgen/IRGen.h"

namespace cutec {

SemaValue IRGenCluster::clusterSpecial(CallSite &site) {
  llvm::StringRef name = site.callee;
  ir::Builder *b = requireBuilder(site.loc(), name + "()");
  if (!b)
    return SemaValue::poison();
  ir::Operation &op =
      b->create(ir::OpKind::ClusterSpecial, site.loc(), {}, {ir::Type::scalar(ir::DataType::I32)});
  op.set(ir::attr::clusterRegister, std::string(name == "cluster_ctarank" ? "%cluster_ctarank" : "%cluster_nctarank"));
  return SemaValue::runTime(op.result());
}

std::optional<int64_t> IRGenCluster::ctaGroupArgument(CallSite &site, llvm::StringRef name,
                                                      bool tcgen05) {
  const CallSite::Keyword *kw = site.keyword("cta_group");
  int64_t group = 1;
  if (kw) {
    const SemaValue &v = kw->value;
    if (!v.is(SemaValue::Kind::Int) || !v.intValue().isStatic() ||
        (v.intValue().staticValue() != 1 && v.intValue().staticValue() != 2)) {
      if (!v.isPoison())
        error(*kw->expr, "cta_group is 1 or 2, not " + v.describe());
      return std::nullopt;
    }
    group = v.intValue().staticValue();
  }
  if (group == 2 && ctx.clusterCtas % 2 != 0) {
    error(kw->nameRange.Start,
          name +
              " with cta_group=2 works on a pair of CTAs: the kernel must run in clusters of "
              "an even number of CTAs, e.g. @kernel(..., cluster=(2, 1, 1)), not " +
              llvm::Twine(ctx.clusterCtas),
          {kw->nameRange});
    return std::nullopt;
  }
  if (!tcgen05)
    return group;
  if (ctx.kernelCtaGroup == 0) {
    ctx.kernelCtaGroup = group;
    ctx.kernelCtaGroupLoc = site.loc();
  } else if (ctx.kernelCtaGroup != group) {
    error(site.loc(),
          name + " has cta_group=" + llvm::Twine(group) +
              ", but an earlier tcgen05 operation of "
              "the kernel has cta_group=" +
              llvm::Twine(ctx.kernelCtaGroup) +
              ": all tcgen05 instructions of a kernel use one CTA group",
          {site.range()});
    ctx.diags.note(ctx.kernelCtaGroupLoc, "the earlier tcgen05 operation is here");
    return std::nullopt;
  }
  return group;
}

// multicast=mask and cta=rank name CTAs of the executing CTA's cluster.
ir::Value *IRGenCluster::clusterArgument(CallSite &site, llvm::StringRef name, llvm::StringRef key,
                                         bool &absent) {
  const CallSite::Keyword *kw = site.keyword(key);
  absent = !kw;
  if (!kw)
    return nullptr;
  return clusterOperand(name, key, kw->value, *kw->expr, kw->nameRange);
}

ir::Value *IRGenCluster::clusterOperand(llvm::StringRef name, llvm::StringRef key,
                                        const SemaValue &v, const ast::Expr &expr,
                                        llvm::SMRange where) {
  bool multicast = key == "multicast";
  if (ctx.clusterCtas < 2) {
    std::string with = name == "mapa" ? "" : " with " + key.str() + "=";
    error(where.Start,
          name + with +
              (multicast ? " copies into several CTAs of a cluster"
                         : " reaches another CTA of the cluster") +
              ": the kernel must run in clusters of 2 or more CTAs, e.g. @kernel(..., "
              "cluster=(2, 1, 1))",
          {where});
    return nullptr;
  }
  if (v.is(SemaValue::Kind::Int) && v.intValue().isStatic()) {
    int64_t value = v.intValue().staticValue();
    if (multicast && (value <= 0 || value >> ctx.clusterCtas)) {
      error(expr, "the multicast mask " + llvm::Twine(value) +
                      " must name CTAs of the cluster: bits 0-" + llvm::Twine(ctx.clusterCtas - 1) +
                      ", at least one set");
      return nullptr;
    }
    if (!multicast && (value < 0 || value >= ctx.clusterCtas)) {
      error(expr, "the CTA rank " + llvm::Twine(value) + " is not in the cluster of " +
                      llvm::Twine(ctx.clusterCtas) + " CTAs");
      return nullptr;
    }
  }
  return toIndex(v, expr, multicast ? "the multicast mask" : "the CTA rank");
}

// mapa(tensor, cta): CuTe DSL's cute.arch.mapa on a tensor instead of a
// pointer. The result has the tensor's layout and swizzle, in the shared
// memory of CTA `cta` of the cluster; lower-indexing maps each access's base
// with mapa.shared::cluster and reads and writes it with ld/st.shared::cluster.
SemaValue IRGenCluster::mapaView(CallSite &site) {
  ir::Builder *b = requireBuilder(site.loc(), "mapa()");
  if (!b)
    return SemaValue::poison();
  const SemaValue &tensor = site.bound[0];
  ir::Value *rank = clusterOperand("mapa", "cta", site.bound[1], site.boundExpr(1, "cta"),
                                   site.call.getCallee().getRange());
  if (!rank)
    return SemaValue::poison();
  const ir::Type &type = tensor.type();
  ir::Type peer = ir::Type::tensor(type.element(), ir::MemorySpace::ClusterShared,
                                   type.tensorLayout(), type.tensorSwizzle());
  return SemaValue::runTime(
      b->createValue(ir::OpKind::Mapa, site.loc(), peer, {tensor.irValue(), rank}));
}

// issue_clc_query(mbar, response, multicast=True): the PTX operands are
// [response], [mbar].
SemaValue IRGenCluster::issueClcQuery(CallSite &site) {
  ir::Builder *b = requireBuilder(site.loc(), "issue_clc_query()");
  if (!b)
    return SemaValue::poison();
  ir::Operation &op = b->create(ir::OpKind::ClcTryCancel, site.loc(),
                                {site.bound[1].irValue(), site.bound[0].irValue()});
  op.set(ir::attr::multicast, site.bound[2].boolValue());
  return SemaValue::none();
}

SemaValue IRGenCluster::clcResponse(CallSite &site) {
  ir::Builder *b = requireBuilder(site.loc(), "clc_response()");
  if (!b)
    return SemaValue::poison();
  llvm::SMLoc loc = site.loc();
  ir::Type i32 = ir::Type::scalar(ir::DataType::I32);
  ir::Value *response = b->createValue(ir::OpKind::ClcLoadResponse, loc,
                                       ir::Type::scalar(ir::DataType::U128),
                                       {site.bound[0].irValue()});
  ir::Value *canceled = b->createValue(ir::OpKind::ClcIsCanceled, loc,
                                       ir::Type::scalar(ir::DataType::Bool), {response});
  ir::Operation &first = b->create(ir::OpKind::ClcFirstCtaid, loc, {response, canceled}, {i32, i32, i32});
  return SemaValue::tuple({SemaValue::runTime(first.result(0)), SemaValue::runTime(first.result(1)),
                           SemaValue::runTime(first.result(2)), SemaValue::runTime(canceled)});
}

void IRGenCluster::setCtaGroup(ir::Operation &op, int64_t group) {
  if (group == 2)
    op.set(ir::attr::ctaGroup, group);
}

} // namespace cutec
