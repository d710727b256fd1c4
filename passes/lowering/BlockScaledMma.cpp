//===- BlockScaledMma.cpp - kind, scale vector and SF ids of a scaled gemm -===//
#include "passes/lowering/BlockScaledMma.h"

#include "ir/layout/Layout.h"

namespace cutec {
namespace {

using ir::DataType;

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Checks that `sf` holds the V factors of the K block at `k0` for rows
/// [0, rows) where the instruction reads them, and returns the block's byte
/// offset (its column times 4 plus its id).
llvm::Expected<int64_t> sfBase(const ScaleFactorTmem &sf, const char *which, int64_t rows, int64_t k0,
                               int64_t v, int64_t kBlock) {
  llvm::Expected<int64_t> base = sf.offset(0, 0, k0);
  if (!base)
    return base.takeError();
  if (*base % 4 % v != 0)
    return fail(llvm::Twine("the scale factors of ") + which + " for K = " + llvm::Twine(k0) +
                " start at byte " + llvm::Twine(*base % 4) + " of a TMEM column; with " +
                llvm::Twine(v) + " factors per row an instruction reads bytes aligned to " +
                llvm::Twine(v));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < v; ++j)
      for (int64_t q = 0; q < 4; ++q) {
        llvm::Expected<int64_t> at = sf.offset(r, q, k0 + j * (kBlock / v));
        if (!at)
          return at.takeError();
        int64_t want = *base + (r % 32) * ScaleFactorTmem::kLaneBytes + (r / 32) * 4 + j +
                       q * ScaleFactorTmem::kQuarterBytes;
        if (*at != want)
          return fail(llvm::Twine("the scale factors of ") + which + " (" + sf.layout.str() +
                      ") put the factor of row " + llvm::Twine(r) + ", K = " +
                      llvm::Twine(k0 + j * (kBlock / v)) + " in lane quarter " + llvm::Twine(q) +
                      " at byte " + llvm::Twine(*at) + "; tcgen05.mma reads it at byte " +
                      llvm::Twine(want) + " (lane " + llvm::Twine(32 * q + r % 32) +
                      ", column +" + llvm::Twine(want % ScaleFactorTmem::kLaneBytes / 4) + ", byte " +
                      llvm::Twine(want % 4) + ")");
      }
  return *base;
}

bool isFp8Or6(DataType t) {
  return t == DataType::F8E4M3 || t == DataType::F8E5M2 || t == DataType::F6E2M3 ||
         t == DataType::F6E3M2;
}

} // namespace

llvm::Expected<ScaleFactorTmem> ScaleFactorTmem::of(const ir::Type &t, const llvm::Twine &which) {
  ScaleFactorTmem s;
  s.layout = t.tensorLayout();
  const Layout &l = s.layout;
  auto bad = [&] {
    return fail("the scale factors of " + which + " have the layout " + l.str() +
                ", not one of sf_tmem_layout's (((rows, 4), (vec, k)), 1, mma_k)");
  };
  if (l.rank() != 3 || l.shape[0].isLeaf() || l.shape[0].rank() != 2 || !l.shape.isStatic() ||
      !l.stride.isStatic())
    return bad();
  Layout rowMode = l[0][0], kMode = l[0][1];
  if (kMode.shape.isLeaf() || kMode.rank() != 2 || !kMode.shape[0].isLeaf() ||
      !kMode.stride[0].isLeaf() || !kMode.stride[0].leaf().isConstant(0))
    return bad();
  int64_t rowsAll = size(rowMode).staticValue();
  if (rowsAll % 4 != 0)
    return bad();
  s.rows = rowsAll / 4;
  s.vec = kMode.shape[0].leaf().staticValue();
  s.kInner = size(kMode).staticValue();
  s.k = s.kInner * size(l[2]).staticValue();
  std::optional<StaticIndexer> rows = StaticIndexer::of(rowMode), inner = StaticIndexer::of(kMode),
                               outer = StaticIndexer::of(l[2]);
  if (!rows || !inner || !outer)
    return bad();
  s.rowMode = *rows;
  s.innerMode = *inner;
  s.outerMode = *outer;
  return s;
}

llvm::Expected<int64_t> ScaleFactorTmem::offset(int64_t row, int64_t quarter,
                                                int64_t kElem) const {
  // Mode 1 has the coordinate 0, which is offset 0.
  if (row < 0 || quarter < 0 || row + rows * quarter >= rowMode.size() || kElem < 0 ||
      kElem >= k)
    return fail("the factor of row " + llvm::Twine(row) + ", lane quarter " +
                llvm::Twine(quarter) + ", K = " + llvm::Twine(kElem) + " is outside " +
                layout.str());
  return rowMode(row + rows * quarter) + innerMode(kElem % kInner) + outerMode(kElem / kInner);
}

