// IRGen for Blackwell's tensor memory and MMA: tmem_alloc, tmem_dealloc,
// tmem_relinquish_alloc_permit, tmem_tensor, tmem_load, gemm, umma_commit
// and make_umma_smem_layout (docs/language.md, "Tensor memory and MMA").
// These are sm_100a instructions; isel refuses them for sm_90a. Columns are
// counted at compile time: a kernel whose allocations exceed the 512 columns
// of a CTA's tensor memory is an error at the allocation that does.
#include "frontend/IRGen.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace cutec {

/// Columns of a CTA's tensor memory (128 lanes of 512 32-bit cells).
static constexpr int64_t kTmemColumns = 512;

bool IRGen::isTcgen05BuiltinName(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("tmem_alloc", "tmem_dealloc", "tmem_relinquish_alloc_permit", "tmem_tensor",
             "tmem_load", "gemm", "umma_commit", "make_umma_smem_layout", true)
      .Cases("tcgen05_fence_before_thread_sync", "tcgen05_fence_after_thread_sync", true)
      .Default(false);
}

/// A static column count: a power of two from 32 to 512.
std::optional<int64_t> IRGen::tmemColumnsArgument(CallSite &site, size_t i) {
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

SemaValue IRGen::callTcgen05Builtin(llvm::StringRef name, CallSite &site) {
  if (name == "make_umma_smem_layout")
    return ummaSmemLayout(site);
  if (!requireBuilder(site.loc(), name + "()"))
    return SemaValue::poison();
  if (name == "tmem_tensor")
    return tmemTensor(site);
  if (name == "tmem_load")
    return tmemLoad(site);
  if (name == "gemm")
    return gemm(site);
  if (name.starts_with("tcgen05_fence_")) {
    if (!checkArity(site, name, 0, 0))
      return SemaValue::poison();
    builder->create(name == "tcgen05_fence_before_thread_sync" ? ir::OpKind::Tcgen05FenceBefore
                                                               : ir::OpKind::Tcgen05FenceAfter,
                    site.loc(), {});
    return SemaValue::none();
  }
  // The others take cta_group= (IRGenCluster.cpp): with 2, umma_commit
  // arrives on the mbarrier of both CTAs of the pair, and the allocation
  // instructions are performed by one warp of each CTA together.
  size_t arity = name == "umma_commit" ? 1 : name == "tmem_relinquish_alloc_permit" ? 0 : 2;
  if (!checkArity(site, name, arity, arity, {"cta_group"}))
    return SemaValue::poison();
  std::optional<int64_t> group = ctaGroupArgument(site, name, /*tcgen05=*/true);
  if (!group)
    return SemaValue::poison();
  if (name == "umma_commit") {
    ir::Value *bar = mbarrierOperand(site, 0, name);
    if (!bar)
      return SemaValue::poison();
    setCtaGroup(builder->create(ir::OpKind::UmmaCommit, site.loc(), {bar}), *group);
    return SemaValue::none();
  }
  if (name == "tmem_relinquish_alloc_permit") {
    setCtaGroup(builder->create(ir::OpKind::TmemRelinquish, site.loc(), {}), *group);
    return SemaValue::none();
  }
  std::optional<int64_t> columns = tmemColumnsArgument(site, 1);
  if (!columns)
    return SemaValue::poison();
  ir::Value *count = builder->constantInt(site.loc(), ir::DataType::I32, *columns);
  if (name == "tmem_dealloc") {
    // tmem_dealloc(address, columns): the address tmem_alloc wrote.
    const SemaValue &address = site.args[0];
    if (!address.is(SemaValue::Kind::RunTime) || !address.type().isScalar() ||
        !ir::isInteger(address.type().element()) || ir::bitWidth(address.type().element()) != 32)
      return error(site.argExpr(0), "tmem_dealloc takes the 32-bit address tmem_alloc wrote, not " +
                                        address.describe());
    setCtaGroup(builder->create(ir::OpKind::TmemDealloc, site.loc(), {address.irValue(), count}),
                *group);
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
  if (tmemColumns + *columns > kTmemColumns)
    return error(site.loc(),
                 "tensor memory: this allocation of " + llvm::Twine(*columns) +
                     " columns brings the kernel to " + llvm::Twine(tmemColumns + *columns) +
                     ", more than the " + llvm::Twine(kTmemColumns) + " columns of a CTA",
                 {site.range()});
  tmemColumns += *columns;
  setCtaGroup(builder->create(ir::OpKind::TmemAlloc, site.loc(), {holder.irValue(), count}),
              *group);
  return SemaValue::none();
}

/// A static integer argument, or an error saying what it must be.
static std::optional<int64_t> staticInt(IRGen &, const SemaValue &v) {
  if (v.is(SemaValue::Kind::Int) && v.intValue().isStatic())
    return v.intValue().staticValue();
  return std::nullopt;
}

// make_umma_smem_layout(dtype, (mn, k), stages): the K-major shared layout of
// `stages` operand tiles that TMA fills and tcgen05.mma reads: rows of k
// elements, swizzled by the widest swizzle whose span the row fills
// (S<3,4,3> for 128-byte rows, S<2,4,3> for 64, S<1,4,3> for 32).
SemaValue IRGen::ummaSmemLayout(CallSite &site) {
  if (!checkArity(site, "make_umma_smem_layout", 3, 3))
    return SemaValue::poison();
  if (!site.args[0].is(SemaValue::Kind::DType))
    return error(site.argExpr(0), "make_umma_smem_layout needs an element type, not " +
                                      site.args[0].describe());
  const SemaValue &tile = site.args[1];
  std::optional<int64_t> mn, k, stages = staticInt(*this, site.args[2]);
  if (tile.is(SemaValue::Kind::Tuple) && tile.elements().size() == 2) {
    mn = staticInt(*this, tile.elements()[0]);
    k = staticInt(*this, tile.elements()[1]);
  }
  if (!mn || !k || *mn <= 0 || *k <= 0)
    return error(site.argExpr(1), "the tile of make_umma_smem_layout is a static (MN, K) pair, "
                                  "not " + tile.describe());
  if (!stages || *stages <= 0)
    return error(site.argExpr(2), "the number of stages must be a positive static integer, not " +
                                      site.args[2].describe());
  unsigned bits = ir::bitWidth(site.args[0].dataType());
  int64_t rowBytes = *k * bits / 8;
  int swizzleBits = rowBytes == 128 ? 3 : rowBytes == 64 ? 2 : rowBytes == 32 ? 1 : 0;
  if (!swizzleBits || *mn % 8 != 0)
    return error(site.loc(),
                 "make_umma_smem_layout lays out K-major rows of 32, 64 or 128 bytes (one swizzle "
                 "span) and MN a multiple of 8; (" + llvm::Twine(*mn) + ", " + llvm::Twine(*k) +
                     ") " + ir::name(site.args[0].dataType()) + " rows are " +
                     llvm::Twine(rowBytes) + " bytes",
                 {site.range()});
  llvm::Expected<Layout> layout =
      makeLayout(IntTuple::tuple({IntTuple(*mn), IntTuple(*k), IntTuple(*stages)}),
                 IntTuple::tuple({IntTuple(*k), IntTuple(1), IntTuple(*mn * *k)}));
  if (!layout)
    return error(site.loc(), llvm::toString(layout.takeError()), {site.range()});
  return SemaValue::fromLayoutValue(
      LayoutValue(ComposedLayout{Swizzle{swizzleBits, 4, 3}, IntExpr(0), *layout}));
}

// tmem_tensor(dtype, (rows, columns), address): the tensor memory at
// `address` (what tmem_alloc wrote) as a tensor: row r in lane r, column c
// in column c, so element (r, c) is at address + (r << 16) + c.
SemaValue IRGen::tmemTensor(CallSite &site) {
  if (!checkArity(site, "tmem_tensor", 3, 3))
    return SemaValue::poison();
  if (!site.args[0].is(SemaValue::Kind::DType) || ir::bitWidth(site.args[0].dataType()) != 32)
    return error(site.argExpr(0), "tensor memory holds 32-bit cells: tmem_tensor needs f32, i32 "
                                  "or u32, not " + site.args[0].describe());
  const SemaValue &shape = site.args[1];
  std::optional<int64_t> rows, columns;
  if (shape.is(SemaValue::Kind::Tuple) && shape.elements().size() == 2) {
    rows = staticInt(*this, shape.elements()[0]);
    columns = staticInt(*this, shape.elements()[1]);
  }
  if (!rows || !columns || *rows <= 0 || *rows > 128 || *columns <= 0 || *columns > 512)
    return error(site.argExpr(1), "a tensor-memory tensor is a static (rows, columns) shape of at "
                                  "most (128, 512), not " + shape.describe());
  const SemaValue &address = site.args[2];
  if (!address.is(SemaValue::Kind::RunTime) || !address.type().isScalar() ||
      !ir::isInteger(address.type().element()) || ir::bitWidth(address.type().element()) != 32)
    return error(site.argExpr(2), "tmem_tensor needs the 32-bit address tmem_alloc wrote, not " +
                                      address.describe());
  llvm::Expected<Layout> layout =
      makeLayout(IntTuple::tuple({IntTuple(*rows), IntTuple(*columns)}),
                 IntTuple::tuple({IntTuple(int64_t(1) << 16), IntTuple(1)}));
  if (!layout)
    return error(site.loc(), llvm::toString(layout.takeError()), {site.range()});
  return SemaValue::runTime(builder->createValue(
      ir::OpKind::TmemTensor, site.loc(),
      ir::Type::tensor(site.args[0].dataType(), ir::MemorySpace::Tensor, *layout),
      {address.irValue()}));
}

// tmem_load(acc, column, n): tcgen05.ld.32x32b: lane l of warp w gets row
// 32*(w % 4) + l of `acc`, columns [column, column + n), as a fragment.
SemaValue IRGen::tmemLoad(CallSite &site) {
  if (!checkArity(site, "tmem_load", 3, 3))
    return SemaValue::poison();
  const SemaValue &acc = site.args[0];
  if (!acc.is(SemaValue::Kind::RunTime) || !acc.type().isTensor() ||
      acc.type().memorySpace() != ir::MemorySpace::Tensor)
    return error(site.argExpr(0), "tmem_load reads a tmem_tensor, not " + acc.describe());
  std::optional<int64_t> column = staticInt(*this, site.args[1]), n = staticInt(*this, site.args[2]);
  int64_t columns = size(acc.type().tensorLayout()).staticValue() / 
                    acc.type().tensorLayout().shape[0].leaf().staticValue();
  if (!column || *column < 0)
    return error(site.argExpr(1), "the first column must be a static integer, not " +
                                      site.args[1].describe());
  if (!n || *n < 1 || *n > 128 || !llvm::isPowerOf2_64(uint64_t(*n)) || *column + *n > columns)
    return error(site.argExpr(2), "tmem_load reads a power of two of 1 to 128 columns inside the "
                                  "tensor's " + llvm::Twine(columns) + ", not " +
                                      site.args[2].describe() + " from column " +
                                      llvm::Twine(column.value_or(0)));
  ir::Operation &op = builder->create(
      ir::OpKind::TmemLoad, site.loc(), {acc.irValue()},
      {ir::Type::tensor(acc.type().element(), ir::MemorySpace::Register, makeLayout(IntTuple(*n)))});
  op.setAttr("column", *column);
  return SemaValue::runTime(op.result());
}

// gemm(acc, a, b, accumulate): acc (M, N) in tensor memory += or = a (M, K)
// times b (N, K) transposed, both in shared memory; lower-mma splits K into
// instructions and builds their descriptors. With cta_group=2 the pair
// computes a (2M, N) tile: each CTA passes its M rows of A and of D and its
// N/2 rows of B, at the same shared offsets in both CTAs.
SemaValue IRGen::gemm(CallSite &site) {
  if (!checkArity(site, "gemm", 4, 4, {"cta_group"}))
    return SemaValue::poison();
  std::optional<int64_t> group = ctaGroupArgument(site, "gemm", /*tcgen05=*/true);
  if (!group)
    return SemaValue::poison();
  const SemaValue &acc = site.args[0], &a = site.args[1], &b = site.args[2];
  if (!acc.is(SemaValue::Kind::RunTime) || !acc.type().isTensor() ||
      acc.type().memorySpace() != ir::MemorySpace::Tensor)
    return error(site.argExpr(0), "the accumulator of gemm is a tmem_tensor, not " + acc.describe());
  for (size_t i : {size_t(1), size_t(2)})
    if (!site.args[i].is(SemaValue::Kind::RunTime) || !site.args[i].type().isTensor() ||
        site.args[i].type().memorySpace() != ir::MemorySpace::Shared ||
        site.args[i].type().tensorLayout().rank() != 2)
      return error(site.argExpr(i), llvm::Twine(i == 1 ? "A" : "B") +
                                        " of gemm is an (MN, K) tile of a shared tensor, not " +
                                        site.args[i].describe());
  const Layout &la = a.type().tensorLayout(), &lb = b.type().tensorLayout(),
               &ld = acc.type().tensorLayout();
  if (*group == 2) {
    // Each CTA's part: A (M, K), B (N/2, K), D (M, N).
    std::optional<int64_t> bn = lb.shape[0].isLeaf() ? lb.shape[0].leaf().getStatic() : std::nullopt;
    if (la.shape[0] != ld.shape[0] || !bn || IntTuple(2 * *bn) != ld.shape[1] ||
        la.shape[1] != lb.shape[1])
      return error(site.loc(), "gemm with cta_group=2 multiplies each CTA's (M, K) rows of A by "
                               "its (N/2, K) half of B into its (M, N) rows of D: the shapes " +
                                   la.shape.str() + ", " + lb.shape.str() + " and " +
                                   ld.shape.str() + " do not agree",
                   {site.range()});
  } else if (la.shape[0] != ld.shape[0] || lb.shape[0] != ld.shape[1] ||
             la.shape[1] != lb.shape[1]) {
    return error(site.loc(), "gemm multiplies (M, K) by (N, K) into (M, N): the shapes " +
                                 la.shape.str() + ", " + lb.shape.str() + " and " +
                                 ld.shape.str() + " do not agree",
                 {site.range()});
  }
  ir::Value *accumulate = toRunTime(site.args[3], site.argExpr(3), ir::DataType::Bool);
  if (!accumulate || accumulate->type() != ir::Type::scalar(ir::DataType::Bool))
    return accumulate ? error(site.argExpr(3), "the accumulate flag of gemm is a bool, not " +
                                                   site.args[3].describe())
                      : SemaValue::poison();
  setCtaGroup(builder->create(ir::OpKind::Gemm, site.loc(),
                              {acc.irValue(), a.irValue(), b.irValue(), accumulate}),
              *group);
  return SemaValue::none();
}

} // namespace cutec
