//===- IRGenFragment.cpp - Arithmetic on register fragments ---------------===//
//
// A register fragment (what `.load()`, `.to()` and `make_rmem_tensor`
// give) takes the scalar operators, the math functions and `reduce` (whole
// or per mode) element by element (docs/language.md, "Register
// fragments"): each element is extracted, the scalar rule applies with its checks and
// messages, and `cute.fragment_of` gathers the results into a fragment of
// the fragment operands' shape: one that they all flatten to, or as in CuTe
// DSL their broadcast, a mode of extent 1 repeated along the others'. A
// compile-time or run-time scalar operand is used for every element.
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"

namespace cutec {

bool IRGenTensor::isFragment(const SemaValue &v) {
  return v.is(SemaValue::Kind::RunTime) && v.type().isTensor() &&
         v.type().memorySpace() == ir::MemorySpace::Register;
}

SemaValue IRGenTensor::fragmentElement(const SemaValue &fragment, int64_t index, llvm::SMLoc loc) {
  // An element of a fragment built from scalars is that scalar.
  if (const ir::Operation *def = fragment.irValue()->definingOp()) {
    if (def->kind() == ir::OpKind::FragmentOf)
      return SemaValue::runTime(def->operand(index));
    if (def->kind() == ir::OpKind::Fill)
      return SemaValue::runTime(def->operand(0));
  }
  ir::Operation &extract = ctx.builder->create(ir::OpKind::Extract, loc, {fragment.irValue()},
                                               {ir::Type::scalar(fragment.type().element())});
  extract.set(ir::attr::index, index);
  return SemaValue::runTime(extract.result());
}

namespace {

bool isOne(const IntTuple &t) { return t.isLeaf() && t.leaf().isConstant(1); }

/// CuTe DSL's broadcast of two shapes: the shorter padded with 1s to the
/// other's rank, then mode by mode the equal extents, a 1 giving way to
/// the other's (a whole mode). Null when they do not meet.
std::optional<IntTuple> broadcastShape(const IntTuple &a, const IntTuple &b, bool top = true) {
  if (a == b || isOne(b))
    return a;
  if (isOne(a))
    return b;
  size_t rank = std::max(a.rank(), b.rank());
  IntTuple pa = top ? appendTo(a, rank, IntTuple(1)) : a;
  IntTuple pb = top ? appendTo(b, rank, IntTuple(1)) : b;
  if (pa.isLeaf() || pb.isLeaf() || pa.rank() != pb.rank())
    return std::nullopt;
  std::vector<IntTuple> modes;
  for (size_t i = 0; i < pa.rank(); ++i) {
    std::optional<IntTuple> mode = broadcastShape(pa[i], pb[i], false);
    if (!mode)
      return std::nullopt;
    modes.push_back(*mode);
  }
  return IntTuple::tuple(std::move(modes));
}

/// The strides, congruent to the broadcast shape `to`, that map an element
/// of `to` to its element in a compact fragment of shape `from`: 0 along
/// the modes where `from` has 1. `next` is the stride of from's next leaf.
IntTuple broadcastStrides(const IntTuple &from, const IntTuple &to, int64_t &next,
                          bool top = true) {
  if (isOne(from) && !isOne(to))
    return repeatLike(to, IntExpr(0));
  if (to.isLeaf()) {
    IntTuple stride(next);
    next *= to.leaf().staticValue();
    return stride;
  }
  IntTuple padded = top ? appendTo(from, to.rank(), IntTuple(1)) : from;
  std::vector<IntTuple> strides;
  for (size_t i = 0; i < to.rank(); ++i)
    strides.push_back(broadcastStrides(padded[i], to[i], next, false));
  return IntTuple::tuple(std::move(strides));
}

} // namespace

SemaValue
IRGenTensor::elementwise(llvm::ArrayRef<SemaValue> operands,
                         llvm::ArrayRef<const ast::Expr *> exprs, llvm::SMLoc loc,
                         llvm::function_ref<SemaValue(llvm::ArrayRef<SemaValue>)> scalar) {
  // The result's shape: the fragments', when they hold their elements in one
  // order ((4) and ((4)) do), else their broadcast.
  std::optional<IntTuple> shape;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!isFragment(operands[i]))
      continue;
    const IntTuple &s = operands[i].type().tensorLayout().shape;
    std::optional<IntTuple> both = !shape                          ? s
                                   : flatten(*shape) == flatten(s) ? *shape
                                                                   : broadcastShape(*shape, s);
    if (!both)
      return error(*exprs[i], "element-wise operands must have one shape: " + shape->str() +
                                  " and " + s.str() +
                                  " (a mode of extent 1 is repeated along the other's)");
    shape = both;
  }
  int64_t count = size(makeLayout(*shape)).staticValue();
  // Per fragment operand, its element for each element of the result.
  std::vector<std::optional<StaticIndexer>> index(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!isFragment(operands[i]))
      continue;
    const IntTuple &s = operands[i].type().tensorLayout().shape;
    int64_t next = 1;
    if (!(flatten(*shape) == flatten(s)))
      index[i] = StaticIndexer::of(Layout(*shape, broadcastStrides(s, *shape, next)));
  }
  std::vector<ir::Value *> elements;
  for (int64_t e = 0; e < count; ++e) {
    std::vector<SemaValue> scalars;
    for (size_t i = 0; i < operands.size(); ++i)
      scalars.push_back(!isFragment(operands[i]) ? operands[i]
                        : index[i]               ? fragmentElement(operands[i], (*index[i])(e), loc)
                                                 : fragmentElement(operands[i], e, loc));
    // The first element reports a type error once for all of them.
    SemaValue r = scalar(scalars);
    if (r.isPoison())
      return r;
    if (!r.is(SemaValue::Kind::RunTime) || !r.type().isScalar())
      return error(loc, "internal error: an element-wise operation gave " + r.describe());
    elements.push_back(r.irValue());
  }
  ir::Type type = ir::Type::tensor(elements.front()->type().element(), ir::MemorySpace::Register,
                                   makeLayout(*shape));
  return SemaValue::runTime(ctx.builder->createValue(ir::OpKind::FragmentOf, loc, type, elements));
}

