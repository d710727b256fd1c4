// IRGenTiledMma, for CuTe DSL's tiled-MMA vocabulary (docs/language.md, "Tiled
// MMA"): the MMA op constructors, make_tiled_mma, make_smem_layout_a/b, the
// methods of a tiled MMA and of its slice (partition_shape_*, partition_*,
// make_fragment_*), and gemm(tiled_mma, ...). A tiled MMA is a compile-time
// value; its partitions of run-time tensors are `cute.make_tensor` views of
// the same memory under the partitioned layout, and gemm(tiled_mma, ...)
// regroups MMA-partitioned operands back into the (MN, K) tiles of the plain
// gemm, so both spellings lower to the same instructions.
#include "frontend/UmmaSmemLayout.h"
#include "frontend/irgen/IRGen.h"

#include "llvm/ADT/StringSwitch.h"

namespace cutec {

static bool isMethodName(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("set", "get_slice", "partition_shape_A", "partition_shape_B", "partition_shape_C",
             true)
      .Cases("make_fragment_A", "make_fragment_B", "make_fragment_C", "partition_A", "partition_B",
             "partition_C", true)
      .Default(false);
}

// The op constructors' enumerations, built-in values named by their
// spelling (as OperandMajorMode's).
static constexpr llvm::StringLiteral kCtaGroupOne = "CtaGroup.ONE", kCtaGroupTwo = "CtaGroup.TWO",
                                     kSourceSmem = "OperandSource.SMEM",
                                     kSourceTmem = "OperandSource.TMEM",
                                     kAccumulate = "Field.ACCUMULATE";

std::optional<SemaValue> IRGenTiledMma::tiledMmaAttribute(const SemaValue &base,
                                                          llvm::StringRef name) {
  if (base.is(SemaValue::Kind::TiledMma) && isMethodName(name))
    return SemaValue::method(base, name);
  return std::nullopt;
}

namespace {

/// `v` as a shape: a static integer or a tuple of them, no `_`.
std::optional<IntTuple> staticShape(const SemaValue &v) {
  std::optional<LayoutValue> l = v.toLayoutValue();
  const IntTuple *t = l ? l->get<IntTuple>() : nullptr;
  if (!t)
    return std::nullopt;
  std::vector<IntTuple> leaves;
  flattenInto(*t, leaves);
  for (const IntTuple &leaf : leaves)
    if (leaf.isUnderscore() || !leaf.leaf().isStatic() || leaf.leaf().staticValue() <= 0)
      return std::nullopt;
  return *t;
}

bool isBuiltinValue(const SemaValue &v, llvm::StringRef a, llvm::StringRef b) {
  return v.is(SemaValue::Kind::Builtin) && (v.name() == a || v.name() == b);
}

/// Whether the first element of a (possibly nested) mode has stride 1.
bool unitStride(const IntTuple &stride) {
  const IntTuple *first = &stride;
  while (first->isTuple() && first->rank() > 0)
    first = &(*first)[0];
  return first->isLeaf() && first->leaf().isConstant(1);
}

bool isFp8f6f4(ir::DataType t) {
  using ir::DataType;
  return t == DataType::F8E4M3 || t == DataType::F8E5M2 || t == DataType::F6E2M3 ||
         t == DataType::F6E3M2 || t == DataType::F4E2M1;
}

/// What an op constructor takes before the instruction shape: its element
/// types, and which of them they set.
struct OpSignature {
  size_t types; // leading dtype arguments
  bool ab, acc; // (ab, acc) / (a, b, acc) / (ab) / ()
};

OpSignature signatureOf(llvm::StringRef op) {
  if (op == "MmaF16BF16Op" || op == "warpgroup.MmaF16BF16Op")
    return {2, true, true};
  if (op == "MmaI8Op")
    return {1, true, false};
  if (op == "MmaF8F6F4Op" || op == "warpgroup.MmaF8Op" || op == "warpgroup.MmaI8Op")
    return {3, false, true};
  return {0, false, false}; // MmaTF32Op
}

/// The op's constructor without the `warpgroup.` of sm_90a's ops.
llvm::StringRef baseName(llvm::StringRef op) {
  op.consume_front("warpgroup.");
  return op;
}

/// Why `mma`'s types do not make the op, or "".
std::string ummaTypeProblem(const TiledMma &mma) {
  using ir::DataType;
  bool ok;
  llvm::StringRef op = mma.op;
  if (op == "MmaF16BF16Op")
    ok = (mma.a == DataType::F16 || mma.a == DataType::BF16) &&
         (mma.acc == DataType::F16 || mma.acc == DataType::F32);
  else if (op == "MmaI8Op")
    ok = mma.a == DataType::I8 || mma.a == DataType::U8;
  else if (op == "MmaF8F6F4Op")
    ok = isFp8f6f4(mma.a) && isFp8f6f4(mma.b) &&
         (mma.acc == DataType::F16 || mma.acc == DataType::F32);
  else
    ok = true;
  if (ok)
    return "";
  return mma.op + " does not multiply " + ir::name(mma.a).str() + " x " + ir::name(mma.b).str() +
         " into " + ir::name(mma.acc).str();
}

} // namespace

// MmaF16BF16Op(ab_dtype, acc_dtype, (M, N, K), cta_group, a_source,
// a_major, b_major), MmaTF32Op((M, N, K), ...), MmaI8Op(ab_dtype, (M, N,
// K), ...), MmaF8F6F4Op(a_dtype, b_dtype, acc_dtype, (M, N, K), ...): what
// follows the shape is optional (CtaGroup.ONE, OperandSource.SMEM,
// K-major), in this order.
SemaValue IRGenTiledMma::mmaOp(CallSite &site) {
  llvm::StringRef op = site.callee;
  OpSignature sig = signatureOf(op);
  if (!checkArity(site, op, sig.types + 1, sig.types + 5,
                  op == "warpgroup.MmaI8Op" ? llvm::ArrayRef<llvm::StringRef>{"satfinite"}
                                            : llvm::ArrayRef<llvm::StringRef>{}))
    return SemaValue::poison();
  for (size_t i = 0; i < sig.types; ++i)
    if (!site.args[i].is(SemaValue::Kind::DType))
      return error(site.argExpr(i),
                   op + " needs an element type here, not " + site.args[i].describe());
  TiledMma mma;
  mma.op = op.str();
  mma.warpgroup = op != baseName(op);
  if (baseName(op) == "MmaTF32Op") {
    mma.a = mma.b = ir::DataType::TF32;
  } else if (op == "MmaI8Op") {
    mma.a = mma.b = site.args[0].dataType();
    mma.acc = ir::DataType::I32;
  } else if (sig.ab) {
    mma.a = mma.b = site.args[0].dataType();
    mma.acc = site.args[1].dataType();
  } else {
    mma.a = site.args[0].dataType();
    mma.b = site.args[1].dataType();
    mma.acc = site.args[2].dataType();
  }
  if (mma.warpgroup)
    return gen.wgmma().warpgroupMmaOp(site, std::move(mma), sig.types);
  if (std::string problem = ummaTypeProblem(mma); !problem.empty())
    return error(site.loc(), problem, {site.range()});
  const SemaValue &shape = site.args[sig.types];
  std::vector<int64_t> mnk;
  if (shape.is(SemaValue::Kind::Tuple) && shape.elements().size() == 3)
    for (const SemaValue &e : shape.elements())
      if (e.is(SemaValue::Kind::Int) && e.intValue().isStatic())
        mnk.push_back(e.intValue().staticValue());
  size_t next = sig.types + 1;
  if (next < site.args.size() && isBuiltinValue(site.args[next], kCtaGroupOne, kCtaGroupTwo))
    mma.ctaGroup = site.args[next++].name() == kCtaGroupTwo ? 2 : 1;
  if (next < site.args.size() && isBuiltinValue(site.args[next], kSourceSmem, kSourceTmem))
    mma.aInTmem = site.args[next++].name() == kSourceTmem;
  if (site.args.size() - next > 2)
    return error(site.argExpr(next), op +
                                         " takes (M, N, K), then optionally a CtaGroup, an "
                                         "OperandSource and the two major modes, in this order; "
                                         "not " +
                                         site.args[next].describe() + " here");
  int64_t kWant = 256 / ir::bitWidth(mma.a);
  // A CTA pair's M = 128 MMA is refused by lower-mma, so pairs take M = 256.
  bool pair = mma.ctaGroup == 2;
  if (mnk.size() != 3 || (pair ? mnk[0] != 256 : mnk[0] != 64 && mnk[0] != 128) || mnk[1] < 8 ||
      mnk[1] > 256 || mnk[1] % (mnk[0] == 64 ? 8 : 16) != 0 || mnk[2] != kWant)
    return error(site.argExpr(sig.types),
                 "the instruction shape of " + op + " is a static (M, N, K): M " +
                     (pair ? "256 for a CTA pair, N a multiple of 16"
                           : "64 or 128, N a multiple of 8 (M = 64) or 16 (M = 128)") +
                     " up to 256, K " + llvm::Twine(kWant) + " (32 bytes of " + ir::name(mma.a) +
                     "), not " + shape.describe());
  mma.m = mnk[0];
  mma.n = mnk[1];
  mma.k = mnk[2];
  if (pair && mma.aInTmem)
    return error(site.loc(), "a CTA pair's MMA with A in tensor memory is not supported yet",
                 {site.range()});
  for (size_t i = next; i < site.args.size(); ++i) {
    std::optional<bool> mn = gen.tcgen05().mnMajorArgument(site.args[i], site.argExpr(i));
    if (!mn)
      return SemaValue::poison();
    (i == next ? mma.aMnMajor : mma.bMnMajor) = *mn;
    ir::DataType t = i == next ? mma.a : mma.b;
    if (*mn && ir::bitWidth(t) < 8)
      return error(site.argExpr(i),
                   "4- and 6-bit operands must be K-major; " + ir::name(t) + " cannot be MN-major");
    if (*mn && i == next && mma.aInTmem)
      return error(site.argExpr(i), "A in tensor memory is K-major");
  }
  return SemaValue::tiledMma(std::move(mma));
}

SemaValue IRGenTiledMma::callTiledMmaBuiltin(CallSite &site) {
  llvm::StringRef name = site.callee;
  if (name == "make_tiled_mma") {
    // make_tiled_mma(op, atom_layout_mnk=(1, 1, 1)): one atom per CTA.
    if (!checkArity(site, name, 1, 2))
      return SemaValue::poison();
    const SemaValue &op = site.args[0];
    if (!op.is(SemaValue::Kind::TiledMma) || op.tiledMma().isSlice)
      return error(site.argExpr(0), "make_tiled_mma takes an MMA op such as MmaF16BF16Op(...), "
                                    "not " +
                                        op.describe());
    if (site.args.size() == 2) {
      std::optional<IntTuple> atoms = staticShape(site.args[1]);
      if (!atoms || size(makeLayout(*atoms)) != IntExpr(1))
        return error(site.argExpr(1), "only a trivial tiled MMA (atom layout (1, 1, 1)) is "
                                      "supported so far, not " +
                                          site.args[1].describe());
    }
    return op;
  }
  return smemLayoutForMma(name == "make_smem_layout_a" ? MmaOperand::A : MmaOperand::B, site);
}

// make_smem_layout_a/b(tiled_mma, mma_tiler_mnk, dtype, stages): the
// operand's make_umma_smem_layout for its (MN, K) part of the tiler in the
// tiled MMA's major mode.
SemaValue IRGenTiledMma::smemLayoutForMma(MmaOperand operand, CallSite &site) {
  llvm::StringRef name = operand == MmaOperand::A ? "make_smem_layout_a" : "make_smem_layout_b";
  if (!site.bound[0].is(SemaValue::Kind::TiledMma))
    return error(site.boundExpr(0, "tiled_mma"),
                 name + " needs a tiled MMA, not " + site.bound[0].describe());
  const TiledMma &mma = site.bound[0].tiledMma();
  if (operand == MmaOperand::A && mma.aInTmem)
    return error(site.boundExpr(0, "tiled_mma"),
                 "A of " + mma.str() + " is in tensor memory, not shared memory");
  const SemaValue &tiler = site.bound[1];
  std::vector<int64_t> mnk;
  if (tiler.is(SemaValue::Kind::Tuple) && tiler.elements().size() == 3)
    for (const SemaValue &e : tiler.elements())
      if (e.is(SemaValue::Kind::Int) && e.intValue().isStatic())
        mnk.push_back(e.intValue().staticValue());
  if (mnk.size() != 3)
    return error(site.boundExpr(1, "mma_tiler_mnk"),
                 "the MMA tiler is a static (M, N, K), not " + tiler.describe());
  if (!site.bound[2].is(SemaValue::Kind::DType))
    return error(site.boundExpr(2, "dtype"),
                 name + " needs an element type, not " + site.bound[2].describe());
  ir::DataType want = operand == MmaOperand::A ? mma.a : mma.b;
  if (site.bound[2].dataType() != want)
    return error(site.boundExpr(2, "dtype"),
                 "the tiled MMA's " + llvm::Twine(operand == MmaOperand::A ? "A" : "B") + " is " +
                     ir::name(want) + ", not " + ir::name(site.bound[2].dataType()));
  const SemaValue &stages = site.bound[3];
  if (!stages.is(SemaValue::Kind::Int) || !stages.intValue().isStatic() ||
      stages.intValue().staticValue() <= 0)
    return error(site.boundExpr(3, "num_stages"),
                 "the number of stages must be a positive static integer, not " +
                     stages.describe());
  // A CTA pair's tiler is the pair's tile; each CTA holds half of its rows.
  int64_t mn = operand == MmaOperand::A ? mnk[0] : mnk[1];
  auto [instMn, instK] = instructionTile(mma, operand);
  if (mn % (instMn * mma.ctaGroup) != 0 || mnk[2] % instK != 0)
    return error(site.boundExpr(1, "mma_tiler_mnk"),
                 "the instruction tile " + llvm::Twine(instMn * mma.ctaGroup) + "x" +
                     llvm::Twine(instK) + " does not divide the (" + llvm::Twine(mn) + ", " +
                     llvm::Twine(mnk[2]) + ") tile");
  mn /= mma.ctaGroup;
  bool mnMajor = operand == MmaOperand::A ? mma.aMnMajor : mma.bMnMajor;
  llvm::Expected<ComposedLayout> layout =
      makeUmmaSmemLayout(want, mnMajor, mn, mnk[2], stages.intValue().staticValue());
  if (!layout)
    return error(site.loc(), llvm::toString(layout.takeError()), {site.range()});
  return SemaValue::fromLayoutValue(LayoutValue(*layout));
}

/// `tensor` under `layout`: the same memory, indexed anew.
SemaValue IRGenTiledMma::relayout(const SemaValue &tensor, const Layout &layout, llvm::SMLoc loc) {
  const ir::Type &type = tensor.type();
  return SemaValue::runTime(ctx.builder->createValue(
      ir::OpKind::MakeTensor, loc,
      ir::Type::tensor(type.element(), type.memorySpace(), layout, type.tensorSwizzle()),
      {tensor.irValue()}));
}

// tiled_mma.set(Field.ACCUMULATE, flag): the flag of the following
// gemm(tiled_mma, d, a, b, d) in the same block (seed 003's form).
SemaValue IRGenTiledMma::setField(const TiledMma &mma, CallSite &site) {
  if (!checkArity(site, "set", 2, 2))
    return SemaValue::poison();
  const SemaValue &field = site.args[0];
  if (!field.is(SemaValue::Kind::Builtin) || field.name() != kAccumulate)
    return error(site.argExpr(0),
                 "the field a tiled MMA sets is Field.ACCUMULATE, not " + field.describe());
  if (!requireBuilder(site.loc(), "set()"))
    return SemaValue::poison();
  ir::Value *flag = toRunTime(site.args[1], site.argExpr(1), ir::DataType::Bool);
  if (!flag || flag->type() != ir::Type::scalar(ir::DataType::Bool))
    return flag ? error(site.argExpr(1),
                        "the accumulate flag is a bool, not " + site.args[1].describe())
                : SemaValue::poison();
  *mma.accumulate = {flag, ctx.builder->insertionBlock()};
  return SemaValue::none();
}

SemaValue IRGenTiledMma::callTiledMmaMethod(const SemaValue &method, CallSite &site) {
  const TiledMma &mma = method.receiver().tiledMma();
  llvm::StringRef name = method.name();
  if (name == "set")
    return setField(mma, site);
  if (name == "get_slice") {
    if (!checkArity(site, name, 1, 1))
      return SemaValue::poison();
    const SemaValue &v = site.args[0];
    if (mma.warpgroup && !mma.isSlice) {
      // A warpgroup's slice is a thread's: which accumulator registers it
      // holds.
      ir::Value *thread = toRunTime(v, site.argExpr(0), ir::DataType::I32);
      if (!thread || thread->type() != ir::Type::scalar(ir::DataType::I32))
        return thread ? error(site.argExpr(0), "get_slice of a warpgroup MMA takes the thread "
                                               "index (an i32), not " +
                                                   v.describe())
                      : SemaValue::poison();
      TiledMma slice = mma;
      slice.isSlice = true;
      slice.thread = thread;
      return SemaValue::tiledMma(std::move(slice));
    }
    if (mma.ctaGroup == 2)
      return error(site.loc(),
                   "get_slice of a CTA pair's tiled MMA is not supported yet: give each CTA its "
                   "tiles with local_tile and use make_fragment_A/B/C",
                   {site.range()});
    if (mma.isSlice || !v.is(SemaValue::Kind::Int) || !v.intValue().isConstant(0))
      return error(site.loc(), "a tiled MMA of one CTA has the one slice get_slice(0)",
                   {site.range()});
    TiledMma slice = mma;
    slice.isSlice = true;
    return SemaValue::tiledMma(std::move(slice));
  }
  if (!checkArity(site, name, 1, 1))
    return SemaValue::poison();
  MmaOperand operand = name.ends_with("A")   ? MmaOperand::A
                       : name.ends_with("B") ? MmaOperand::B
                                             : MmaOperand::C;
  bool onSlice = name.starts_with("partition_") && !name.starts_with("partition_shape");
  if (onSlice != mma.isSlice)
    return error(site.loc(),
                 "'" + name + "' is a method of " +
                     (onSlice ? "a slice of a tiled MMA (tiled_mma.get_slice(0))"
                              : "a tiled MMA, not of its slice"),
                 {site.range()});
  const SemaValue &arg = site.args[0];
  // A coordinate tensor partitions mode by mode, as data would: each
  // element's (row, column), as index arithmetic.
  if (onSlice && IRGenTensor::isCoordinateTensor(arg))
    return gen.tensors().mapCoordinates(arg, [&](const SemaValue &mode) {
      CallSite each = site;
      each.args[0] = mode;
      return callTiledMmaMethod(method, each);
    });
  // A warpgroup thread's register fragments: the accumulator, and A when it
  // comes from registers.
  const bool registers = mma.warpgroup && (operand == MmaOperand::C ||
                                           (operand == MmaOperand::A && mma.aInRmem));
  if (registers && name == "make_fragment_A")
    return error(site.loc(),
                 "A of " + mma.str() +
                     " is each thread's register fragment: load it with "
                     "thr_mma.partition_A(sA).load()",
                 {site.range()});
  if (registers && (name.starts_with("partition_shape") || name == "make_fragment_C")) {
    // One thread's values: their shape, or a register fragment of zeros.
    std::optional<IntTuple> shape = staticShape(arg);
    if (!shape)
      return error(site.argExpr(0), "'" + name + "' takes a static shape, not " + arg.describe());
    llvm::Expected<IntTuple> values = warpgroupFragmentShape(mma, operand, *shape);
    if (!values)
      return error(site.argExpr(0), llvm::toString(values.takeError()));
    if (name.starts_with("partition_shape"))
      return SemaValue::fromIntTuple(*values);
    if (!requireBuilder(site.loc(), name + "()"))
      return SemaValue::poison();
    return zeroFragment(*values, mma.acc, site.loc());
  }
  if (registers)
    return gen.wgmma().warpgroupPartition(mma, operand, site);
  if (name.starts_with("partition_shape") || name == "make_fragment_C") {
    std::optional<IntTuple> shape = staticShape(arg);
    if (!shape)
      return error(site.argExpr(0), "'" + name + "' takes a static shape, not " + arg.describe());
    llvm::Expected<Layout> l =
        name == "make_fragment_C"
            ? accumulatorLayout(mma, *shape)
            : partitionLayout(mma, operand, makeLayout(ctaShare(mma, *shape)));
    if (!l)
      return error(site.argExpr(0), llvm::toString(l.takeError()));
    if (name == "make_fragment_C")
      return SemaValue::fromLayoutValue(*l);
    return SemaValue::fromIntTuple(l->shape);
  }
  // partition_A/B/C(gX) and make_fragment_A/B(sX): the tensor under its
  // MMA-partitioned layout. A in tensor memory is its u32 tmem_tensor.
  bool fragment = name.starts_with("make_fragment");
  ir::MemorySpace fragmentSpace =
      operand == MmaOperand::A && mma.aInTmem ? ir::MemorySpace::Tensor : ir::MemorySpace::Shared;
  if (!arg.is(SemaValue::Kind::RunTime) || !arg.type().isTensor() ||
      (fragment ? arg.type().memorySpace() != fragmentSpace
                : arg.type().memorySpace() == ir::MemorySpace::Register) ||
      (fragment && fragmentSpace == ir::MemorySpace::Tensor &&
       arg.type().element() != ir::DataType::U32))
    return error(site.argExpr(0), "'" + name + "' takes " +
                                      (!fragment ? "a tensor in memory"
                                       : fragmentSpace == ir::MemorySpace::Tensor
                                           ? "a u32 tmem_tensor (A of this op is in tensor memory)"
                                           : "a shared tensor") +
                                      ", not " + arg.describe());
  if (!requireBuilder(site.loc(), name + "()"))
    return SemaValue::poison();
  // A in tensor memory packs K into 32-bit cells: its tile is (M, cells).
  TiledMma tile = mma;
  if (fragment && fragmentSpace == ir::MemorySpace::Tensor)
    tile.k = mma.k * ir::bitWidth(mma.a) / 32;
  llvm::Expected<Layout> l = partitionLayout(tile, operand, arg.type().tensorLayout());
  if (!l)
    return error(site.argExpr(0), llvm::toString(l.takeError()));
  return relayout(arg, *l, site.loc());
}

// gemm(tiled_mma, acc, a, b, accumulate): the plain gemm, after checking
// the operands against the tiled MMA; a and b may be MMA-partitioned
// ((instMN, instK), MMA_MN, MMA_K), which becomes their (MN, K) tile again.
SemaValue IRGenTiledMma::tiledMmaGemm(CallSite &site) {
  if (!checkArity(site, "gemm", 5, 5))
    return SemaValue::poison();
  const TiledMma &mma = site.args[0].tiledMma();
  if (!requireBuilder(site.loc(), "gemm()"))
    return SemaValue::poison();
  auto [m, n] = instructionTile(mma, MmaOperand::C);
  // gemm(tiled_mma, d, a, b, d): C is D, and the flag is the one set().
  const SemaValue &c = site.args[4];
  if (c.is(SemaValue::Kind::RunTime) && c.type().isTensor()) {
    if (!site.args[1].is(SemaValue::Kind::RunTime) || c.irValue() != site.args[1].irValue())
      return error(site.argExpr(4), "C of gemm(tiled_mma, d, a, b, c) is the accumulator d "
                                    "itself (D = A B + D) or an accumulate flag, not " +
                                        c.describe());
    if (mma.accumulate->block != ctx.builder->insertionBlock())
      return error(site.argExpr(4),
                   "gemm(tiled_mma, d, a, b, d) takes the accumulate flag from "
                   "tiled_mma.set(Field.ACCUMULATE, flag) in the same block, and none was set "
                   "there");
    site.args[4] = SemaValue::runTime(mma.accumulate->flag);
  }
  const SemaValue &acc = site.args[1];
  if (mma.warpgroup) {
    if (!acc.is(SemaValue::Kind::RunTime) || !acc.type().isTensor() ||
        acc.type().memorySpace() != ir::MemorySpace::Register || acc.type().element() != mma.acc)
      return error(site.argExpr(1), "the accumulator of " + mma.str() + " is the thread's " +
                                        ir::name(mma.acc) +
                                        " register fragment (make_fragment_C or make_rmem_tensor "
                                        "of partition_shape_C), not " +
                                        acc.describe());
  } else if (acc.is(SemaValue::Kind::RunTime) && acc.type().isTensor() &&
             acc.type().memorySpace() == ir::MemorySpace::Tensor) {
    // make_fragment_C's ((M, N), 1, 1) is the (M, N) tile.
    std::string given = acc.describe();
    const Layout &l = acc.type().tensorLayout();
    if (l.rank() == 3 && l.shape[0].isTuple() && l.shape[0].rank() == 2 &&
        size(makeLayout(l.shape[1])) == IntExpr(1) && size(makeLayout(l.shape[2])) == IntExpr(1))
      site.args[1] = relayout(acc,
                              makeLayout({Layout(l.shape[0][0], l.stride[0][0]),
                                          Layout(l.shape[0][1], l.stride[0][1])}),
                              site.argExpr(1).getLoc());
    const Layout &tile = site.args[1].type().tensorLayout();
    if (acc.type().element() != mma.acc || tile.rank() != 2 ||
        size(makeLayout(tile.shape[0])) != m || size(makeLayout(tile.shape[1])) != n)
      return error(site.argExpr(1), "the accumulator of " + mma.str() + " is a (" + llvm::Twine(m) +
                                        ", " + llvm::Twine(n) + ") " + ir::name(mma.acc) +
                                        " tmem_tensor or its make_fragment_C ((" + llvm::Twine(m) +
                                        ", " + llvm::Twine(n) +
                                        "), 1, 1) (one instruction tile per CTA tile so far), "
                                        "not " +
                                        given);
  }
  for (size_t i : {size_t(2), size_t(3)}) {
    if (i == 2 && mma.aInRmem)
      continue; // a register fragment, which warpgroupGemm checks
    const SemaValue &v = site.args[i];
    bool tmemA = i == 2 && mma.aInTmem;
    ir::DataType want = tmemA ? ir::DataType::U32 : i == 2 ? mma.a : mma.b;
    if (!v.is(SemaValue::Kind::RunTime) || !v.type().isTensor())
      continue; // the plain gemm reports it
    if (v.type().element() != want ||
        (i == 2 && (v.type().memorySpace() == ir::MemorySpace::Tensor) != tmemA))
      return error(site.argExpr(i),
                   llvm::Twine(i == 2 ? "A" : "B") + " of " + mma.str() + " is " +
                       (tmemA ? "a u32 tmem_tensor of packed " + ir::name(mma.a).str() + " cells"
                              : ir::name(want).str() + " in shared memory") +
                       ", not " + v.describe());
    const Layout &l = v.type().tensorLayout();
    auto [instMn, instK] = instructionTile(mma, i == 2 ? MmaOperand::A : MmaOperand::B);
    auto extent = [](const IntTuple &mode) { return size(makeLayout(mode)).getStatic(); };
    // A K block is told from a plain (MN, K) tile with a nested MN mode by
    // its first mode: one instruction's (MN, K), in elements of shared memory.
    bool kBlock = l.rank() == 2 && !tmemA && l.shape[0].isTuple() && l.shape[0].rank() == 2 &&
                  extent(l.shape[0][0]) == instMn && extent(l.shape[0][1]) == instK;
    if ((l.rank() == 3 && l.shape[0].isTuple() && l.shape[0].rank() == 2) || kBlock) {
      // ((instMN, instK), MMA_MN, MMA_K) -> ((instMN, MMA_MN), (instK, MMA_K)),
      // each mode coalesced: the tile the plain gemm takes. A K block of
      // it, ((instMN, instK), MMA_MN), is the same with one K block.
      Layout mn = coalesce(
          makeLayout({Layout(l.shape[0][0], l.stride[0][0]), Layout(l.shape[1], l.stride[1])}));
      Layout k = Layout(l.shape[0][1], l.stride[0][1]);
      if (l.rank() == 3)
        k = coalesce(makeLayout({k, Layout(l.shape[2], l.stride[2])}));
      site.args[i] = relayout(v, makeLayout({mn, k}), site.argExpr(i).getLoc());
    }
    const Layout &tile = site.args[i].type().tensorLayout();
    bool mnMajor = i == 2 ? mma.aMnMajor : mma.bMnMajor;
    if (tile.rank() == 2 && !unitStride(tile.stride[mnMajor ? 0 : 1]))
      return error(site.argExpr(i), llvm::Twine(i == 2 ? "A" : "B") + " of " + mma.str() + " is " +
                                        (mnMajor ? "MN" : "K") +
                                        "-major: its tile needs that mode contiguous, not " +
                                        tile.str());
  }
  if (mma.warpgroup)
    return gen.wgmma().warpgroupGemm(mma, site);
  // A pair's atom is gemm(..., cta_group=2).
  if (mma.ctaGroup == 2)
    site.keywords.push_back(
        {"cta_group", site.range(), SemaValue::integer(IntExpr(2)), &site.call});
  return gen.tcgen05().gemm(site, 1);
}

SemaValue IRGenTiledMma::zeroFragment(const IntTuple &shape, ir::DataType element,
                                      llvm::SMLoc loc) {
  ir::Value *zero = ir::isFloat(element) ? ctx.builder->constantFloat(loc, element, 0.0)
                                         : ctx.builder->constantInt(loc, element, 0);
  return gen.tensors().filledFragment(shape, zero, loc);
}

// make_rmem_tensor(layout_or_shape, dtype) and make_fragment: CuTe DSL's
// register tensor, here filled with zeros (a first gemm that does not
// accumulate ignores them). A layout gives its shape: a fragment is a value,
// its registers have no strides.
SemaValue IRGenTiledMma::makeRmemTensor(CallSite &site) {
  std::optional<IntTuple> shape = staticShape(site.bound[0]);
  if (std::optional<LayoutValue> l = site.bound[0].toLayoutValue(); !shape && l && l->get<Layout>())
    shape = staticShape(SemaValue::fromIntTuple(l->get<Layout>()->shape));
  if (!shape)
    return error(site.boundExpr(0, site.callee == "make_fragment" ? "layout_or_shape" : "shape"),
                 site.callee + " takes a static shape or layout, not " + site.bound[0].describe());
  if (!site.bound[1].is(SemaValue::Kind::DType))
    return error(site.boundExpr(1, "dtype"),
                 site.callee + " needs an element type, not " + site.bound[1].describe());
  if (!requireBuilder(site.loc(), site.callee + "()"))
    return SemaValue::poison();
  return zeroFragment(*shape, site.bound[1].dataType(), site.loc());
}

} // namespace cutec
