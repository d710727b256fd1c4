//===- LowerMma.cpp - gemm to one tcgen05.mma per K block -----------------===//
//
// `cute.gemm %acc, %a, %b, %accumulate` multiplies shared (M, K) and (N, K)
// tiles into an (M, N) tensor-memory accumulator; A may instead be in tensor
// memory, as (M, K * bits / 32) u32 cells (the `[a-tmem]` form). One
// tcgen05.mma covers 32 bytes of K (16 f16, 8 tf32, 32 8-bit or 64 4-bit
// elements), so this pass emits K / that many `nvgpu.umma`, each on the views
// of its K block, with the instruction descriptor and the constant part of
// the shared-memory descriptors computed from the layouts
// (passes/lowering/UmmaDescriptors.h). The
// first one accumulates if %accumulate says so, the others always. It runs
// after `partition`, when the operands are views with static layouts. With
// scale factors (`cute.gemm ..., %sfa, %sfb[, %sfb_row]`) the instructions
// are `nvgpu.umma_block_scaled`, each with its scale factors' TMEM views and
// SF ids (passes/lowering/BlockScaledMma.h); with cta_group=2 too, each CTA holding
// SFA for its own rows of A and SFB for all N rows of the pair's B.
//
//===----------------------------------------------------------------------===//
#include "ir/core/Builder.h"
#include "passes/lowering/BlockScaledMma.h"
#include "passes/lowering/MaterializeOffset.h"
#include "passes/Passes.h"
#include "passes/lowering/UmmaDescriptors.h"

namespace cutec {
namespace {

namespace attr = ir::attr;
using ir::DataType;
using ir::Operation;
using ir::OpKind;
using ir::Type;
using ir::Value;

/// The MMA kind that multiplies `t`, with its PTX spelling.
std::optional<std::pair<umma::Kind, const char *>> kindFor(DataType t) {
  switch (t) {
  case DataType::F16:
  case DataType::BF16:
    return std::pair(umma::Kind::F16, "f16");
  case DataType::TF32:
    return std::pair(umma::Kind::Tf32, "tf32");
  case DataType::I8:
  case DataType::U8:
    return std::pair(umma::Kind::I8, "i8");
  case DataType::F8E4M3:
  case DataType::F8E5M2:
  case DataType::F6E2M3:
  case DataType::F6E3M2:
  case DataType::F4E2M1:
    return std::pair(umma::Kind::F8f6f4, "f8f6f4");
  default:
    return std::nullopt;
  }
}

class MmaLowering {
public:
  MmaLowering(Operation &kernel, PassContext &context) : kernel(kernel), context(context) {}

  void run() {
    for (Operation *gemm : ir::collect(kernel, OpKind::Gemm))
      if (!lower(*gemm))
        return;
  }

private:
  bool fail(const Operation &op, const llvm::Twine &message) {
    context.error(op.loc(), "gemm: " + message);
    return false;
  }

  /// The major mode of an operand tile: K when K is contiguous. A mode may
  /// be nested (an MN-major operand's MN is (atom, atoms)): its first
  /// element is the contiguous one.
  std::optional<umma::Major> majorOf(const Layout &tile) {
    auto unitStride = [](const IntTuple &s) {
      const IntTuple *first = &s;
      while (first->isTuple() && first->rank() > 0)
        first = &(*first)[0];
      return first->isLeaf() && first->leaf().isConstant(1);
    };
    if (unitStride(tile.stride[1]))
      return umma::Major::K;
    if (unitStride(tile.stride[0]))
      return umma::Major::MN;
    return std::nullopt;
  }

  /// The descriptor bits of one instruction's (MN, kBlock) part of `operand`.
  std::optional<uint64_t> operandDescriptor(const Operation &gemm, Value *operand, int64_t kBlock,
                                            umma::Major &major) {
    std::optional<umma::SmemDescriptor> d = operandSmemDescriptor(gemm, operand, kBlock, major);
    if (!d)
      return std::nullopt;
    return d->constantBits();
  }

