// IRGenTcgen05, for block-scaled MMA (docs/language.md, "Block-scaled MMA"):
// scale factors in tensor memory (`tmem_tensor(ue4m3, sf_tmem_layout(...),
// addr)`), their SMEM->TMEM copy `tmem_copy`, and the sfa=/sfb=/sfb_row=/kind=
// arguments of `gemm`. The frontend checks what a call can be at all; which
// tcgen05.mma kind, scale vector and SF ids the operands make is lower-mma's
// decision (passes/lowering/BlockScaledMma.h), and where each scale-factor tile
// goes is lower-s2t's.
#include "frontend/irgen/IRGen.h"

namespace cutec {

static bool isScaleFactorType(ir::DataType t) {
  return t == ir::DataType::UE4M3 || t == ir::DataType::UE8M0;
}

static bool isScaleFactorTensor(const SemaValue &v, ir::MemorySpace space) {
  return v.is(SemaValue::Kind::RunTime) && v.type().isTensor() &&
         v.type().memorySpace() == space && isScaleFactorType(v.type().element());
}

// tmem_tensor(ue4m3 or ue8m0, layout, address): scale factors in tensor
// memory, laid out by a static layout with byte strides (sf_tmem_layout): the
// element at offset o is byte o % 4 of cell `address + o / 4`.
SemaValue IRGenTcgen05::tmemScaleFactorTensor(CallSite &site) {
  std::optional<LayoutValue> lv = site.args[1].toLayoutValue();
  const Layout *layout = lv ? lv->get<Layout>() : nullptr;
  if (!layout || !layout->shape.isStatic() || !layout->stride.isStatic())
    return error(site.argExpr(1), "scale factors in tensor memory need a static layout with byte "
                                  "strides (sf_tmem_layout), not " + site.args[1].describe());
  return tmemTensorValue(site, *layout);
}

// tmem_copy(src, dst[, cta_group=2]): scale-factor tiles from shared to
// tensor memory (tcgen05.cp, by the thread that issues the MMAs, which reads
// them in order). With cta_group=2 the pair leader's copy fills, in each CTA
// of the pair, `dst` from that CTA's own `src`.
SemaValue IRGenTcgen05::tmemCopy(CallSite &site) {
  if (!inKernel(site) || !checkArity(site, "tmem_copy", 2, 2, {"cta_group"}))
    return SemaValue::poison();
  std::optional<int64_t> group =
      gen.clusters().ctaGroupArgument(site, "tmem_copy", /*tcgen05=*/true);
  if (!group)
    return SemaValue::poison();
  const SemaValue &src = site.args[0], &dst = site.args[1];
  if (!isScaleFactorTensor(src, ir::MemorySpace::Shared))
    return error(site.argExpr(0), "tmem_copy copies ue4m3 or ue8m0 scale factors from a shared "
                                  "tensor, not " + src.describe());
  if (!isScaleFactorTensor(dst, ir::MemorySpace::Tensor))
    return error(site.argExpr(1), "tmem_copy copies to scale factors in tensor memory "
                                  "(tmem_tensor(ue4m3, sf_tmem_layout(...), address)), not " +
                                      dst.describe());
  if (src.type().element() != dst.type().element())
    return error(site.argExpr(1), "tmem_copy copies " + ir::name(src.type().element()) +
                                      " into scale factors of " + ir::name(dst.type().element()));
  IRGenCluster::setCtaGroup(
      ctx.builder->create(ir::OpKind::TmemCopy, site.loc(), {src.irValue(), dst.irValue()}),
      *group);
  return SemaValue::none();
}

bool IRGenTcgen05::blockScaledGemmOperands(CallSite &site, std::vector<ir::Value *> &operands,
                                           llvm::StringRef &kind) {
  const CallSite::Keyword *sfa = site.keyword("sfa"), *sfb = site.keyword("sfb"),
                          *row = site.keyword("sfb_row"), *kindKw = site.keyword("kind");
  if (!sfa && !sfb) {
    for (const CallSite::Keyword *kw : {row, kindKw})
      if (kw) {
        error(*kw->expr, kw->name + "= is for block-scaled gemm (with sfa= and sfb=)");
        return false;
      }
    return true;
  }
  // kind= picks among the kinds that fit the operands (lower-mma checks that
  // it does); without it lower-mma picks one.
  if (kindKw) {
    const SemaValue &v = kindKw->value;
    if (!v.is(SemaValue::Kind::String) ||
        !llvm::is_contained(std::initializer_list<llvm::StringRef>{"mxf8f6f4", "mxf4", "mxf4nvf4"},
                             v.name())) {
      error(*kindKw->expr, "kind= of a block-scaled gemm is \"mxf8f6f4\", \"mxf4\" or "
                           "\"mxf4nvf4\", not " + v.describe());
      return false;
    }
    kind = v.name();
  }
  if (!sfa || !sfb) {
    error(site.loc(), "a block-scaled gemm takes both sfa= and sfb=", {site.range()});
    return false;
  }
  for (const CallSite::Keyword *kw : {sfa, sfb})
    if (!isScaleFactorTensor(kw->value, ir::MemorySpace::Tensor)) {
      error(*kw->expr, "'" + kw->name + "' takes scale factors in tensor memory "
                       "(tmem_tensor(ue4m3, sf_tmem_layout(...), address)), not " +
                           kw->value.describe());
      return false;
    }
  if (sfa->value.type().element() != sfb->value.type().element()) {
    error(*sfb->expr, "the scale factors of A are " + ir::name(sfa->value.type().element()) +
                          ", those of B " + ir::name(sfb->value.type().element()));
    return false;
  }
  operands.push_back(sfa->value.irValue());
  operands.push_back(sfb->value.irValue());
  if (!row)
    return true;
  ir::Value *r = toIndex(row->value, *row->expr, "sfb_row");
  if (!r)
    return false;
  if (row->value.is(SemaValue::Kind::Int) && row->value.intValue().isStatic() &&
      row->value.intValue().staticValue() % 32 != 0) {
    error(*row->expr, "sfb_row is a multiple of 32 (a TMEM column of scale factors), not " +
                          llvm::Twine(row->value.intValue().staticValue()));
    return false;
  }
  operands.push_back(r);
  return true;
}

} // namespace cutec