llvm::Expected<BlockScaledMma> planBlockScaledMma(DataType a, DataType b, const ir::Type &sfaType,
                                                  const ir::Type &sfbType, int64_t m, int64_t n,
                                                  int64_t k, int64_t sfbRow,
                                                  llvm::StringRef kind) {
  llvm::Expected<ScaleFactorTmem> sfa = ScaleFactorTmem::of(sfaType, "A");
  if (!sfa)
    return sfa.takeError();
  llvm::Expected<ScaleFactorTmem> sfb = ScaleFactorTmem::of(sfbType, "B");
  if (!sfb)
    return sfb.takeError();
  if (sfa->vec != sfb->vec)
    return fail("A has a scale factor per " + llvm::Twine(sfa->vec) + " elements of K, B per " +
                llvm::Twine(sfb->vec));
  BlockScaledMma plan;
  plan.scale = sfaType.element();
  int64_t vec = sfa->vec;
  bool ue8m0 = plan.scale == DataType::UE8M0;
  bool fp4 = a == DataType::F4E2M1 && b == DataType::F4E2M1;
  // kind::mxf8f6f4 takes e2m1 only one per byte, not packed as here.
  if ((kind == "mxf8f6f4" && !(isFp8Or6(a) && isFp8Or6(b))) ||
      ((kind == "mxf4" || kind == "mxf4nvf4") && !fp4))
    return fail("kind::" + kind + " does not multiply " + ir::name(a) + " by " + ir::name(b) +
                " (kind::mxf8f6f4 takes fp8 and fp6, kind::mxf4 and mxf4nvf4 packed e2m1)");
  if (fp4) {
    plan.kBlock = 64;
    if (vec == 16 && kind == "mxf4") {
      return fail("kind::mxf4 takes one scale factor per 32 elements of K (scale_vec::2X), not "
                  "per 16; kind::mxf4nvf4 takes 16 (block16)");
    } else if (vec == 16) {
      plan.kind = umma::Kind::Mxf4nvf4;
      plan.ptxKind = "mxf4nvf4.block_scale.block16";
    } else if (vec == 32 && ue8m0) {
      bool nv = kind == "mxf4nvf4";
      plan.kind = nv ? umma::Kind::Mxf4nvf4 : umma::Kind::Mxf4;
      plan.ptxKind = nv ? "mxf4nvf4.block_scale.scale_vec::2X" : "mxf4.block_scale.scale_vec::2X";
    } else if (vec == 32) {
      return fail("e2m1 with a scale factor per 32 elements takes ue8m0 factors (kind::mxf4 or "
                  "mxf4nvf4, scale_vec::2X), not ue4m3; ue4m3 goes with 16 (nvfp4)");
    }
  } else if (isFp8Or6(a) && isFp8Or6(b)) {
    if (vec != 32 || !ue8m0)
      return fail("fp8 and fp6 operands take one ue8m0 scale factor per 32 elements of K "
                  "(kind::mxf8f6f4), not one " + ir::name(plan.scale) + " per " +
                  llvm::Twine(vec));
    plan.kind = umma::Kind::Mxf8f6f4;
    plan.ptxKind = "mxf8f6f4.block_scale.scale_vec::1X";
    plan.kBlock = 32;
  } else {
    return fail("no block-scaled tcgen05.mma multiplies " + ir::name(a) + " by " + ir::name(b) +
                " (both e2m1, or both fp8/fp6)");
  }
  if (vec != 16 && vec != 32)
    return fail("scale factors cover 16 or 32 elements of K, not " + llvm::Twine(vec));
  int64_t v = plan.kBlock / vec;
  if (m != 128)
    return fail("a block-scaled tcgen05.mma of one CTA has M = 128, not " + llvm::Twine(m));
  if (k % plan.kBlock != 0)
    return fail("K = " + llvm::Twine(k) + " is not a multiple of the " + llvm::Twine(plan.kBlock) +
                " " + ir::name(a) + " elements one tcgen05.mma takes");
  int64_t nRows = (n + 127) / 128 * 128;
  if (sfa->rows != m || sfb->rows != nRows)
    return fail("the scale factors cover " + llvm::Twine(sfa->rows) + " rows of A and " +
                llvm::Twine(sfb->rows) + " of B; M = " + llvm::Twine(m) + " and N = " +
                llvm::Twine(n) + " need " + llvm::Twine(m) + " and " + llvm::Twine(nRows) +
                " (N rounded up to whole 128-row tiles)");
  if (sfbRow + n > sfb->rows)
    return fail("sfb_row = " + llvm::Twine(sfbRow) + " puts the tile's " + llvm::Twine(n) +
                " rows of B past the " + llvm::Twine(sfb->rows) + " rows of its scale factors");
  if (sfa->k != k || sfb->k != k)
    return fail("the scale factors cover K = " + llvm::Twine(sfa->k) + " (A) and " +
                llvm::Twine(sfb->k) + " (B); the tiles have K = " + llvm::Twine(k));
  for (int64_t k0 = 0; k0 < k; k0 += plan.kBlock) {
    llvm::Expected<int64_t> a0 = sfBase(*sfa, "A", m, k0, v, plan.kBlock);
    if (!a0)
      return a0.takeError();
    llvm::Expected<int64_t> b0 = sfBase(*sfb, "B", n, k0, v, plan.kBlock);
    if (!b0)
      return b0.takeError();
    plan.steps.push_back(
        {*a0 / 4 * 4, *b0 / 4 * 4, uint32_t(*a0 % 4), uint32_t(*b0 % 4)});
  }
  return plan;
}

} // namespace cutec
