// IRGenAsync, for shared memory and the asynchronous machinery around it:
// shared_tensor / as_bytes (allocations in the CTA's shared memory), the
// mbarrier operations, tma_load, fences and sync_threads (docs/language.md,
// "Shared memory, mbarriers and TMA"). Allocations are placed at compile time
// in program order; the kernel's total becomes its `shared_bytes`.
#include "frontend/irgen/IRGen.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace cutec {

/// What a CTA may have: 227 KiB on sm_90 and sm_100.
static constexpr int64_t kMaxSharedBytes = 227 * 1024;

static bool isSharedTensor(const SemaValue &v) {
  return v.is(SemaValue::Kind::RunTime) && v.type().isTensor() &&
         v.type().memorySpace() == ir::MemorySpace::Shared;
}

/// Bytes that `size` elements of `type` occupy (a partial byte counts).
static int64_t storageBytes(ir::DataType type, int64_t size) {
  return (size * ir::bitWidth(type) + 7) / 8;
}

// shared_tensor(dtype, layout, align=N): a tensor in shared memory. The
// layout may be swizzled (`composition(Swizzle(3,4,3), L)`); the swizzle then
// permutes the allocation's byte offsets, as TMA and the MMA units do, so the
// allocation is aligned to the swizzle's repeat. `align` is a lower bound,
// as CuTe DSL's byte_alignment: 128 on a 128B swizzle is fine (and gives
// 1024), but a swizzled buffer may not ask for less than one swizzle row.
SemaValue IRGenAsync::sharedTensor(CallSite &site) {
  if (!inKernel(site) || !checkArity(site, "shared_tensor", 2, 2, {"align"}))
    return SemaValue::poison();
  if (!site.args[0].is(SemaValue::Kind::DType))
    return error(site.argExpr(0), "the first argument of shared_tensor must be an element type "
                                  "such as f16, not " +
                                      site.args[0].describe());
  ir::DataType dtype = site.args[0].dataType();
  std::optional<LayoutValue> lv = site.args[1].toLayoutValue();
  Layout layout;
  Swizzle swizzle;
  if (lv && lv->get<IntTuple>())
    layout = makeLayout(*lv->get<IntTuple>());
  else if (lv && lv->get<Layout>())
    layout = *lv->get<Layout>();
  else if (lv && lv->get<ComposedLayout>() && lv->get<ComposedLayout>()->offset.isConstant(0)) {
    layout = lv->get<ComposedLayout>()->layout;
    swizzle = lv->get<ComposedLayout>()->swizzle;
  } else
    return error(site.argExpr(1), "the layout of a shared tensor must be a shape, a layout or a "
                                  "swizzled layout with offset 0, not " +
                                      site.args[1].describe());
  IntExpr cosizeExpr = cosize(layout);
  if (!layout.shape.isStatic() || !layout.stride.isStatic() || !cosizeExpr.isStatic())
    return error(site.argExpr(1), "the layout of a shared tensor must be static, not " +
                                      layout.str());
  // Swizzle<B,M,S> permutes 2^M-byte chunks within rows of 2^(B+M) bytes
  // and repeats every 2^(B+M+S) bytes.
  int64_t row = swizzle.isIdentity() ? 1 : int64_t(1) << (swizzle.bits + swizzle.base);
  int64_t repeat = swizzle.isIdentity() ? 1 : row << swizzle.shift;
  int64_t align = std::max<int64_t>({16, repeat, storageBytes(dtype, 1)});
  if (const CallSite::Keyword *a = site.keyword("align")) {
    const SemaValue &v = a->value;
    if (!v.is(SemaValue::Kind::Int) || !v.intValue().isStatic() ||
        !llvm::isPowerOf2_64(uint64_t(std::max<int64_t>(v.intValue().staticValue(), 0))))
      return error(*a->expr, "align= must be a static power of two, not " + v.describe());
    if (v.intValue().staticValue() < row)
      return error(*a->expr, "align=" + llvm::Twine(v.intValue().staticValue()) +
                                 " is less than the " + llvm::Twine(row) +
                                 "-byte rows of the swizzle " + swizzle.str() +
                                 "; give at least " + llvm::Twine(row) +
                                 " (the buffer is aligned to the swizzle's " +
                                 llvm::Twine(repeat) + "-byte repeat in any case)");
    align = std::max(align, v.intValue().staticValue());
  }
  return allocateShared(dtype, layout, swizzle, align, site.loc(), site.range(), "");
}

