// IRGenWarpgroupMma, for Hopper's warpgroup MMA (sm_90a, docs/language.md
// "Warpgroup MMA"): the ops of CuTe DSL's cute.nvgpu.warpgroup (and MmaTF32Op,
// which CuTe DSL lacks there), the thread's register fragments of A and the
// accumulator, and gemm(tiled_mma, ...) into a register accumulator.
#include "frontend/irgen/IRGen.h"

namespace cutec {
namespace {

using ir::DataType;

bool isFp8(DataType t) { return t == DataType::F8E4M3 || t == DataType::F8E5M2; }
bool isInt8(DataType t) { return t == DataType::I8 || t == DataType::U8; }

/// Why no wgmma multiplies `mma`'s types, or "" (PTX ISA, wgmma "Data
/// types": f16 into f16 or f32, bf16 and tf32 into f32, e4m3/e5m2 into f16
/// or f32, s8/u8 into s32).
std::string wgmmaTypeProblem(const TiledMma &mma) {
  llvm::StringRef op = mma.op;
  const bool f16Acc = mma.acc == DataType::F16 || mma.acc == DataType::F32;
  std::string allowed;
  bool ok = true;
  if (op == "warpgroup.MmaF8Op") {
    ok = isFp8(mma.a) && isFp8(mma.b) && f16Acc;
    allowed = "f8e4m3 or f8e5m2 (which may differ) into f16 or f32";
  } else if (op == "warpgroup.MmaI8Op") {
    ok = isInt8(mma.a) && isInt8(mma.b) && mma.acc == DataType::I32;
    allowed = "i8 or u8 (which may differ) into i32";
  } else if (op == "warpgroup.MmaF16BF16Op") {
    ok = (mma.a == DataType::F16 && f16Acc) || (mma.a == DataType::BF16 && mma.acc == DataType::F32);
    allowed = "f16 into f16 or f32, bf16 into f32";
  }
  if (ok)
    return "";
  return mma.op + " does not multiply " + ir::name(mma.a).str() + " x " + ir::name(mma.b).str() +
         " into " + ir::name(mma.acc).str() + " (it multiplies " + allowed + ")";
}

/// The N an instruction takes: a multiple of 8 up to 256; for the integer
/// kinds 8, 16, 24 or a multiple of 16.
bool validN(const TiledMma &mma, int64_t n) {
  if (n < 8 || n > 256 || n % 8)
    return false;
  return !isInt8(mma.a) || n <= 24 || n % 16 == 0;
}

} // namespace

// warpgroup.MmaF16BF16Op(ab_dtype, acc_dtype, (64, N, 16), a_source,
// a_major, b_major), warpgroup.MmaF8Op and warpgroup.MmaI8Op(a_dtype,
// b_dtype, acc_dtype, (64, N, 32), ..., satfinite=False (I8 only)) and
// warpgroup.MmaTF32Op((64, N, 8), ...) after their element types: the
// instruction shape (K is 32 bytes of the inputs), then optionally the
// OperandSource of A and the two major modes.
SemaValue IRGenWarpgroupMma::warpgroupMmaOp(CallSite &site, TiledMma mma, size_t shapeArgument) {
  if (std::string problem = wgmmaTypeProblem(mma); !problem.empty())
    return error(site.loc(), problem, {site.range()});
  const SemaValue &shape = site.args[shapeArgument];
  std::vector<int64_t> mnk;
  if (shape.is(SemaValue::Kind::Tuple) && shape.elements().size() == 3)
    for (const SemaValue &e : shape.elements())
      if (e.is(SemaValue::Kind::Int) && e.intValue().isStatic())
        mnk.push_back(e.intValue().staticValue());
  const int64_t kWant = 256 / ir::bitWidth(mma.a);
  if (mnk.size() != 3 || mnk[0] != 64 || !validN(mma, mnk[1]) || mnk[2] != kWant)
    return error(site.argExpr(shapeArgument),
                 "the instruction shape of " + mma.op + " is a static (64, N, " +
                     llvm::Twine(kWant) + "), N a multiple of 8 up to 256" +
                     (isInt8(mma.a) ? " (8, 16, 24 or a multiple of 16)" : "") + ", not " +
                     shape.describe());
  mma.m = 64;
  mma.n = mnk[1];
  mma.k = kWant;
  size_t next = shapeArgument + 1;
  if (next < site.args.size() && site.args[next].is(SemaValue::Kind::Builtin) &&
      site.args[next].name().starts_with("OperandSource.")) {
    llvm::StringRef source = site.args[next].name();
    if (source != "OperandSource.SMEM" && source != "OperandSource.RMEM")
      return error(site.argExpr(next), "A of a warpgroup MMA comes from shared memory "
                                       "(OperandSource.SMEM) or registers (OperandSource.RMEM), "
                                       "not " +
                                           site.args[next].describe());
    mma.aInRmem = source == "OperandSource.RMEM";
    ++next;
  }
  if (site.args.size() - next > 2)
    return error(site.argExpr(next), mma.op + " takes (64, N, " + llvm::Twine(kWant) +
                                         "), then optionally an OperandSource and the two "
                                         "major modes, in this order; not " +
                                         site.args[next].describe() + " here");
  for (size_t i = next; i < site.args.size(); ++i) {
    std::optional<bool> mn = gen.tcgen05().mnMajorArgument(site.args[i], site.argExpr(i));
    if (!mn)
      return SemaValue::poison();
    const bool isA = i == next;
    if (*mn && ir::bitWidth(isA ? mma.a : mma.b) != 16)
      return error(site.argExpr(i), "wgmma reads " + ir::name(isA ? mma.a : mma.b) +
                                        " operands K-major only (MN-major is for f16 and bf16)");
    if (*mn && isA && mma.aInRmem)
      return error(site.argExpr(i), "A from registers is K-major (the fragment's layout); only B "
                                    "may be MN-major");
    (isA ? mma.aMnMajor : mma.bMnMajor) = *mn;
  }
  if (const CallSite::Keyword *sat = site.keyword("satfinite")) {
    if (!sat->value.is(SemaValue::Kind::Bool))
      return error(*sat->expr, "satfinite is True or False, not " + sat->value.describe());
    mma.satfinite = sat->value.boolValue();
  }
  return SemaValue::tiledMma(std::move(mma));
}

// thr_mma.partition_C(gC) (and partition_A(sA) for A in registers) of a
// warpgroup MMA: thread t = 32w + l of the warpgroup holds, of each 64 x X
// instruction tile (X = N for C, K for A), E elements of rows 16w + l/4
// (+ 8) from column E(l%4) (+ 4E j), E per 32-bit register (the PTX ISA's
// wgmma fragments), as ((E, 2, X/(4E)), M/64, X'/X) : ((c, 8r, 4Ec), 64r,
// Xc) from its first element, r and c the tile's row and column strides.
SemaValue IRGenWarpgroupMma::warpgroupPartition(const TiledMma &slice, MmaOperand operand,
                                                CallSite &site) {
  const char *name = operand == MmaOperand::A ? "partition_A" : "partition_C";
  const char *modes = operand == MmaOperand::A ? "(M, K)" : "(M, N)";
  const SemaValue &tile = site.args[0];
  if (!tile.is(SemaValue::Kind::RunTime) || !tile.type().isTensor() ||
      tile.type().memorySpace() == ir::MemorySpace::Register ||
      tile.type().tensorLayout().rank() != 2)
    return error(site.argExpr(0), llvm::Twine(name) + " of a warpgroup MMA takes an " + modes +
                                      " tile in memory, not " + tile.describe());
  const Layout &layout = tile.type().tensorLayout();
  if (layout.shape[0].isTuple() || layout.shape[1].isTuple())
    return error(site.argExpr(0), llvm::Twine(name) + " of a warpgroup MMA takes an " + modes +
                                      " tile with unnested modes, not " + tile.describe());
  llvm::Expected<IntTuple> values = warpgroupFragmentShape(slice, operand, layout.shape);
  if (!values)
    return error(site.argExpr(0), llvm::toString(values.takeError()));
  if (!requireBuilder(site.loc(), llvm::Twine(name) + "()"))
    return SemaValue::poison();
  const int64_t e = warpgroupElementsPerRegister(slice, operand);
  const int64_t width = operand == MmaOperand::C ? slice.n : slice.k;
  const IntExpr &r = layout.stride[0].leaf(), &c = layout.stride[1].leaf();
  IntTuple strides = tup(tup(c, r * IntExpr(8), c * IntExpr(4 * e)), r * IntExpr(64),
                         c * IntExpr(width));
  llvm::SMLoc loc = site.loc();
  auto binary = [&](ir::OpKind kind, ir::Value *x, int64_t y) {
    return ctx.builder->createValue(kind, loc, ir::Type::scalar(DataType::I32),
                                    {x, ctx.builder->constantInt(loc, DataType::I32, y)});
  };
  ir::Value *warp = binary(ir::OpKind::Rem, binary(ir::OpKind::Div, slice.thread, 32), 4);
  ir::Value *lane = binary(ir::OpKind::Rem, slice.thread, 32);
  ir::Value *row = ctx.builder->createValue(
      ir::OpKind::Add, loc, ir::Type::scalar(DataType::I32),
      {binary(ir::OpKind::Mul, warp, 16), binary(ir::OpKind::Div, lane, 4)});
  ir::Value *column = binary(ir::OpKind::Mul, binary(ir::OpKind::Rem, lane, 4), e);
  // The thread's first element: the tile sliced at (row, column).
  llvm::Expected<LayoutValue> point = callLayoutFunction("slice", {layout, tup(0, 0)});
  if (!point)
    return error(site.loc(), llvm::toString(point.takeError()), {site.range()});
  const ir::Type &type = tile.type();
  ir::Operation &first =
      ctx.builder->create(ir::OpKind::Slice, loc, {tile.irValue(), row, column},
                          {ir::Type::tensor(type.element(), type.memorySpace(),
                                            *point->get<Layout>(), type.tensorSwizzle())});
  first.set(ir::attr::coord, tup(IntExpr::symbol("$0"), IntExpr::symbol("$1")));
  llvm::Expected<Layout> partition = makeLayout(*values, strides);
  if (!partition)
    return error(site.loc(), llvm::toString(partition.takeError()), {site.range()});
  return gen.tiledMma().relayout(SemaValue::runTime(first.result()), *partition, loc);
}

// gemm(tiled_mma, acc, a, b, flag) of a warpgroup MMA: cute.gemm returns
// the new accumulator (the caller assigns it: acc = gemm(...)). A is an
// (M, K) shared tile, or with A in registers the thread's fragment ((E, 2,
// K/(4E)), MMA_M, MMA_K), every element its own register.
SemaValue IRGenWarpgroupMma::warpgroupGemm(const TiledMma &mma, CallSite &site) {
  const SemaValue &acc = site.args[1];
  const SemaValue &a = site.args[2], &b = site.args[3];
  auto sharedTile = [](const SemaValue &v) {
    return v.is(SemaValue::Kind::RunTime) && v.type().isTensor() &&
           v.type().memorySpace() == ir::MemorySpace::Shared &&
           v.type().tensorLayout().rank() == 2;
  };
  auto extent = [](const SemaValue &v, size_t mode) {
    return size(makeLayout(v.type().tensorLayout().shape[mode]));
  };
  std::optional<int64_t> m, k;
  if (mma.aInRmem) {
    llvm::Expected<IntTuple> one = warpgroupFragmentShape(mma, MmaOperand::A, tup(64, mma.k));
    const Layout *l = a.is(SemaValue::Kind::RunTime) && a.type().isTensor() &&
                              a.type().memorySpace() == ir::MemorySpace::Register &&
                              a.type().element() == mma.a
                          ? &a.type().tensorLayout()
                          : nullptr;
    std::optional<int64_t> tilesM = l && l->rank() == 3 ? extent(a, 1).getStatic() : std::nullopt,
                           tilesK = l && l->rank() == 3 ? extent(a, 2).getStatic() : std::nullopt;
    if (!one || !tilesM || !tilesK || !(l->shape[0] == (*one)[0]) ||
        size(filterZeros(*l)) != size(*l))
      return error(site.argExpr(2), "A of " + mma.str() + " is the thread's " +
                                        ir::name(mma.a) + " register fragment (" +
                                        (one ? (*one)[0].str() : std::string("?")) +
                                        ", MMA_M, MMA_K) that thr_mma.partition_A(sA).load() "
                                        "gives, not " +
                                        a.describe());
    m = *tilesM * 64;
    k = *tilesK * mma.k;
  } else if (sharedTile(a)) {
    m = extent(a, 0).getStatic();
    k = extent(a, 1).getStatic();
  } else {
    return error(site.argExpr(2), "A of " + mma.str() +
                                      " is an (M, K) tile of a shared tensor or its "
                                      "make_fragment, not " +
                                      a.describe());
  }
  if (!sharedTile(b))
    return error(site.argExpr(3), "B of " + mma.str() +
                                      " is an (N, K) tile of a shared tensor or its "
                                      "make_fragment, not " +
                                      b.describe());
  std::optional<int64_t> values = size(acc.type().tensorLayout()).getStatic();
  std::optional<int64_t> n = extent(b, 0).getStatic(), kb = extent(b, 1).getStatic();
  if (!m || !n || !k || *m % 64 || *n % mma.n || k != kb || !values ||
      *values != *m / 64 * (*n / mma.n) * (mma.n / 2))
    return error(site.loc(),
                 "gemm of " + mma.str() + " multiplies (64 MMA_M, K) by (" + llvm::Twine(mma.n) +
                     " MMA_N, K) into the thread's ((2, 2, " + llvm::Twine(mma.n / 8) +
                     "), MMA_M, MMA_N) accumulator: the shapes " +
                     a.type().tensorLayout().shape.str() + ", " +
                     b.type().tensorLayout().shape.str() + " and " +
                     acc.type().tensorLayout().shape.str() + " do not agree",
                 {site.range()});
  const SemaValue &flag = site.args[4];
  ir::Value *accumulate = toRunTime(flag, site.argExpr(4), DataType::Bool);
  if (!accumulate || accumulate->type() != ir::Type::scalar(DataType::Bool))
    return accumulate ? error(site.argExpr(4),
                              "the accumulate flag of gemm is a bool, not " + flag.describe())
                      : SemaValue::poison();
  ir::Operation &op =
      ctx.builder->create(ir::OpKind::Gemm, site.loc(),
                          {acc.irValue(), a.irValue(), b.irValue(), accumulate}, {acc.type()});
  op.set(ir::attr::n, mma.n);
  if (mma.satfinite)
    op.set(ir::attr::satfinite, int64_t(1));
  return SemaValue::runTime(op.result());
}

} // namespace cutec