  std::optional<umma::SmemDescriptor> operandSmemDescriptor(const Operation &gemm, Value *operand,
                                                            int64_t kBlock, umma::Major &major) {
    const Type &type = operand->type();
    const Layout &tile = type.tensorLayout();
    std::optional<umma::Major> m = majorOf(tile);
    if (!m) {
      fail(gemm, "the operand " + type.str() + " has neither K nor MN contiguous");
      return std::nullopt;
    }
    major = *m;
    llvm::Expected<Layout> block = umma::firstKBlock(tile, kBlock);
    if (!block) {
      fail(gemm, llvm::toString(block.takeError()));
      return std::nullopt;
    }
    llvm::Expected<umma::SmemDescriptor> d =
        umma::smemDescriptor(*block, type.tensorSwizzle(), type.element(), major);
    if (!d) {
      fail(gemm, llvm::toString(d.takeError()));
      return std::nullopt;
    }
    return *d;
  }

  /// The element offset of `coord` in `layout` when it is static.
  static std::optional<int64_t> staticOffset(const IntTuple &coord, const Layout &layout) {
    llvm::Expected<IntExpr> offset = crd2idx(coord, layout);
    if (!offset) {
      llvm::consumeError(offset.takeError());
      return std::nullopt;
    }
    return offset->getStatic();
  }

