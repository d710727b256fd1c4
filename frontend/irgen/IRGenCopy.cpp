// IRGenCopy, for CuTe DSL's copy vocabulary in SIMT kernels (docs/language.md,
// "Tiled copies"): CopyUniversalOp, make_copy_atom, make_layout_tv,
// make_tiled_copy_tv, make_tiled_copy, a tiled copy's get_slice and its partition_S/D,
// make_fragment_like, and copy(atom, src, dst, pred=...).
//
// Copy atoms and tiled copies are compile-time objects. A thread's
// partition is a `cute.make_tensor` view of the tile under the thread-value
// layout (frontend/TiledCopy.h), sliced at the thread's index, so it lowers
// as any view. copy moves the elements in groups: the longest run, up to
// the atom's num_bits_per_copy, that is contiguous in both tensors. Each
// group of a view is one load or store, which lower-indexing makes one
// vector access where it proves the address aligned; a predicated group
// moves whole where all its predicates hold and element by element
// otherwise.
#include "frontend/TiledCopy.h"
#include "frontend/irgen/IRGen.h"

namespace cutec {

static constexpr llvm::StringLiteral kCopyOp = "CopyUniversalOp", kCopyAtom = "CopyAtom",
                                     kTiledCopy = "TiledCopy", kThrCopy = "ThrCopy";

static bool isObject(const SemaValue &v, llvm::StringRef className) {
  return v.is(SemaValue::Kind::Object) && v.className() == className;
}

/// A layout argument: a layout, or a shape standing for its compact layout.
static std::optional<Layout> layoutOf(const SemaValue &v) {
  std::optional<LayoutValue> l = v.toLayoutValue();
  if (!l)
    return std::nullopt;
  if (const Layout *layout = l->get<Layout>())
    return *layout;
  if (const IntTuple *shape = l->get<IntTuple>(); shape && shape->isStatic())
    return makeLayout(*shape);
  return std::nullopt;
}

SemaValue IRGenCopy::copyUniversalOp(CallSite &) { return SemaValue::object(kCopyOp, {}, {}); }

// make_copy_atom(CopyUniversalOp(), dtype, num_bits_per_copy=bits): plain
// loads and stores of `dtype`, at most `bits` (default 128) per access.
SemaValue IRGenCopy::makeCopyAtom(CallSite &site) {
  if (!isObject(site.bound[0], kCopyOp))
    return error(site.argExpr(0),
                 "make_copy_atom supports CopyUniversalOp(), not " + site.bound[0].describe());
  if (!site.bound[1].is(SemaValue::Kind::DType))
    return error(site.boundExpr(1, "dtype"),
                 "make_copy_atom needs an element type, not " + site.bound[1].describe());
  ir::DataType dtype = site.bound[1].dataType();
  int64_t elementBits = ir::bitWidth(dtype);
  int64_t bits =
      site.bound[2].is(SemaValue::Kind::None) ? 128 : site.bound[2].intValue().staticValue();
  if (bits < elementBits || bits % elementBits != 0 || (bits & (bits - 1)) != 0)
    return error(site.boundExpr(2, "num_bits_per_copy"),
                 "num_bits_per_copy must be a power of two and a whole number of " +
                     ir::name(dtype) + " elements (" + llvm::Twine(elementBits) + " bits), not " +
                     llvm::Twine(bits));
  return SemaValue::object(kCopyAtom, {"_dtype", "_bits"},
                           {site.bound[1], SemaValue::integer(bits)});
}

SemaValue IRGenCopy::makeLayoutTvCall(CallSite &site) {
  std::optional<Layout> thr = layoutOf(site.bound[0]), val = layoutOf(site.bound[1]);
  if (!thr || !val)
    return error(site.argExpr(thr ? 1 : 0), "make_layout_tv needs a compile-time layout, not " +
                                                site.bound[thr ? 1 : 0].describe());
  llvm::Expected<ThreadValueLayout> tv = makeLayoutTv(*thr, *val);
  if (!tv)
    return error(site.loc(), llvm::toString(tv.takeError()), {site.range()});
  return SemaValue::tuple(
      {SemaValue::fromIntTuple(tv->tiler), SemaValue::fromLayoutValue(LayoutValue(tv->tv))});
}

// make_tiled_copy_tv(atom, thr_layout, val_layout): the atom repeated over
// threads and values; its tile is tiler_mn, its thread-value layout
// layout_tv_tiled.
SemaValue IRGenCopy::makeTiledCopyTv(CallSite &site) {
  if (!isObject(site.bound[0], kCopyAtom))
    return error(site.argExpr(0),
                 "make_tiled_copy_tv needs a copy atom, not " + site.bound[0].describe());
  CallSite layouts = site;
  layouts.args.erase(layouts.args.begin());
  layouts.bound.erase(layouts.bound.begin());
  SemaValue tv = makeLayoutTvCall(layouts);
  if (tv.isPoison())
    return tv;
  return tiledCopy(site.bound[0], *tv.elements()[0].toLayoutValue()->get<IntTuple>(),
                   *tv.elements()[1].layout().get<Layout>(), site.argExpr(2));
}

// make_tiled_copy(atom, layout_tv, tiler_mn): CuTe DSL's tiled copy from a
// thread-value layout and its tile given as they are (make_layout_tv's
// pair, or written out as rmsnorm.py writes them).
SemaValue IRGenCopy::makeTiledCopy(CallSite &site) {
  if (!isObject(site.bound[0], kCopyAtom))
    return error(site.argExpr(0),
                 "make_tiled_copy needs a copy atom, not " + site.bound[0].describe());
  std::optional<Layout> tv = layoutOf(site.bound[1]);
  if (!tv || tv->rank() != 2 || !tv->shape.isStatic() || !tv->stride.isStatic())
    return error(site.boundExpr(1, "layout_tv"),
                 "make_tiled_copy needs a static (thread, value) layout of rank 2, not " +
                     site.bound[1].describe());
  std::optional<LayoutValue> tiler = site.bound[2].toLayoutValue();
  const IntTuple *tile = tiler ? tiler->get<IntTuple>() : nullptr;
  if (!tile || !tile->isStatic())
    return error(site.boundExpr(2, "tiler_mn"),
                 "make_tiled_copy needs the tile as a static shape, not " +
                     site.bound[2].describe());
  int64_t reach = cosize(*tv).staticValue(), elements = product(*tile).staticValue();
  if (reach > elements)
    return error(site.boundExpr(1, "layout_tv"),
                 "the thread-value layout reaches index " + llvm::Twine(reach - 1) +
                     ", past the tile's " + llvm::Twine(elements) + " elements");
  return tiledCopy(site.bound[0], *tile, *tv, site.argExpr(1));
}

SemaValue IRGenCopy::tiledCopy(const SemaValue &atom, const IntTuple &tiler, const Layout &tv,
                               const ast::Expr &valuesExpr) {
  int64_t values = size(tv[1]).staticValue();
  int64_t perAccess = atom.field("_bits")->intValue().staticValue() /
                      ir::bitWidth(atom.field("_dtype")->dataType());
  if (values % perAccess != 0 && perAccess % values != 0)
    return error(valuesExpr, "the " + llvm::Twine(values) +
                                 " values per thread do not divide into the atom's accesses "
                                 "of " +
                                 llvm::Twine(perAccess) + " elements");
  return SemaValue::object(kTiledCopy, {"tiler_mn", "layout_tv_tiled", "_dtype", "_bits"},
                           {SemaValue::fromIntTuple(tiler), SemaValue::fromLayoutValue(tv),
                            *atom.field("_dtype"), *atom.field("_bits")});
}

// tiled_copy.get_slice(tidx): the part thread tidx copies (a ThrCopy).
SemaValue IRGenCopy::tiledCopyGetSlice(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const Layout &tv = *site.self->field("layout_tv_tiled")->layout().get<Layout>();
  int64_t threads = size(tv[0]).staticValue();
  if (threads != ctx.blockThreads)
    return error(site.loc(),
                 "the tiled copy's thread layout has " + llvm::Twine(threads) +
                     " threads, but the kernel's block has " + llvm::Twine(ctx.blockThreads) +
                     "; every thread copies its part",
                 {site.range()});
  ir::Value *thread = toIndex(site.bound[0], site.boundExpr(0, "thr_idx"), "a thread index");
  if (!thread)
    return SemaValue::poison();
  std::vector<std::string> names = site.self->fieldNames();
  std::vector<SemaValue> values = site.self->elements();
  names.push_back("_thread");
  values.push_back(SemaValue::runTime(thread));
  return SemaValue::object(kThrCopy, std::move(names), std::move(values));
}

// thr_copy.partition_S(t) / partition_D(t): the thread's (values, RestM,
// RestN, ...) part of the tile t, of a tensor in memory or of a coordinate
// tensor (each of its modes alike).
SemaValue IRGenCopy::thrCopyPartition(CallSite &site) {
  const SemaValue &tensor = site.bound[0];
  if (IRGenTensor::isCoordinateTensor(tensor))
    return gen.tensors().mapCoordinates(tensor, [&](const SemaValue &mode) {
      CallSite each = site;
      each.bound[0] = mode;
      return thrCopyPartition(each);
    });
  const ast::Expr &expr = site.boundExpr(0, "tensor");
  if (!tensor.is(SemaValue::Kind::RunTime) || !tensor.type().isTensor() ||
      tensor.type().memorySpace() == ir::MemorySpace::Register)
    return error(expr, site.callee.rsplit('.').second +
                           " needs a tensor in memory or a coordinate tensor, not " +
                           tensor.describe());
  const SemaValue &self = *site.self;
  ThreadValueLayout copy{*self.field("tiler_mn")->toLayoutValue()->get<IntTuple>(),
                         *self.field("layout_tv_tiled")->layout().get<Layout>()};
  llvm::Expected<Layout> partition = threadValuePartition(copy, tensor.type().tensorLayout());
  if (!partition)
    return error(expr, llvm::toString(partition.takeError()));
  SemaValue whole = gen.tiledMma().relayout(tensor, *partition, site.loc());
  std::vector<IntTuple> pattern{IntTuple(IntExpr::symbol("$0"))};
  for (size_t i = 1; i < partition->rank(); ++i)
    pattern.push_back(IntTuple::underscore());
  return gen.tensors().sliceWith(whole, IntTuple::tuple(std::move(pattern)),
                                 {self.field("_thread")->irValue()}, site.loc());
}

// make_fragment_like(t, dtype=None): a register fragment of t's shape and
// (by default) element type, zero-filled.
SemaValue IRGenCopy::makeFragmentLike(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const SemaValue &like = site.bound[0];
  std::optional<LayoutValue> layout = gen.builtins().layoutArgument(like);
  bool tensor = IRGenTensor::isCoordinateTensor(like) ||
                (like.is(SemaValue::Kind::RunTime) && like.type().isTensor());
  if (!tensor || !layout || !layout->get<Layout>() || !layout->get<Layout>()->shape.isStatic())
    return error(site.argExpr(0),
                 site.callee + " needs a tensor of static shape, not " + like.describe());
  ir::DataType dtype =
      IRGenTensor::isCoordinateTensor(like) ? ir::DataType::I32 : like.type().element();
  if (site.bound[1].is(SemaValue::Kind::DType))
    dtype = site.bound[1].dataType();
  else if (!site.bound[1].is(SemaValue::Kind::None))
    return error(site.boundExpr(1, "dtype"),
                 site.callee + " needs an element type, not " + site.bound[1].describe());
  return gen.tiledMma().zeroFragment(layout->get<Layout>()->shape, dtype, site.loc());
}

std::vector<ir::Value *> IRGenCopy::readElements(const SemaValue &src, int64_t first, int64_t count,
                                                 llvm::SMLoc loc) {
  std::vector<ir::Value *> values;
  if (IRGenTensor::isFragment(src)) {
    for (int64_t i = first; i < first + count; ++i)
      values.push_back(gen.tensors().fragmentElement(src, i, loc).irValue());
    return values;
  }
  const ir::Type &type = src.type();
  SemaValue start =
      gen.tensors().sliceWith(src, idx2crd(IntExpr(first), type.tensorLayout().shape), {}, loc);
  if (count == 1)
    return {ctx.builder->createValue(ir::OpKind::Load, loc, ir::Type::scalar(type.element()),
                                     {start.irValue()})};
  Layout run = makeLayout(IntTuple(count));
  SemaValue group = gen.tiledMma().relayout(start, run, loc);
  ir::Value *fragment = ctx.builder->createValue(
      ir::OpKind::Load, loc, ir::Type::tensor(type.element(), ir::MemorySpace::Register, run),
      {group.irValue()});
  for (int64_t i = 0; i < count; ++i)
    values.push_back(gen.tensors().fragmentElement(SemaValue::runTime(fragment), i, loc).irValue());
  return values;
}

void IRGenCopy::writeElements(const SemaValue &dst, int64_t first,
                              llvm::ArrayRef<ir::Value *> values, llvm::SMLoc loc) {
  const ir::Type &type = dst.type();
  SemaValue start =
      gen.tensors().sliceWith(dst, idx2crd(IntExpr(first), type.tensorLayout().shape), {}, loc);
  if (values.size() == 1) {
    ctx.builder->create(ir::OpKind::Store, loc, {values.front(), start.irValue()});
    return;
  }
  Layout run = makeLayout(IntTuple(int64_t(values.size())));
  ir::Value *fragment = ctx.builder->createValue(
      ir::OpKind::FragmentOf, loc, ir::Type::tensor(type.element(), ir::MemorySpace::Register, run),
      values);
  ctx.builder->create(ir::OpKind::Store, loc,
                      {fragment, gen.tiledMma().relayout(start, run, loc).irValue()});
}

std::vector<ir::Value *> IRGenCopy::ifElse(ir::Value *condition, llvm::ArrayRef<ir::Type> types,
                                           llvm::SMLoc loc,
                                           llvm::function_ref<std::vector<ir::Value *>()> onTrue,
                                           llvm::function_ref<std::vector<ir::Value *>()> onFalse) {
  ir::Operation &op = ctx.builder->create(ir::OpKind::If, loc, {condition}, types);
  ir::Builder *outer = ctx.builder;
  for (auto branch : {onTrue, onFalse}) {
    ir::Builder inner(op.addRegion().addBlock());
    ctx.builder = &inner;
    std::vector<ir::Value *> yielded = branch();
    inner.create(ir::OpKind::Yield, loc, yielded);
  }
  ctx.builder = outer;
  std::vector<ir::Value *> results;
  for (unsigned i = 0; i < op.results().size(); ++i)
    results.push_back(op.result(i));
  return results;
}

/// The number of elements of each group copy moves at once: the largest
/// power of two up to `limit` that divides `n` and keeps every group
/// contiguous in each of the `views` (fragments always are).
static int64_t groupSize(llvm::ArrayRef<Layout> views, int64_t n, int64_t limit) {
  auto contiguous = [&](const Layout &layout, int64_t g) {
    for (int64_t first = 0; first < n; first += g) {
      llvm::Expected<IntExpr> start = crd2idx(IntTuple(first), layout);
      if (!start) {
        llvm::consumeError(start.takeError());
        return false;
      }
      for (int64_t i = 1; i < g; ++i) {
        llvm::Expected<IntExpr> e = crd2idx(IntTuple(first + i), layout);
        if (!e) {
          llvm::consumeError(e.takeError());
          return false;
        }
        if (*e != *start + IntExpr(i))
          return false;
      }
    }
    return true;
  };
  int64_t g = 1;
  while (g * 2 <= limit && n % (g * 2) == 0)
    g *= 2;
  for (; g > 1; g /= 2) {
    if (llvm::all_of(views, [&](const Layout &view) { return contiguous(view, g); }))
      break;
  }
  return g;
}

// copy(atom, src, dst, pred=None): dst = src, element by element, where
// pred holds (every element without one). A register fragment `dst` is a
// value: copy gives its variable the new fragment.
SemaValue IRGenCopy::copyCall(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const SemaValue &atom = site.bound[0];
  if (!isObject(atom, kCopyAtom) && !isObject(atom, kTiledCopy) && !isObject(atom, kThrCopy))
    return error(site.argExpr(0), "copy needs a copy atom or a tiled copy, not " + atom.describe());
  CopyOperands operands{site.bound[1],         site.bound[2],          site.bound[3],
                        site.boundExpr(1, "src"), site.boundExpr(2, "dst"), site.boundExpr(3, "pred")};
  if (!checkCopyOperands(operands))
    return SemaValue::poison();
  ir::DataType atomType = atom.field("_dtype")->dataType();
  ir::DataType element = operands.src.type().element();
  if (ir::bitWidth(atomType) != ir::bitWidth(element))
    return error(site.argExpr(0), "the copy atom moves " + ir::name(atomType) +
                                      " elements, not the tensors' " + ir::name(element));
  int64_t bits = atom.field("_bits")->intValue().staticValue();
  return copyElements(operands, bits / ir::bitWidth(element), site.loc());
}

// autovec_copy(src, dst): CuTe DSL's copy without an atom, which moves the
// widest groups the layouts allow, up to 128 bits: copy with a 128-bit
// universal atom.
SemaValue IRGenCopy::autovecCopy(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  SemaValue noPredicate = SemaValue::none();
  CopyOperands operands{site.bound[0],           site.bound[1], noPredicate,
                        site.boundExpr(0, "src"), site.boundExpr(1, "dst"), site.call};
  if (!checkCopyOperands(operands))
    return SemaValue::poison();
  return copyElements(operands, 128 / ir::bitWidth(operands.src.type().element()), site.loc());
}

bool IRGenCopy::checkCopyOperands(const CopyOperands &c) {
  for (auto [v, e] : {std::pair(&c.src, &c.srcExpr), std::pair(&c.dst, &c.dstExpr)})
    if (v->type().memorySpace() == ir::MemorySpace::Coordinate ||
        !size(v->type().tensorLayout()).isStatic()) {
      error(*e, "copy moves tensors of static shape in memory or registers, not " + v->describe());
      return false;
    }
  const ir::Type &from = c.src.type(), &to = c.dst.type();
  if (from.element() != to.element()) {
    error(c.dstExpr, "copy does not convert: the source holds " + ir::name(from.element()) +
                         " and the destination " + ir::name(to.element()));
    return false;
  }
  return true;
}

SemaValue IRGenCopy::copyElements(const CopyOperands &c, int64_t limit, llvm::SMLoc loc) {
  const SemaValue &src = c.src, &dst = c.dst, &pred = c.pred;
  const ast::Expr &dstExpr = c.dstExpr, &predExpr = c.predExpr;
  const ir::Type &from = src.type(), &to = dst.type();
  int64_t n = size(from.tensorLayout()).staticValue();
  if (size(to.tensorLayout()).staticValue() != n)
    return error(dstExpr, "copy needs tensors of one size: the source has " + llvm::Twine(n) +
                              " elements, the destination " + size(to.tensorLayout()).str());
  bool toFragment = IRGenTensor::isFragment(dst);
  const auto *dstName = llvm::dyn_cast<ast::NameExpr>(&dstExpr);
  if (toFragment && !dstName)
    return error(dstExpr, "copy into a register fragment gives the fragment's variable its new "
                          "value; name the variable as the destination");
  if (toFragment && size(filterZeros(to.tensorLayout())).staticValue() != n)
    return error(dstExpr, "copy cannot write a fragment with broadcast (stride-0) modes");
  bool predicated = !pred.is(SemaValue::Kind::None);
  if (predicated && !(IRGenTensor::isFragment(pred) && pred.type().element() == ir::DataType::Bool))
    return error(predExpr, "pred must be a register fragment of bools (elem_less of the "
                           "partitioned coordinates), not " +
                               pred.describe());
  // One predicate per element, or CuTe's one per atom: the source's
  // partition ((AtomV, RestV), RestM, ...) takes a predicate of shape
  // (RestV, RestM, ...), each for AtomV consecutive elements.
  const IntTuple &fromShape = from.tensorLayout().shape;
  int64_t atomValues = fromShape.isTuple() && fromShape.rank() > 0 && fromShape[0].isTuple()
                           ? product(fromShape[0][0]).staticValue()
                           : 1;
  int64_t perPredicate = 1;
  if (predicated) {
    IntExpr predicates = size(pred.type().tensorLayout());
    if (predicates != IntExpr(n) && predicates * IntExpr(atomValues) == IntExpr(n))
      perPredicate = atomValues;
    else if (predicates != IntExpr(n))
      return error(predExpr, "pred has " + predicates.str() + " elements, but the copy moves " +
                                 llvm::Twine(n) + " (shape " + fromShape.str() +
                                 "): it takes one per element, or one per atom's " +
                                 llvm::Twine(atomValues) +
                                 " (the shape less its first mode's first mode)");
  }
  std::vector<Layout> views;
  for (const SemaValue *t : {&src, &dst})
    if (!IRGenTensor::isFragment(*t))
      views.push_back(t->type().tensorLayout());
  int64_t g = groupSize(views, n, limit);
  std::vector<ir::Type> types;
  std::vector<ir::Value *> result, old;
  if (toFragment) {
    types.assign(size_t(g), ir::Type::scalar(to.element()));
    for (int64_t i = 0; i < n; ++i)
      old.push_back(gen.tensors().fragmentElement(dst, i, loc).irValue());
  }
  // Moves elements [first, first + count); the values a fragment gets.
  auto move = [&](int64_t first, int64_t count) {
    std::vector<ir::Value *> values = readElements(src, first, count, loc);
    if (!toFragment) {
      writeElements(dst, first, values, loc);
      return std::vector<ir::Value *>{};
    }
    return values;
  };
  auto kept = [&](int64_t first, int64_t count) {
    return toFragment ? std::vector<ir::Value *>(old.begin() + first, old.begin() + first + count)
                      : std::vector<ir::Value *>{};
  };
  for (int64_t first = 0; first < n; first += g) {
    std::vector<ir::Value *> moved;
    if (!predicated) {
      moved = move(first, g);
    } else {
      // Each element's predicate, and the distinct ones, in order.
      std::vector<ir::Value *> p, distinct;
      for (int64_t i = 0; i < g; ++i) {
        if ((first + i) % perPredicate == 0 || i == 0)
          distinct.push_back(
              gen.tensors().fragmentElement(pred, (first + i) / perPredicate, loc).irValue());
        p.push_back(distinct.back());
      }
      ir::Value *all = distinct.front();
      for (size_t i = 1; i < distinct.size(); ++i)
        all = gen.exprs()
                  .scalarBinary(ast::BinaryOp::And, SemaValue::runTime(all),
                                SemaValue::runTime(distinct[i]), {loc, predExpr, predExpr})
                  .irValue();
      llvm::ArrayRef<ir::Type> one = llvm::ArrayRef(types).take_front(toFragment ? 1 : 0);
      moved = ifElse(
          all, types, loc, [&] { return move(first, g); },
          [&] {
            // A group under one predicate that fails moves nothing.
            if (distinct.size() == 1)
              return kept(first, g);
            // A partial group: each element on its own predicate.
            std::vector<ir::Value *> each;
            for (int64_t i = 0; g > 1 && i < g; ++i)
              for (ir::Value *v : ifElse(
                       p[i], one, loc, [&] { return move(first + i, 1); },
                       [&] { return kept(first + i, 1); }))
                each.push_back(v);
            return g > 1 ? each : kept(first, 1);
          });
    }
    llvm::append_range(result, moved);
  }
  if (toFragment)
    (*ctx.frame->locals)[dstName->getName()] = SemaValue::runTime(
        ctx.builder->createValue(ir::OpKind::FragmentOf, loc,
                                 ir::Type::tensor(to.element(), ir::MemorySpace::Register,
                                                  makeLayout(to.tensorLayout().shape)),
                                 result));
  return SemaValue::none();
}

} // namespace cutec