namespace {

/// The slice patterns of a reduction profile: `kept` has `_` at the modes
/// the profile keeps (`_`, CuTe DSL's None) and 0 at those it reduces (an
/// integer);
/// `reduced` the other way round. Null when the profile is not weakly
/// congruent to the shape.
struct ProfilePatterns {
  IntTuple kept, reduced;
};

std::optional<ProfilePatterns> profilePatterns(const SemaValue &profile, const IntTuple &shape) {
  if (profile.isWildcard())
    return ProfilePatterns{IntTuple::underscore(), IntTuple(0)};
  if (profile.is(SemaValue::Kind::Int) && profile.intValue().isStatic())
    return ProfilePatterns{IntTuple(0), IntTuple::underscore()};
  if (!profile.is(SemaValue::Kind::Tuple) || !shape.isTuple() ||
      profile.elements().size() != shape.rank())
    return std::nullopt;
  std::vector<IntTuple> kept, reduced;
  for (size_t i = 0; i < shape.rank(); ++i) {
    std::optional<ProfilePatterns> mode = profilePatterns(profile.elements()[i], shape[i]);
    if (!mode)
      return std::nullopt;
    kept.push_back(mode->kept);
    reduced.push_back(mode->reduced);
  }
  return ProfilePatterns{IntTuple::tuple(std::move(kept)), IntTuple::tuple(std::move(reduced))};
}

/// The logical indices of the elements `pattern` keeps, in their order.
std::vector<int64_t> slicedIndices(const Layout &logical, const IntTuple &pattern,
                                   IntTuple &shape) {
  Layout picked = llvm::cantFail(slice(logical, pattern));
  shape = picked.shape;
  StaticIndexer index = *StaticIndexer::of(picked);
  std::vector<int64_t> indices;
  for (int64_t i = 0; i < index.size(); ++i)
    indices.push_back(index(i));
  return indices;
}

} // namespace

