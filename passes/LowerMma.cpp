//===- LowerMma.cpp - gemm to one tcgen05.mma per K block -----------------===//
//
// `cute.gemm %acc, %a, %b, %accumulate` multiplies shared (M, K) and (N, K)
// tiles into an (M, N) tensor-memory accumulator. One tcgen05.mma covers 32
// bytes of K (16 f16, 8 tf32, 32 8-bit or 64 4-bit elements), so this pass
// emits K / that many `nvgpu.umma`, each on the views of its K block, with
// the instruction descriptor and the constant part of both shared-memory
// descriptors computed from the layouts (passes/UmmaDescriptors.h). The
// first one accumulates if %accumulate says so, the others always. It runs
// after `partition`, when the operands are views with static layouts.
//
//===----------------------------------------------------------------------===//
#include "ir/core/Builder.h"
#include "passes/Passes.h"
#include "passes/UmmaDescriptors.h"

namespace cutec {
namespace {

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
    return std::pair(umma::Kind::F8F6F4, "f8f6f4");
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

  /// The major mode of an operand tile: K when K is contiguous.
  std::optional<umma::Major> majorOf(const Layout &tile) {
    if (tile.stride[1].leaf().isConstant(1))
      return umma::Major::K;
    if (tile.stride[0].leaf().isConstant(1))
      return umma::Major::MN;
    return std::nullopt;
  }

  /// The descriptor bits of one instruction's (MN, kBlock) part of `operand`.
  std::optional<uint64_t> operandDescriptor(const Operation &gemm, Value *operand, int64_t kBlock,
                                            umma::Major &major) {
    const Type &type = operand->type();
    const Layout &tile = type.tensorLayout();
    std::optional<umma::Major> m = majorOf(tile);
    if (!m) {
      fail(gemm, "the operand " + type.str() + " has neither K nor MN contiguous");
      return std::nullopt;
    }
    major = *m;
    Layout block(IntTuple::tuple({tile.shape[0], IntTuple(kBlock)}), tile.stride);
    llvm::Expected<umma::SmemDescriptor> d =
        umma::smemDescriptor(block, type.tensorSwizzle(), type.element(), major);
    if (!d) {
      fail(gemm, llvm::toString(d.takeError()));
      return std::nullopt;
    }
    return d->constantBits();
  }

  /// A view of `view`'s base at its offset plus `delta` elements.
  Value *shifted(ir::Builder &b, llvm::SMLoc loc, Value *view, int64_t delta) {
    if (delta == 0)
      return view;
    Operation *v = view->definingOp();
    Value *offset = b.createValue(OpKind::Add, loc, Type::scalar(DataType::I32),
                                  {v->operand(1), b.constantInt(loc, DataType::I32, delta)});
    return b.createValue(OpKind::View, loc, view->type(), {v->operand(0), offset});
  }

  bool lower(Operation &gemm) {
    Value *acc = gemm.operand(0), *a = gemm.operand(1), *b = gemm.operand(2);
    for (Value *v : {acc, a, b})
      if (!v->definingOp() || v->definingOp()->kind() != OpKind::View)
        return fail(gemm, "internal error: the operands are not views; run 'partition' first");
    DataType ta = a->type().element(), tb = b->type().element();
    auto kind = kindFor(ta);
    auto kindB = kindFor(tb);
    if (!kind || !kindB || kind->first != kindB->first)
      return fail(gemm, "no tcgen05.mma kind multiplies " + ir::name(ta) + " by " + ir::name(tb));
    const Layout &la = a->type().tensorLayout(), &ld = acc->type().tensorLayout();
    std::optional<int64_t> k = size(la).getStatic(), m = ld.shape[0].leaf().getStatic(),
                           n = ld.shape[1].leaf().getStatic();
    int64_t kBlock = 256 / ir::bitWidth(ta);
    if (!k || !m || !n)
      return fail(gemm, "the tiles must be static");
    int64_t kTotal = *k / *m;
    if (kTotal % kBlock != 0)
      return fail(gemm, "K = " + llvm::Twine(kTotal) + " is not a multiple of the " +
                            llvm::Twine(kBlock) + " " + ir::name(ta) +
                            " elements one tcgen05.mma takes");
    // cta_group::2: the pair's MMA has twice the rows of each CTA's part.
    const int64_t *group = gemm.attrAs<int64_t>("cta_group");
    int64_t ctas = group ? *group : 1;
    umma::InstrDescriptorSpec spec;
    spec.kind = kind->first;
    spec.a = ta;
    spec.b = tb;
    spec.d = acc->type().element();
    spec.m = ctas * *m;
    spec.n = *n;
    std::optional<uint64_t> aDesc = operandDescriptor(gemm, a, kBlock, spec.aMajor);
    std::optional<uint64_t> bDesc = operandDescriptor(gemm, b, kBlock, spec.bMajor);
    if (!aDesc || !bDesc)
      return false;
    llvm::Expected<uint32_t> idesc = umma::instrDescriptor(spec);
    if (!idesc)
      return fail(gemm, llvm::toString(idesc.takeError()));
    if (*m != 128)
      return fail(gemm, ctas == 2 ? "only M = 256 with cta_group=2 (128 rows of A and D per "
                                    "CTA) is lowered so far, not " +
                                        llvm::Twine(ctas * *m)
                                  : "only M = 128 (one CTA) is lowered so far, not " +
                                        llvm::Twine(*m));

    ir::Builder builder;
    builder.setInsertionPoint(gemm);
    llvm::SMLoc loc = gemm.loc();
    Value *always = nullptr;
    const Layout &lb = b->type().tensorLayout();
    for (int64_t kb = 0; kb < kTotal / kBlock; ++kb) {
      IntTuple coord = IntTuple::tuple({IntTuple(0), IntTuple(kb * kBlock)});
      llvm::Expected<IntExpr> da = crd2idx(coord, la), db = crd2idx(coord, lb);
      if (!da || !db || !da->isStatic() || !db->isStatic()) {
        if (!da)
          llvm::consumeError(da.takeError());
        if (!db)
          llvm::consumeError(db.takeError());
        return fail(gemm, "internal error: the K blocks have no static offset");
      }
      Value *enable = gemm.operand(3);
      if (kb > 0) {
        if (!always) {
          Operation &t = builder.create(OpKind::Constant, loc, {}, {Type::scalar(DataType::Bool)});
          t.setAttr("value", true);
          always = t.result();
        }
        enable = always;
      }
      Operation &mma = builder.create(OpKind::Umma, loc,
                                      {acc, shifted(builder, loc, a, da->staticValue()),
                                       shifted(builder, loc, b, db->staticValue()), enable});
      mma.setAttr("kind", std::string(kind->second));
      mma.setAttr("idesc", int64_t(*idesc));
      mma.setAttr("a_desc", int64_t(*aDesc));
      mma.setAttr("b_desc", int64_t(*bDesc));
      if (group)
        mma.setAttr("cta_group", *group);
    }
    ir::erase(gemm);
    return true;
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