  bool lower(Operation &gemm) {
    if (gemm.operand(0)->type().memorySpace() == ir::MemorySpace::Register)
      return lowerWarpgroup(gemm);
    Value *acc = gemm.operand(0), *a = gemm.operand(1), *b = gemm.operand(2);
    bool scaled = gemm.operands().size() > 4;
    for (Value *v : gemm.operands())
      if (v->type().isTensor() && (!v->definingOp() || v->definingOp()->kind() != OpKind::View))
        return fail(gemm, "internal error: the operands are not views; run 'partition' first");
    // A in tensor memory is u32 cells of B's element type, packed (IRGen
    // checked the shapes); one instruction reads 256 bits of K, 8 columns.
    bool aInTmem = a->type().memorySpace() == ir::MemorySpace::Tensor;
    DataType tb = b->type().element(), ta = aInTmem ? tb : a->type().element();
    auto kind = kindFor(ta);
    auto kindB = kindFor(tb);
    if (!scaled && (!kind || !kindB || kind->first != kindB->first))
      return fail(gemm, "no tcgen05.mma kind multiplies " + ir::name(ta) + " by " + ir::name(tb));
    const Layout &la = a->type().tensorLayout(), &ld = acc->type().tensorLayout();
    std::optional<int64_t> k = size(b->type().tensorLayout()).getStatic(),
                           m = ld.shape[0].leaf().getStatic(), n = ld.shape[1].leaf().getStatic();
    if (!k || !m || !n)
      return fail(gemm, "the tiles must be static");
    // cta_group::2: the pair's MMA has twice the rows of each CTA's part,
    // and each CTA holds N / 2 rows of B.
    const int64_t *group = gemm.get(attr::ctaGroup);
    int64_t ctas = group ? *group : 1;
    int64_t kTotal = *k * ctas / *n;
    if (scaled && aInTmem)
      return fail(gemm, "a block-scaled MMA takes A from shared memory, not tensor memory");
    if (ctas == 2 && aInTmem)
      return fail(gemm, "cta_group=2 is lowered for A in shared memory so far, not in tensor "
                        "memory");
    if (*m != 128)
      return fail(gemm, ctas == 2 ? "only M = 256 with cta_group=2 (128 rows of A and D per "
                                    "CTA) is lowered so far, not " +
                                        llvm::Twine(ctas * *m)
                                  : "only M = 128 (one CTA) is lowered so far, not " +
                                        llvm::Twine(*m));
    // A block-scaled pair reads SFA (this CTA's M rows) and SFB (all N rows
    // of the pair's B) from each CTA's tensor memory at the same addresses,
    // so the plan is that of one CTA's M rows and the pair's N.
    if (scaled && ctas == 2 && gemm.operands().size() > 6)
      return fail(gemm, "sfb_row= is not lowered with cta_group=2; the pair's scale factors of "
                        "B start at its first row");
    if (scaled && ctas == 2 && *n % 64 != 0)
      return fail(gemm, "a block-scaled gemm with cta_group=2 is lowered for N a multiple of 64 "
                        "(each CTA's half of B in whole 32-row TMEM columns of scale factors), "
                        "not " + llvm::Twine(*n));
    std::optional<BlockScaledMma> plan;
    if (scaled) {
      // A run-time sfb_row is trusted to keep B's rows inside SFB.
      const int64_t *sfbRow = nullptr;
      const std::string *kindAttr = gemm.get(attr::kind);
      if (Operation *row = gemm.operands().size() > 6 ? gemm.operand(6)->definingOp() : nullptr;
          row && row->kind() == OpKind::Constant)
        sfbRow = row->get<int64_t>(attr::value);
      llvm::Expected<BlockScaledMma> p =
          planBlockScaledMma(ta, tb, gemm.operand(4)->type(), gemm.operand(5)->type(), *m, *n,
                             kTotal, sfbRow ? *sfbRow : 0, kindAttr ? *kindAttr : "");
      if (!p)
        return fail(gemm, llvm::toString(p.takeError()));
      plan = std::move(*p);
    }
    int64_t kBlock = plan ? plan->kBlock : 256 / ir::bitWidth(ta);
    if (kTotal % kBlock != 0)
      return fail(gemm, "K = " + llvm::Twine(kTotal) + " is not a multiple of the " +
                            llvm::Twine(kBlock) + " " + ir::name(ta) +
                            " elements one tcgen05.mma takes");
    umma::InstrDescriptorSpec spec;
    spec.kind = plan ? plan->kind : kind->first;
    spec.scale = plan ? plan->scale : spec.scale;
    spec.a = ta;
    spec.b = tb;
    spec.d = acc->type().element();
    spec.m = ctas * *m;
    spec.n = *n;
    std::optional<uint64_t> aDesc = aInTmem ? std::optional<uint64_t>(0)
                                            : operandDescriptor(gemm, a, kBlock, spec.aMajor);
    std::optional<uint64_t> bDesc = operandDescriptor(gemm, b, kBlock, spec.bMajor);
    if (!aDesc || !bDesc)
      return false;
    if (llvm::Expected<uint32_t> idesc = umma::instrDescriptor(spec); !idesc)
      return fail(gemm, llvm::toString(idesc.takeError()));

    ir::Builder builder;
    builder.setInsertionPoint(gemm);
    llvm::SMLoc loc = gemm.loc();
    Value *always = nullptr;
    Value *sfb = plan ? sfbBase(builder, gemm) : nullptr;
    const Layout &lb = b->type().tensorLayout();
    for (int64_t kb = 0; kb < kTotal / kBlock; ++kb) {
      IntTuple coord = IntTuple::tuple({IntTuple(0), IntTuple(kb * kBlock)});
      IntTuple cells = IntTuple::tuple({IntTuple(0), IntTuple(kb * 8)});
      std::optional<int64_t> da = staticOffset(aInTmem ? cells : coord, la),
                             db = staticOffset(coord, lb);
      if (!da || !db)
        return fail(gemm, "internal error: the K blocks have no static offset");
      Value *enable = gemm.operand(3);
      if (kb > 0) {
        if (!always) {
          Operation &t = builder.create(OpKind::Constant, loc, {}, {Type::scalar(DataType::Bool)});
          t.set(attr::value, true);
          always = t.result();
        }
        enable = always;
      }
      std::vector<Value *> operands{acc, shiftView(builder, loc, a, *da),
                                    shiftView(builder, loc, b, *db), enable};
      if (plan) {
        const BlockScaledMma::Step &step = plan->steps[size_t(kb)];
        spec.aSfId = step.sfaId;
        spec.bSfId = step.sfbId;
        operands.push_back(shiftView(builder, loc, gemm.operand(4), step.sfaOffset));
        operands.push_back(shiftView(builder, loc, sfb, step.sfbOffset));
      }
      llvm::Expected<uint32_t> idesc = umma::instrDescriptor(spec);
      if (!idesc)
        return fail(gemm, llvm::toString(idesc.takeError()));
      Operation &mma =
          builder.create(plan ? OpKind::UmmaBlockScaled : OpKind::Umma, loc, operands);
      mma.set(attr::kind, plan ? plan->ptxKind : std::string(kind->second));
      mma.set(attr::idesc, int64_t(*idesc));
      if (aInTmem)
        mma.set(attr::aTmem, true);
      else
        mma.set(attr::aDesc, int64_t(*aDesc));
      mma.set(attr::bDesc, int64_t(*bDesc));
      if (group)
        mma.set(attr::ctaGroup, *group);
    }
    ir::erase(gemm);
    return true;
  }