SemaValue IRGenAsync::allocateShared(ir::DataType dtype, const Layout &layout,
                                     const Swizzle &swizzle, int64_t align, llvm::SMLoc loc,
                                     llvm::SMRange range, const std::string &name) {
  int64_t bytes = storageBytes(dtype, cosize(layout).staticValue());
  int64_t offset = llvm::alignTo(ctx.sharedBytes, align);
  if (offset + bytes > kMaxSharedBytes)
    return error(loc,
                 "shared memory: this allocation of " + llvm::Twine(bytes) +
                     " bytes brings the kernel to " + llvm::Twine(offset + bytes) +
                     " bytes, more than the " + llvm::Twine(kMaxSharedBytes) + " a CTA may have",
                 {range});
  ctx.sharedBytes = offset + bytes;
  ctx.sharedAlign = std::max(ctx.sharedAlign, align);
  ir::Operation &op =
      ctx.builder->create(ir::OpKind::SmemAlloc, loc, {},
                          {ir::Type::tensor(dtype, ir::MemorySpace::Shared, layout, swizzle)});
  op.set(ir::attr::offset, offset);
  op.set(ir::attr::align, align);
  if (!name.empty())
    op.set(ir::attr::name, name);
  return SemaValue::runTime(op.result());
}

// as_bytes(s): the bytes of a shared allocation in address order, whatever
// its layout and swizzle: what TMA or another thread physically wrote.
SemaValue IRGenAsync::asBytes(CallSite &site) {
  if (!inKernel(site) || !checkArity(site, "as_bytes", 1, 1))
    return SemaValue::poison();
  const SemaValue &t = site.args[0];
  ir::Operation *alloc = isSharedTensor(t) ? t.irValue()->definingOp() : nullptr;
  if (!alloc || alloc->kind() != ir::OpKind::SmemAlloc)
    return error(site.argExpr(0), "as_bytes needs a shared_tensor allocation, not " +
                                      t.describe());
  int64_t bytes = storageBytes(t.type().element(), cosize(t.type().tensorLayout()).staticValue());
  ir::Operation &op = ctx.builder->create(
      ir::OpKind::SmemAlloc, site.loc(), {},
      {ir::Type::tensor(ir::DataType::U8, ir::MemorySpace::Shared, makeLayout(IntTuple(bytes)))});
  op.set(ir::attr::offset, *alloc->get<int64_t>(ir::attr::offset));
  op.set(ir::attr::align, *alloc->get(ir::attr::align));
  return SemaValue::runTime(op.result());
}

// size_in_bytes(t): the bytes of a tensor's elements (CuTe's size_in_bytes).
SemaValue IRGenAsync::sizeInBytes(CallSite &site) {
  if (!inKernel(site) || !checkArity(site, "size_in_bytes", 1, 2))
    return SemaValue::poison();
  // CuTe DSL's size_in_bytes(dtype, layout): the bytes of a layout's
  // elements (a swizzled layout's too).
  if (site.args.size() == 2) {
    std::optional<LayoutValue> layout = gen.builtins().layoutArgument(site.args[1]);
    std::optional<IntExpr> elements;
    if (layout && layout->get<Layout>())
      elements = size(*layout->get<Layout>());
    else if (layout && layout->get<ComposedLayout>())
      elements = size(layout->get<ComposedLayout>()->layout);
    if (!site.args[0].is(SemaValue::Kind::DType))
      return error(site.argExpr(0), "size_in_bytes(dtype, layout) needs an element type, not " +
                                        site.args[0].describe());
    if (!elements || !elements->isStatic())
      return error(site.argExpr(1), "size_in_bytes(dtype, layout) needs a layout of static size, "
                                    "not " + site.args[1].describe());
    return SemaValue::integer(storageBytes(site.args[0].dataType(), elements->staticValue()));
  }
  const SemaValue &t = site.args[0];
  if (!t.is(SemaValue::Kind::RunTime) || !t.type().isTensor() ||
      !size(t.type().tensorLayout()).isStatic())
    return error(site.argExpr(0), "size_in_bytes needs a tensor of static size, not " +
                                      t.describe());
  return SemaValue::integer(
      storageBytes(t.type().element(), size(t.type().tensorLayout()).staticValue()));
}