// frag.reduce(op, init, reduction_profile=p), CuTe DSL's TensorSSA.reduce:
// an integer profile (0) combines every element into one scalar; a tuple
// keeps the modes where it has `_` (CuTe DSL's None) and reduces those where it has
// an integer, giving a fragment of the kept modes. Each result element is
// init combined with its reduced elements one after another in their
// column-major order: ((init op f[r0]) op f[r1]) ...
SemaValue IRGenTensor::fragmentReduce(const SemaValue &fragment, CallSite &site) {
  if (!checkArity(site, "reduce", 2, 3, {"reduction_profile"}))
    return SemaValue::poison();
  const IntTuple &shape = fragment.type().tensorLayout().shape;
  const CallSite::Keyword *keyword = site.keyword("reduction_profile");
  if (keyword && site.args.size() == 3)
    return error(*keyword->expr, "reduction_profile given twice");
  const SemaValue profile = keyword                 ? keyword->value
                            : site.args.size() == 3 ? site.args[2]
                                                    : SemaValue::integer(IntExpr(0));
  const ast::Expr &profileExpr = keyword ? *keyword->expr : site.argExpr(2);
  std::optional<ProfilePatterns> patterns = profilePatterns(profile, shape);
  if (!patterns)
    return error(profileExpr, "reduction_profile must be an integer (the whole fragment) or a "
                              "tuple like the fragment's shape " +
                                  shape.str() +
                                  " with `_` to keep a mode and an integer to reduce it, not " +
                                  (profile.is(SemaValue::Kind::Tuple)
                                       ? IRGenExpr::loadedSpelling(profileExpr, profile)
                                       : profile.describe()));
  const SemaValue &op = site.args[0];
  static const std::pair<llvm::StringLiteral, ir::OpKind> kinds[] = {
      {"ReductionOp.ADD", ir::OpKind::Add},
      {"ReductionOp.MUL", ir::OpKind::Mul},
      {"ReductionOp.MAX", ir::OpKind::MathCall},
      {"ReductionOp.MIN", ir::OpKind::MathCall}};
  const std::pair<llvm::StringLiteral, ir::OpKind> *kind = nullptr;
  for (const auto &k : kinds)
    if (op.is(SemaValue::Kind::Builtin) && op.name() == k.first)
      kind = &k;
  if (!kind)
    return error(site.argExpr(0), "reduce takes ReductionOp.ADD, MUL, MAX or MIN, not " +
                                      op.describe());
  ir::DataType type = fragment.type().element();
  if (!gen.exprs().checkArithmeticType(type, site.loc(), site.range()))
    return SemaValue::poison();
  ir::Value *init = toRunTime(site.args[1], site.argExpr(1), type);
  if (!init)
    return SemaValue::poison();
  if (init->type() != ir::Type::scalar(type))
    return error(site.argExpr(1), "the initial value of reduce must be " + ir::name(type) +
                                      ", the fragment's element type, not " +
                                      site.args[1].describe());
  const Layout logical = makeLayout(shape);
  IntTuple keptShape, reducedShape;
  std::vector<int64_t> kept = slicedIndices(logical, patterns->kept, keptShape);
  std::vector<int64_t> reduced = slicedIndices(logical, patterns->reduced, reducedShape);
  std::vector<ir::Value *> results;
  for (int64_t k : kept) {
    ir::Value *acc = init;
    for (int64_t r : reduced) {
      ir::Value *element = fragmentElement(fragment, k + r, site.loc()).irValue();
      ir::Operation &step =
          ctx.builder->create(kind->second, site.loc(), {acc, element}, {ir::Type::scalar(type)});
      if (kind->second == ir::OpKind::MathCall)
        step.set(ir::attr::fn, std::string(kind->first.ends_with("MAX") ? "max" : "min"));
      acc = step.result();
    }
    results.push_back(acc);
  }
  if (patterns->kept.isLeaf() && !patterns->kept.isUnderscore())
    return SemaValue::runTime(results.front());
  ir::Type result = ir::Type::tensor(type, ir::MemorySpace::Register, makeLayout(keptShape));
  return SemaValue::runTime(
      ctx.builder->createValue(ir::OpKind::FragmentOf, site.loc(), result, results));
}

SemaValue IRGenTensor::gatherFragment(const SemaValue &fragment, llvm::ArrayRef<int64_t> indices,
                                      const IntTuple &shape, llvm::SMLoc loc) {
  std::vector<ir::Value *> elements;
  for (int64_t i : indices)
    elements.push_back(fragmentElement(fragment, i, loc).irValue());
  ir::Type type =
      ir::Type::tensor(fragment.type().element(), ir::MemorySpace::Register, makeLayout(shape));
  return SemaValue::runTime(ctx.builder->createValue(ir::OpKind::FragmentOf, loc, type, elements));
}

// A layout function of a register fragment (logical_divide(frag, tiler),
// group_modes, ...), as CuTe applies it to a tensor: a fragment of the same
// registers whose element i is the one at logical index arranged(i).
SemaValue IRGenTensor::rearrangeFragment(const SemaValue &fragment, const Layout &arranged,
                                         llvm::SMLoc loc, llvm::SMRange range) {
  std::optional<StaticIndexer> index = StaticIndexer::of(arranged);
  if (!index)
    return error(loc,
                 "a register fragment has a compile-time shape; rearranged by " + arranged.str() +
                     " it would have a run-time one",
                 {range});
  const int64_t size = cutec::size(fragment.type().tensorLayout()).staticValue();
  std::vector<int64_t> indices;
  for (int64_t i = 0; i < index->size(); ++i) {
    int64_t at = (*index)(i);
    if (at < 0 || at >= size)
      return error(loc,
                   "the layout " + arranged.str() + " reaches element " + llvm::Twine(at) +
                       " of a register fragment of " + llvm::Twine(size) + " elements",
                   {range});
    indices.push_back(at);
  }
  return gatherFragment(fragment, indices, arranged.shape, loc);
}

} // namespace cutec