  /// The type suffixes of the wgmma of a warpgroup gemm ("f32.f16.f16",
  /// "s32.s8.u8.satfinite"): f16 into f16 or f32, bf16 and tf32 into f32,
  /// e4m3 and e5m2 in any combination into f16 or f32, s8 and u8 in any
  /// combination into s32.
  std::optional<std::string> wgmmaTypes(DataType acc, DataType a, DataType b, bool satfinite) {
    auto fp8 = [](DataType t) { return t == DataType::F8E4M3 || t == DataType::F8E5M2; };
    auto int8 = [](DataType t) { return t == DataType::I8 || t == DataType::U8; };
    const bool f16Acc = acc == DataType::F16 || acc == DataType::F32;
    const bool ok = (a == DataType::F16 && b == a && f16Acc) ||
                    ((a == DataType::BF16 || a == DataType::TF32) && b == a && acc == DataType::F32) ||
                    (fp8(a) && fp8(b) && f16Acc) || (int8(a) && int8(b) && acc == DataType::I32);
    if (!ok || (satfinite && acc != DataType::I32))
      return std::nullopt;
    // PTX spells f8e4m3 as e4m3, i8 as s8 and i32 as s32.
    auto spelling = [](DataType t) {
      llvm::StringRef name = ir::name(t);
      name.consume_front("f8");
      return name.starts_with("i") ? "s" + name.drop_front().str() : name.str();
    };
    return spelling(acc) + "." + spelling(a) + "." + spelling(b) + (satfinite ? ".satfinite" : "");
  }