/// The mbarrier argument: one u64 element of shared memory.
ir::Value *IRGenAsync::mbarrierOperand(CallSite &site, size_t i, llvm::StringRef name) {
  const SemaValue &bar = site.args[i];
  if (isSharedTensor(bar) && bar.type().tensorLayout().shape.isTuple() &&
      bar.type().tensorLayout().shape.rank() == 0 &&
      ir::bitWidth(bar.type().element()) == 64 && ir::isInteger(bar.type().element()))
    return bar.irValue();
  if (!bar.isPoison())
    error(site.argExpr(i), "the mbarrier of '" + name +
                               "' must be one u64 element of a shared tensor (e.g. bars[0]), "
                               "not " +
                               bar.describe());
  return nullptr;
}

SemaValue IRGenAsync::mbarrierOp(CallSite &site) {
  llvm::StringRef name = site.callee;
  if (!inKernel(site))
    return SemaValue::poison();
  struct Form {
    const char *name;
    ir::OpKind kind;
    const char *operand; // what the second argument is, if any
  };
  static const Form forms[] = {
      {"mbarrier_init", ir::OpKind::MbarrierInit, "the arrival count"},
      {"mbarrier_arrive", ir::OpKind::MbarrierArrive, nullptr},
      {"mbarrier_arrive_expect_tx", ir::OpKind::MbarrierExpectTx, "the transaction bytes"},
      {"mbarrier_wait", ir::OpKind::MbarrierWait, "the phase parity"},
  };
  const Form *form = nullptr;
  for (const Form &f : forms)
    if (name == f.name)
      form = &f;
  if (!form)
    return error(site.loc(), "unknown mbarrier operation '" + name + "'", {site.range()});
  size_t arity = form->operand ? 2 : 1;
  bool arrive = form->kind == ir::OpKind::MbarrierArrive;
  if (!checkArity(site, name, arity, arity,
                  arrive ? llvm::ArrayRef<llvm::StringRef>{"cta"}
                         : llvm::ArrayRef<llvm::StringRef>{}))
    return SemaValue::poison();
  // mbarrier_arrive(bar, cta=rank): the arrival counts on the mbarrier at
  // `bar`'s offset in CTA `rank` of the cluster.
  bool local = true;
  ir::Value *rank = arrive ? gen.clusters().clusterArgument(site, name, "cta", local) : nullptr;
  if (!local && !rank)
    return SemaValue::poison();
  llvm::SmallVector<ir::Value *, 3> operands;
  if (ir::Value *bar = mbarrierOperand(site, 0, name))
    operands.push_back(bar);
  if (form->operand)
    if (ir::Value *v = toIndex(site.args[1], site.argExpr(1), form->operand))
      operands.push_back(v);
  if (operands.size() != arity)
    return SemaValue::poison();
  if (rank)
    operands.push_back(rank);
  if (form->kind == ir::OpKind::MbarrierInit && site.args[1].is(SemaValue::Kind::Int) &&
      site.args[1].intValue().isStatic()) {
    int64_t count = site.args[1].intValue().staticValue();
    if (count < 1 || count >= (1 << 20))
      return error(site.argExpr(1), "an mbarrier expects 1 to 2^20-1 arrivals, not " +
                                        llvm::Twine(count));
  }
  ctx.builder->create(form->kind, site.loc(), operands);
  return SemaValue::none();
}

