// IRGenTcgen05, for Blackwell's tensor memory and MMA: tmem_alloc,
// tmem_dealloc, tmem_relinquish_alloc_permit, tmem_tensor, gemm, umma_commit
// and make_umma_smem_layout (docs/language.md, "Tensor memory and MMA"). These
// are sm_100a instructions; isel refuses them for sm_90a. Columns are counted
// at compile time: a kernel whose allocations exceed the 512 columns of a CTA's
// tensor memory is an error at the allocation that does.
#include "frontend/UmmaSmemLayout.h"
#include "frontend/irgen/IRGen.h"

#include "llvm/Support/MathExtras.h"

namespace cutec {

/// Columns of a CTA's tensor memory (128 lanes of 512 32-bit cells).
static constexpr int64_t kTmemColumns = 512;

/// Whether `v` is a run-time 32-bit integer: a tensor-memory address.
/// A tensor-memory address: the u32 tmem_alloc wrote, or an i32 computed
/// from it (converted back to u32 where it is used).
static bool isTmemAddress(const SemaValue &v) {
  return v.is(SemaValue::Kind::RunTime) && v.type().isScalar() &&
         ir::isInteger(v.type().element()) && ir::bitWidth(v.type().element()) == 32;
}

/// A static column count: a power of two from 32 to 512.
std::optional<int64_t> IRGenTcgen05::tmemColumnsArgument(CallSite &site, size_t i) {
  const SemaValue &v = site.args[i];
  if (v.is(SemaValue::Kind::Int) && v.intValue().isStatic()) {
    int64_t n = v.intValue().staticValue();
    if (n >= 32 && n <= kTmemColumns && llvm::isPowerOf2_64(uint64_t(n)))
      return n;
  }
  if (!v.isPoison())
    error(site.argExpr(i), "tensor memory is allocated in a compile-time power of two of 32 to "
                           "512 columns, not " +
                               v.describe());
  return std::nullopt;
}

// tmem_alloc, tmem_dealloc, tmem_relinquish_alloc_permit and umma_commit
// take cta_group= (IRGenCluster.cpp): with 2, umma_commit arrives on the
// mbarrier of both CTAs of the pair, and the allocation instructions are
// performed by one warp of each CTA together.
SemaValue IRGenTcgen05::tmemAllocation(CallSite &site) {
  llvm::StringRef name = site.callee;
  if (!inKernel(site))
    return SemaValue::poison();
  size_t arity = name == "umma_commit" ? 1 : name == "tmem_relinquish_alloc_permit" ? 0 : 2;
  if (!checkArity(site, name, arity, arity, {"cta_group"}))
    return SemaValue::poison();
  std::optional<int64_t> group = gen.clusters().ctaGroupArgument(site, name, /*tcgen05=*/true);
  if (!group)
    return SemaValue::poison();
  if (name == "umma_commit") {
    ir::Value *bar = gen.async().mbarrierOperand(site, 0, name);
    if (!bar)
      return SemaValue::poison();
    IRGenCluster::setCtaGroup(ctx.builder->create(ir::OpKind::UmmaCommit, site.loc(), {bar}),
                              *group);
    return SemaValue::none();
  }
  if (name == "tmem_relinquish_alloc_permit") {
    IRGenCluster::setCtaGroup(ctx.builder->create(ir::OpKind::TmemRelinquish, site.loc(), {}),
                              *group);
    return SemaValue::none();
  }
  std::optional<int64_t> columns = tmemColumnsArgument(site, 1);
  if (!columns)
    return SemaValue::poison();
  ir::Value *count = ctx.builder->constantInt(site.loc(), ir::DataType::I32, *columns);
  if (name == "tmem_dealloc") {
    // tmem_dealloc(address, columns): the address tmem_alloc wrote.
    const SemaValue &address = site.args[0];
    if (!isTmemAddress(address))
      return error(site.argExpr(0), "tmem_dealloc takes the 32-bit address tmem_alloc wrote, not " +
                                        address.describe());
    ir::Value *u32 = gen.exprs().convert(address, ir::DataType::U32, site.argExpr(0)).irValue();
    IRGenCluster::setCtaGroup(
        ctx.builder->create(ir::OpKind::TmemDealloc, site.loc(), {u32, count}), *group);
    return SemaValue::none();
  }
  // tmem_alloc(holder, columns): the allocated address goes to `holder`, one
  // u32 element of a shared tensor.
  const SemaValue &holder = site.args[0];
  bool isHolder = holder.is(SemaValue::Kind::RunTime) && holder.type().isTensor() &&
                  holder.type().memorySpace() == ir::MemorySpace::Shared &&
                  holder.type().tensorLayout().shape.isTuple() &&
                  holder.type().tensorLayout().shape.rank() == 0 &&
                  ir::bitWidth(holder.type().element()) == 32 &&
                  ir::isInteger(holder.type().element());
  if (!isHolder)
    return error(site.argExpr(0), "tmem_alloc writes the allocated address to one u32 element "
                                  "of a shared tensor (e.g. holder[0]), not " +
                                      holder.describe());
  if (ctx.tmemColumns + *columns > kTmemColumns)
    return error(site.loc(),
                 "tensor memory: this allocation of " + llvm::Twine(*columns) +
                     " columns brings the kernel to " + llvm::Twine(ctx.tmemColumns + *columns) +
                     ", more than the " + llvm::Twine(kTmemColumns) + " columns of a CTA",
                 {site.range()});
  ctx.tmemColumns += *columns;
  IRGenCluster::setCtaGroup(
      ctx.builder->create(ir::OpKind::TmemAlloc, site.loc(), {holder.irValue(), count}), *group);
  return SemaValue::none();
}

/// A static integer argument, or an error saying what it must be.
static std::optional<int64_t> staticInt(IRGenTcgen05 &, const SemaValue &v) {
  if (v.is(SemaValue::Kind::Int) && v.intValue().isStatic())
    return v.intValue().staticValue();
  return std::nullopt;
}

// make_umma_smem_layout(dtype, (mn, k), stages, major=OperandMajorMode.K):
// the shared layout of `stages` operand tiles that TMA fills and
// tcgen05.mma reads (frontend/UmmaSmemLayout.h).
SemaValue IRGenTcgen05::ummaSmemLayout(CallSite &site) {
  if (!site.bound[0].is(SemaValue::Kind::DType))
    return error(site.boundExpr(0, "dtype"),
                 "make_umma_smem_layout needs an element type, not " + site.bound[0].describe());
  const SemaValue &tile = site.bound[1];
  std::optional<int64_t> mn, k, stages = staticInt(*this, site.bound[2]);
  if (tile.is(SemaValue::Kind::Tuple) && tile.elements().size() == 2) {
    mn = staticInt(*this, tile.elements()[0]);
    k = staticInt(*this, tile.elements()[1]);
  }
  if (!mn || !k || *mn <= 0 || *k <= 0)
    return error(site.boundExpr(1, "tile"),
                 "the tile of make_umma_smem_layout is a static (MN, K) pair, "
                 "not " +
                     tile.describe());
  if (!stages || *stages <= 0)
    return error(site.boundExpr(2, "stages"),
                 "the number of stages must be a positive static integer, not " +
                     site.bound[2].describe());
  std::optional<bool> mnMajor = majorKeyword(site);
  if (!mnMajor)
    return SemaValue::poison();
  llvm::Expected<ComposedLayout> layout =
      makeUmmaSmemLayout(site.bound[0].dataType(), *mnMajor, *mn, *k, *stages);
  if (!layout)
    return error(site.loc(), llvm::toString(layout.takeError()), {site.range()});
  return SemaValue::fromLayoutValue(LayoutValue(*layout));
}

// tmem_tensor(dtype, (rows, columns), address): the tensor memory at
// `address` (what tmem_alloc wrote) as a tensor: row r in lane r, column c
// in column c, so element (r, c) is at address + (r << 16) + c, one element
// per cell whatever its width (as tcgen05.mma keeps an f16 accumulator).
// tmem_tensor(dtype, layout, address) takes a layout into these addresses
// instead, e.g. a tiled MMA's make_fragment_C.
SemaValue IRGenTcgen05::tmemTensor(CallSite &site) {
  if (!inKernel(site) || !checkArity(site, "tmem_tensor", 3, 3))
    return SemaValue::poison();
  if (site.args[0].is(SemaValue::Kind::DType) &&
      (site.args[0].dataType() == ir::DataType::UE4M3 ||
       site.args[0].dataType() == ir::DataType::UE8M0))
    return tmemScaleFactorTensor(site);
  // One element per 32-bit cell; a 16-bit element (an f16 accumulator)
  // in the cell's low half.
  if (!site.args[0].is(SemaValue::Kind::DType) ||
      (ir::bitWidth(site.args[0].dataType()) != 32 &&
       !(ir::bitWidth(site.args[0].dataType()) == 16 && ir::isFloat(site.args[0].dataType()))))
    return error(site.argExpr(0), "tensor memory holds one element per 32-bit cell: tmem_tensor "
                                  "needs f32, i32, u32, or f16/bf16 (in the low half), not " +
                                      site.args[0].describe());
  const SemaValue &shape = site.args[1];
  std::optional<LayoutValue> given = shape.toLayoutValue();
  if (given && given->get<Layout>())
    return tmemTensorAt(site, *given->get<Layout>());
  std::optional<int64_t> rows, columns;
  if (shape.is(SemaValue::Kind::Tuple) && shape.elements().size() == 2) {
    rows = staticInt(*this, shape.elements()[0]);
    columns = staticInt(*this, shape.elements()[1]);
  }
  if (!rows || !columns || *rows <= 0 || *rows > 128 || *columns <= 0 || *columns > 512)
    return error(site.argExpr(1), "a tensor-memory tensor is a static (rows, columns) shape of at "
                                  "most (128, 512), not " + shape.describe());
  llvm::Expected<Layout> layout =
      makeLayout(IntTuple::tuple({IntTuple(*rows), IntTuple(*columns)}),
                 IntTuple::tuple({IntTuple(int64_t(1) << 16), IntTuple(1)}));
  if (!layout)
    return error(site.loc(), llvm::toString(layout.takeError()), {site.range()});
  return tmemTensorAt(site, *layout);
}

SemaValue IRGenTcgen05::tmemTensorAt(CallSite &site, const Layout &layout) {
  // Each leaf steps lanes (a multiple of 1 << 16) or columns; the farthest
  // cell must stay within 128 lanes and 512 columns.
  std::vector<IntTuple> shapes, strides;
  flattenInto(layout.shape, shapes);
  flattenInto(layout.stride, strides);
  int64_t lane = 0, column = 0;
  bool ok = true;
  for (size_t i = 0; i < shapes.size() && ok; ++i) {
    std::optional<int64_t> extent = shapes[i].leaf().getStatic(),
                           step = strides[i].leaf().getStatic();
    ok = extent && step && *step >= 0 && (*step % (1 << 16) == 0 || *step < (1 << 16));
    bool lanes = ok && *step >= (1 << 16);
    if (ok)
      (lanes ? lane : column) += (*extent - 1) * (lanes ? *step >> 16 : *step);
  }
  if (!ok || lane >= 128 || column >= kTmemColumns)
    return error(site.argExpr(1), "a tensor-memory layout steps lanes (multiples of 65536) or "
                                  "columns with static strides, within 128 lanes and 512 "
                                  "columns, not " + layout.str());
  return tmemTensorValue(site, layout);
}

SemaValue IRGenTcgen05::tmemTensorValue(CallSite &site, const Layout &layout) {
  const SemaValue &address = site.args[2];
  if (!isTmemAddress(address))
    return error(site.argExpr(2), "tmem_tensor needs the 32-bit address tmem_alloc wrote, not " +
                                      address.describe());
  return SemaValue::runTime(ctx.builder->createValue(
      ir::OpKind::TmemTensor, site.loc(),
      ir::Type::tensor(site.args[0].dataType(), ir::MemorySpace::Tensor, layout),
      {gen.exprs().convert(address, ir::DataType::U32, site.argExpr(2)).irValue()}));
}

// gemm(acc, a, b, accumulate): acc (M, N) in tensor memory += or = a (M, K)
// times b (N, K) transposed, both in shared memory, or A in tensor memory
// as (M, K * bits / 32) u32 cells of B's type packed (K-major, low bits
// first); lower-mma splits K into instructions and builds their descriptors.
// With sfa= and sfb= (scale factors in tensor memory) it is block-scaled
// (IRGenBlockScaled.cpp). With cta_group=2 the pair computes a (2M, N) tile:
// each CTA passes its M rows of A and of D and its N/2 rows of B, at the
// same shared offsets in both CTAs.
SemaValue IRGenTcgen05::gemm(CallSite &site, size_t first) {
  if (site.args.size() && site.args[0].is(SemaValue::Kind::TiledMma) && !first)
    return gen.tiledMma().tiledMmaGemm(site);
  if (!first && !checkArity(site, "gemm", 4, 4, {"sfa", "sfb", "sfb_row", "kind", "cta_group"}))
    return SemaValue::poison();
  std::optional<int64_t> group = gen.clusters().ctaGroupArgument(site, "gemm", /*tcgen05=*/true);
  if (!group)
    return SemaValue::poison();
  const SemaValue &acc = site.args[first], &a = site.args[first + 1], &b = site.args[first + 2];
  if (!acc.is(SemaValue::Kind::RunTime) || !acc.type().isTensor() ||
      acc.type().memorySpace() != ir::MemorySpace::Tensor)
    return error(site.argExpr(first),
                 "the accumulator of gemm is a tmem_tensor, not " + acc.describe());
  // A may be in tensor memory: u32 cells holding B's element type packed.
  bool aInTmem = a.is(SemaValue::Kind::RunTime) && a.type().isTensor() &&
                 a.type().memorySpace() == ir::MemorySpace::Tensor;
  if (aInTmem && a.type().element() != ir::DataType::U32)
    return error(site.argExpr(first + 1), "A of gemm in tensor memory is a u32 tmem_tensor of "
                                          "packed cells, (M, K * bits / 32), not " +
                                              a.describe());
  for (size_t i : {first + 1, first + 2})
    if (!(i == first + 1 && aInTmem) &&
        (!site.args[i].is(SemaValue::Kind::RunTime) || !site.args[i].type().isTensor() ||
         site.args[i].type().memorySpace() != ir::MemorySpace::Shared ||
         site.args[i].type().tensorLayout().rank() != 2))
      return error(site.argExpr(i), llvm::Twine(i == first + 1 ? "A" : "B") +
                                        " of gemm is an (MN, K) tile of a shared tensor" +
                                        (i == first + 1 ? " or a tmem_tensor" : "") + ", not " +
                                        site.args[i].describe());
  const Layout &la = a.type().tensorLayout(), &lb = b.type().tensorLayout(),
               &ld = acc.type().tensorLayout();
  // Sizes per mode: an MN-major operand's MN mode is (atom, atoms).
  auto extent = [](const Layout &l, size_t i) { return size(makeLayout(l.shape[i])); };
  // With cta_group=2 each CTA holds N/2 rows of B.
  IntExpr bRows = *group == 2 ? extent(lb, 0) * IntExpr(2) : extent(lb, 0);
  if (aInTmem) {
    // K in B's elements is K * bits / 32 cells of A.
    int64_t bits = ir::bitWidth(b.type().element());
    std::optional<int64_t> cells = product(la.shape[1]).getStatic(),
                           kb = product(lb.shape[1]).getStatic();
    if (extent(la, 0) != extent(ld, 0) || bRows != extent(ld, 1) || !cells || !kb ||
        *cells * 32 != *kb * bits)
      return error(site.loc(),
                   "gemm with A in tensor memory multiplies (M, K * bits / 32) cells by (N, K) "
                   "into (M, N): the shapes " + la.shape.str() + ", " + lb.shape.str() + " and " +
                       ld.shape.str() + " do not agree for " + ir::name(b.type().element()),
                   {site.range()});
  } else if (extent(la, 0) != extent(ld, 0) || bRows != extent(ld, 1) ||
             extent(la, 1) != extent(lb, 1)) {
    if (*group == 2)
      return error(site.loc(), "gemm with cta_group=2 multiplies each CTA's (M, K) rows of A by "
                               "its (N/2, K) half of B into its (M, N) rows of D: the shapes " +
                                   la.shape.str() + ", " + lb.shape.str() + " and " +
                                   ld.shape.str() + " do not agree",
                   {site.range()});
    return error(site.loc(), "gemm multiplies (M, K) by (N, K) into (M, N): the shapes " +
                                 la.shape.str() + ", " + lb.shape.str() + " and " +
                                 ld.shape.str() + " do not agree",
                 {site.range()});
  }
  const SemaValue &flag = site.args[first + 3];
  ir::Value *accumulate = toRunTime(flag, site.argExpr(first + 3), ir::DataType::Bool);
  if (!accumulate || accumulate->type() != ir::Type::scalar(ir::DataType::Bool))
    return accumulate ? error(site.argExpr(first + 3),
                              "the accumulate flag of gemm is a bool, not " + flag.describe())
                      : SemaValue::poison();
  std::vector<ir::Value *> operands{acc.irValue(), a.irValue(), b.irValue(), accumulate};
  llvm::StringRef kind;
  if (!blockScaledGemmOperands(site, operands, kind))
    return SemaValue::poison();
  ir::Operation &op = ctx.builder->create(ir::OpKind::Gemm, site.loc(), operands);
  if (!kind.empty())
    op.set(ir::attr::kind, kind.str());
  IRGenCluster::setCtaGroup(op, *group);
  return SemaValue::none();
}

} // namespace cutec