  /// A gemm into a register accumulator (sm_90a's warpgroup MMA): `acc` is
  /// the warpgroup's fragment ((2, 2, N/8), MMA_M, MMA_N) of an (M, N') tile
  /// with M = 64 MMA_M and N' = N MMA_N, N the instruction's (attribute
  /// `n`); B is a shared (N', K) tile and A a shared (M, K) tile or the
  /// thread's register fragment ((E, 2, 2), MMA_M, MMA_K) (E elements per
  /// register). One nvgpu.wgmma per instruction tile (m, n) and K block of
  /// 32 bytes, in that order, each returning the fragment with the N/2
  /// registers of its tile (from `first`) new; the first K block of a tile
  /// accumulates if the flag says so. A from registers is the fragment
  /// itself, its block's registers from `a_first`.
  bool lowerWarpgroup(Operation &gemm) {
    Value *acc = gemm.operand(0), *a = gemm.operand(1), *b = gemm.operand(2);
    const bool aInRegisters = a->type().memorySpace() == ir::MemorySpace::Register;
    for (Value *v : {a, b})
      if ((v != a || !aInRegisters) && (!v->definingOp() || v->definingOp()->kind() != OpKind::View))
        return fail(gemm, "internal error: the operands are not views; run 'partition' first");
    const int64_t *instN = gemm.get(attr::n);
    DataType ta = a->type().element(), tb = b->type().element();
    std::optional<std::string> types =
        wgmmaTypes(acc->type().element(), ta, tb, gemm.get(attr::satfinite) != nullptr);
    if (!instN || !types)
      return fail(gemm, "no wgmma multiplies " + ir::name(ta) + " by " + ir::name(tb) + " into " +
                            ir::name(acc->type().element()));
    // One instruction reads 32 bytes of K: 16 f16 or bf16, 8 tf32, 32 8-bit.
    const int64_t kBlock = 256 / ir::bitWidth(ta), perTile = *instN / 2;
    // A in registers: a thread holds 64 x kBlock / 128 elements of a block.
    const int64_t aPerBlock = kBlock / 2;
    const Layout &la = a->type().tensorLayout(), &lb = b->type().tensorLayout();
    auto extent = [](const Layout &l, size_t mode) { return size(makeLayout(l.shape[mode])).getStatic(); };
    std::optional<int64_t> m = aInRegisters ? extent(la, 1) : extent(la, 0),
                           k = aInRegisters ? extent(la, 2) : extent(la, 1), n = extent(lb, 0),
                           regs = size(acc->type().tensorLayout()).getStatic();
    if (m && aInRegisters)
      *m *= 64;
    if (k && aInRegisters)
      *k *= kBlock;
    if (!m || !n || !k || !regs || *m % 64 || *n % *instN || *k % kBlock ||
        *regs != *m / 64 * (*n / *instN) * perTile)
      return fail(gemm, "a warpgroup gemm multiplies static (64 MMA_M, K) by (N MMA_N, K) tiles, "
                        "K a multiple of " + llvm::Twine(kBlock) +
                        ", into the fragment of as many instruction tiles");
    umma::Major aMajor = umma::Major::K, bMajor;
    std::optional<umma::SmemDescriptor> db = operandSmemDescriptor(gemm, b, kBlock, bMajor);
    std::optional<umma::SmemDescriptor> da =
        aInRegisters ? std::nullopt : operandSmemDescriptor(gemm, a, kBlock, aMajor);
    if (!db || (!aInRegisters && !da))
      return false;
    std::optional<uint64_t> aBits = da ? da->wgmmaBits() : std::optional<uint64_t>(0), bBits = db->wgmmaBits();
    if (!aBits || !bBits)
      return fail(gemm, "wgmma has no 128-byte swizzle with 32-byte atoms");
    ir::Builder builder;
    builder.setInsertionPoint(gemm);
    llvm::SMLoc loc = gemm.loc();
    Operation &alwaysOp = builder.create(OpKind::Constant, loc, {}, {Type::scalar(DataType::Bool)});
    alwaysOp.set(attr::value, true);
    Value *always = alwaysOp.result();
    Value *current = acc;
    const int64_t tilesM = *m / 64;
    for (int64_t ni = 0; ni < *n / *instN; ++ni)
      for (int64_t mi = 0; mi < tilesM; ++mi)
        for (int64_t kb = 0; kb < *k / kBlock; ++kb) {
          std::optional<int64_t> oa = aInRegisters ? std::optional<int64_t>(0) : staticOffset(tup(mi * 64, kb * kBlock), la),
                                 ob = staticOffset(tup(ni * *instN, kb * kBlock), lb);
          if (!oa || !ob)
            return fail(gemm, "internal error: the instruction tiles have no static offset");
          Value *scaleD = kb == 0 ? gemm.operand(3) : always;
          Value *aBlock = aInRegisters ? a : shiftView(builder, loc, a, *oa);
          Operation &mma = builder.create(
              OpKind::Wgmma, loc, {current, aBlock, shiftView(builder, loc, b, *ob), scaleD},
              {acc->type()});
          mma.set(attr::n, *instN);
          mma.set(attr::k, kBlock);
          mma.set(attr::types, *types);
          mma.set(attr::first, (ni * tilesM + mi) * perTile);
          if (aInRegisters) {
            mma.set(attr::aFirst, (kb * tilesM + mi) * aPerBlock);
          } else {
            mma.set(attr::aDesc, int64_t(*aBits));
            mma.set(attr::transA, int64_t(aMajor == umma::Major::MN));
          }
          mma.set(attr::bDesc, int64_t(*bBits));
          mma.set(attr::transB, int64_t(bMajor == umma::Major::MN));
          current = mma.result();
        }
    ir::replaceAllUsesWith(kernel, gemm.result(), current);
    ir::erase(gemm);
    return true;
  }

  /// The SFB view the instructions read: with sfb_row (a tile of N = 64 or
  /// 192 whose rows start inside a 128-row scale-factor tile), shifted by
  /// that many rows, one TMEM column (4 bytes) per 32.
  Value *sfbBase(ir::Builder &b, Operation &gemm) {
    Value *sfb = gemm.operand(5);
    if (gemm.operands().size() < 7)
      return sfb;
    llvm::SMLoc loc = gemm.loc();
    Type i32 = Type::scalar(DataType::I32);
    Value *columns = b.createValue(OpKind::Div, loc, i32,
                                   {gemm.operand(6), b.constantInt(loc, DataType::I32, 32)});
    Value *bytes =
        b.createValue(OpKind::Mul, loc, i32, {columns, b.constantInt(loc, DataType::I32, 4)});
    return shiftView(b, loc, sfb, bytes);
  }

  Operation &kernel;
  PassContext &context;
};

class LowerMma : public Pass {
public:
  llvm::StringRef name() const override { return "lower-mma"; }
  void run(Operation &kernel, PassContext &context) override { MmaLowering(kernel, context).run(); }
};

} // namespace

std::unique_ptr<Pass> createLowerMmaPass() { return std::make_unique<LowerMma>(); }

} // namespace cutec