// tma_load(tile, smem, bar): a TMA copy of a global tile into shared memory
// that completes its bytes on `bar`. lower-tma checks that the tile is a box
// of its tensor and that the shared layout is the box's image.
SemaValue IRGenAsync::tmaLoad(CallSite &site) {
  if (!inKernel(site) || !checkArity(site, "tma_load", 3, 3, {"cta_group", "multicast"}))
    return SemaValue::poison();
  // cta_group=2: the load completes on the mbarrier at `bar`'s offset in the
  // pair's leader (the even CTA), whichever CTA of the pair issues it.
  std::optional<int64_t> group =
      gen.clusters().ctaGroupArgument(site, "tma_load", /*tcgen05=*/false);
  if (!group)
    return SemaValue::poison();
  // multicast=mask: the box lands at `smem`'s offset in every CTA of the
  // mask, each completing on its own `bar` (or its pair leader's).
  bool unicast = true;
  ir::Value *mask = gen.clusters().clusterArgument(site, "tma_load", "multicast", unicast);
  if (!unicast && !mask)
    return SemaValue::poison();
  const SemaValue &src = site.args[0], &dst = site.args[1];
  if (!(src.is(SemaValue::Kind::RunTime) && src.type().isTensor() &&
        src.type().memorySpace() == ir::MemorySpace::Global))
    return error(site.argExpr(0), "the source of tma_load must be a tile of a global tensor, not " +
                                      src.describe());
  if (!isSharedTensor(dst))
    return error(site.argExpr(1), "the destination of tma_load must be a shared tensor, not " +
                                      dst.describe());
  ir::Value *bar = mbarrierOperand(site, 2, "tma_load");
  if (!bar || !checkTmaOperands(site, src, dst, site.argExpr(1)))
    return SemaValue::poison();
  std::vector<ir::Value *> operands{src.irValue(), dst.irValue(), bar};
  if (mask)
    operands.push_back(mask);
  IRGenCluster::setCtaGroup(ctx.builder->create(ir::OpKind::TmaLoad, site.loc(), operands), *group);
  return SemaValue::none();
}

bool IRGenAsync::checkTmaOperands(CallSite &site, const SemaValue &tile, const SemaValue &smem,
                                  const ast::Expr &smemExpr) {
  bool load = site.callee == "tma_load";
  if (tile.type().element() != smem.type().element()) {
    error(smemExpr, site.callee + " copies " + ir::name(tile.type().element()) +
                                     (load ? " into" : " from") +
                                     " a shared tensor of " + ir::name(smem.type().element()));
    return false;
  }
  // A tile with broadcast (stride-0) modes, such as scale factors, may also
  // go to or come from a shared tensor of its memory image alone.
  const Layout &tileLayout = tile.type().tensorLayout();
  IntExpr tileSize = size(tileLayout), imageSize = size(filterZeros(tileLayout));
  IntExpr smemSize = size(smem.type().tensorLayout());
  if (tileSize.isStatic() && (tileSize == smemSize || imageSize == smemSize))
    return true;
  std::string image = imageSize != tileSize ? " (or the tile's " + imageSize.str() +
                                                  " elements without its broadcast modes)"
                                            : "";
  error(site.loc(),
        site.callee + " copies a tile of " + tileSize.str() +
            (load ? " elements into" : " elements from") + " a shared tensor of " +
            smemSize.str() + "; the tile must be static and the sizes equal" + image,
        {site.range()});
  return false;
}

// tma_store(smem, tile): a TMA copy of a shared tensor to a global tile
// (cp.async.bulk.tensor ... .bulk_group), completing in the issuing thread's
// bulk async-groups (tma_store_commit, tma_store_wait). lower-tma checks the
// tile as for tma_load.
SemaValue IRGenAsync::tmaStore(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const CallSite::Keyword *smemKeyword = site.keyword("smem");
  if (!checkTmaOperands(site, site.bound[1], site.bound[0],
                        smemKeyword ? *smemKeyword->expr : site.argExpr(0)))
    return SemaValue::poison();
  ctx.builder->create(ir::OpKind::TmaStore, site.loc(),
                      {site.bound[0].irValue(), site.bound[1].irValue()});
  return SemaValue::none();
}

} // namespace cutec
