// IRGenTensor, for tensors: local_tile, slicing views with `t[...]`, loading
// views into register fragments, extracting fragment elements, storing. Every
// result type comes from the layout algebra (callLayoutFunction).
#include "frontend/irgen/IRGen.h"

namespace cutec {

static bool isView(const SemaValue &v) {
  return v.is(SemaValue::Kind::RunTime) && v.type().isTensor() &&
         v.type().memorySpace() != ir::MemorySpace::Register;
}

static bool isRankZero(const Layout &l) { return l.shape.isTuple() && l.shape.rank() == 0; }

SemaValue IRGenTensor::localTile(CallSite &site) {
  if (isCoordinateTensor(site.bound[0]))
    return mapCoordinates(site.bound[0], [&](const SemaValue &mode) {
      CallSite each = site;
      each.bound[0] = mode;
      return localTile(each);
    });
  const SemaValue &tensor = site.bound[0];
  if (!isView(tensor))
    return error(site.boundExpr(0, "tensor"),
                 "local_tile needs a tensor in memory, not " + tensor.describe());
  std::optional<LayoutValue> tiler = site.bound[1].toLayoutValue();
  if (!tiler || !(tiler->get<IntTuple>() || tiler->get<Layout>()))
    return error(site.boundExpr(1, "tiler"),
                 "the tiler of local_tile must be known at compile time (a "
                 "shape or a layout), not " +
                     site.bound[1].describe());
  // CuTe DSL's tile coordinate may hold run-time indices (the CTA's): the
  // tile is taken with `_` in their places, then those modes are sliced at
  // them. `rest` is the slice of the modes the `_`s keep.
  SemaValue staticCoord = site.bound[2];
  std::vector<IntTuple> rest;
  std::vector<ir::Value *> indices;
  if (staticCoord.is(SemaValue::Kind::Tuple)) {
    std::vector<SemaValue> elements = staticCoord.elements();
    for (SemaValue &element : elements) {
      if (element.is(SemaValue::Kind::RunTime)) {
        ir::Value *index = toIndex(element, site.boundExpr(2, "coord"), "a tile coordinate");
        if (!index)
          return SemaValue::poison();
        rest.push_back(IntTuple(IntExpr::symbol("$" + std::to_string(indices.size()))));
        indices.push_back(index);
        element = SemaValue::underscore();
      } else if (element.isWildcard()) {
        rest.push_back(IntTuple::underscore());
      }
    }
    staticCoord = SemaValue::tuple(std::move(elements));
  }
  std::optional<LayoutValue> coord = staticCoord.toLayoutValue();
  if (!coord || !coord->get<IntTuple>())
    return error(site.boundExpr(2, "coord"),
                 "the coordinate of local_tile must be a tuple of integers, `_` and run-time "
                 "indices, not " +
                     site.bound[2].describe());
  const ir::Type &type = tensor.type();
  llvm::Expected<LayoutValue> tiled =
      callLayoutFunction("local_tile", {type.tensorLayout(), *tiler, *coord});
  if (!tiled)
    return error(site.loc(), llvm::toString(tiled.takeError()), {site.range()});
  ir::Type result = ir::Type::tensor(type.element(), type.memorySpace(), *tiled->get<Layout>(),
                                     type.tensorSwizzle());
  ir::Operation &op =
      ctx.builder->create(ir::OpKind::LocalTile, site.loc(), {tensor.irValue()}, {result});
  if (const IntTuple *shape = tiler->get<IntTuple>())
    op.set(ir::attr::tiler, *shape);
  else
    op.set(ir::attr::tiler, *tiler->get<Layout>());
  op.set(ir::attr::coord, *coord->get<IntTuple>());
  if (indices.empty())
    return SemaValue::runTime(op.result());
  std::vector<IntTuple> pattern(tiled->get<Layout>()->rank() - rest.size(),
                                IntTuple::underscore());
  llvm::append_range(pattern, rest);
  return sliceWith(SemaValue::runTime(op.result()), IntTuple::tuple(std::move(pattern)),
                   std::move(indices), site.loc());
}

namespace {

/// Builds a cute.slice coordinate: the pattern attribute (`_`, static
/// integers, `$i` for run-time operand i) and the coordinate the layout
/// algebra slices with (run-time leaves as 0: only the `_` positions matter).
struct SliceCoordBuilder {
  std::function<ir::Value *(const SemaValue &, const ast::Expr &)> index;
  std::function<void(const ast::Expr &, const llvm::Twine &)> fail;
  std::vector<ir::Value *> operands;
  bool ok = true;

  std::pair<IntTuple, IntTuple> build(const SemaValue &v, const ast::Expr &expr,
                                      const IntTuple &modeShape) {
    if (v.isWildcard())
      return {IntTuple::underscore(), IntTuple::underscore()};
    if (v.is(SemaValue::Kind::Int) && v.intValue().isStatic()) {
      int64_t c = v.intValue().staticValue();
      IntExpr extent = product(modeShape);
      if (c < 0 || (extent.isStatic() && c >= extent.staticValue()))
        return failed(expr, "coordinate " + llvm::Twine(c) +
                                " is out of range for a mode of extent " + extent.str());
      return {IntTuple(c), IntTuple(c)};
    }
    if (v.is(SemaValue::Kind::Tuple)) {
      if (!modeShape.isTuple() || modeShape.rank() != v.elements().size())
        return failed(expr,
                      "the coordinate tuple does not match the mode's shape " + modeShape.str());
      const auto *tupleExpr = llvm::dyn_cast<ast::TupleExpr>(&expr);
      std::vector<IntTuple> pattern, coord;
      for (size_t i = 0; i < v.elements().size(); ++i) {
        const ast::Expr &e = tupleExpr ? *tupleExpr->getElements()[i] : expr;
        auto [p, c] = build(v.elements()[i], e, modeShape[i]);
        pattern.push_back(p);
        coord.push_back(c);
      }
      return {IntTuple::tuple(std::move(pattern)), IntTuple::tuple(std::move(coord))};
    }
    ir::Value *operand = index(v, expr);
    if (!operand) {
      ok = false;
      return {IntTuple(0), IntTuple(0)};
    }
    operands.push_back(operand);
    IntTuple leaf(IntExpr::symbol("$" + std::to_string(operands.size() - 1)));
    return {leaf, IntTuple(0)};
  }

  std::pair<IntTuple, IntTuple> failed(const ast::Expr &expr, const llvm::Twine &message) {
    fail(expr, message);
    ok = false;
    return {IntTuple(0), IntTuple(0)};
  }
};

} // namespace

/// Where coordinate i is written: its own index, or the one tuple that
/// holds all of them (`t[(a, b, c)]`).
static const ast::Expr &coordinateExpr(const ast::SubscriptExpr &subscript, size_t i) {
  const auto &written = subscript.getIndices();
  return *written[i < written.size() ? i : 0];
}

SemaValue IRGenTensor::sliceTensor(const SemaValue &tensor, const ast::SubscriptExpr &subscript,
                                   const std::vector<SemaValue> &coords) {
  const ir::Type &type = tensor.type();
  const Layout &layout = type.tensorLayout();
  size_t rank = isRankZero(layout) ? 0 : layout.rank();
  if (coords.size() > rank)
    return error(coordinateExpr(subscript, rank), "too many coordinates: slicing a rank-" +
                                                    llvm::Twine(rank) + " tensor with " +
                                                    llvm::Twine(coords.size()) + " coordinates");
  if (coords.size() < rank)
    return error(subscript, "too few coordinates: slicing a rank-" + llvm::Twine(rank) +
                                " tensor with " + llvm::Twine(coords.size()) +
                                " coordinates; use `_` for a whole mode");
  SliceCoordBuilder coordBuilder{
      [&](const SemaValue &v, const ast::Expr &e) { return toIndex(v, e, "a slice coordinate"); },
      [&](const ast::Expr &e, const llvm::Twine &message) { error(e, message); },
      {}};
  std::vector<IntTuple> pattern, coord;
  for (size_t i = 0; i < rank; ++i) {
    auto [p, c] = coordBuilder.build(coords[i], coordinateExpr(subscript, i), layout.shape[i]);
    pattern.push_back(p);
    coord.push_back(c);
  }
  if (!coordBuilder.ok)
    return SemaValue::poison();
  IntTuple sliceCoord = layout.shape.isLeaf() ? coord.front() : IntTuple::tuple(coord);
  llvm::Expected<LayoutValue> sliced = callLayoutFunction("slice", {layout, sliceCoord});
  if (!sliced)
    return error(subscript, llvm::toString(sliced.takeError()));
  std::vector<ir::Value *> operands{tensor.irValue()};
  llvm::append_range(operands, coordBuilder.operands);
  ir::Operation &op =
      ctx.builder->create(ir::OpKind::Slice, subscript.getLoc(), operands,
                          {ir::Type::tensor(type.element(), type.memorySpace(),
                                            *sliced->get<Layout>(), type.tensorSwizzle())});
  op.set(ir::attr::coord, layout.shape.isLeaf() ? pattern.front() : IntTuple::tuple(pattern));
  return SemaValue::runTime(op.result());
}

SemaValue IRGenTensor::elementView(const SemaValue &tensor, const SemaValue &index,
                                   llvm::SMLoc loc) {
  if (index.is(SemaValue::Kind::Int) && index.intValue().isStatic())
    return sliceWith(tensor, IntTuple(index.intValue()), {}, loc);
  ir::Value *i = toRunTime(index, loc, llvm::SMRange(), ir::DataType::I32);
  if (!i)
    return SemaValue::poison();
  return sliceWith(tensor, IntTuple(IntExpr::symbol("$0")), {i}, loc);
}

SemaValue IRGenTensor::sliceWith(const SemaValue &tensor, const IntTuple &pattern,
                                 std::vector<ir::Value *> operands, llvm::SMLoc loc) {
  const ir::Type &type = tensor.type();
  // Only the `_` positions shape the slice; the others may be symbols.
  llvm::Expected<LayoutValue> sliced = callLayoutFunction("slice", {type.tensorLayout(), pattern});
  if (!sliced)
    return error(loc, llvm::toString(sliced.takeError()));
  operands.insert(operands.begin(), tensor.irValue());
  ir::Operation &op =
      ctx.builder->create(ir::OpKind::Slice, loc, operands,
                          {ir::Type::tensor(type.element(), type.memorySpace(),
                                            *sliced->get<Layout>(), type.tensorSwizzle())});
  op.set(ir::attr::coord, pattern);
  return SemaValue::runTime(op.result());
}

static bool hasUnderscore(const SemaValue &v) {
  if (v.isWildcard())
    return true;
  return v.is(SemaValue::Kind::Tuple) && llvm::any_of(v.elements(), hasUnderscore);
}

// frag[c0, (_, c1), ...]: the elements at the modes where the coordinate
// has `_`, in their order; with no `_`, one element. Every coordinate is a
// compile-time integer, so the selection picks registers and costs nothing.
// One integer indexes a fragment of any rank in its column-major order.
std::optional<IRGenTensor::FragmentSelection>
IRGenTensor::selectElements(const SemaValue &fragment, const ast::SubscriptExpr &subscript,
                            const std::vector<SemaValue> &coords) {
  const Layout logical = makeLayout(fragment.type().tensorLayout().shape);
  const int64_t count = cutec::size(logical).staticValue();
  size_t rank = logical.shape.isLeaf() ? 1 : logical.rank();
  bool sliced = llvm::any_of(coords, hasUnderscore);
  auto notStatic = [&](const SemaValue &v, const ast::Expr &e) -> ir::Value * {
    if (sliced)
      error(e, "a register fragment is sliced at compile-time coordinates, not " + v.describe() +
                   "; loop with unroll(n) to slice by the loop variable");
    else
      error(e, "an index into a register fragment must be a compile-time integer, not " +
                   v.describe() + "; loop with unroll(n) to index by the loop variable");
    return nullptr;
  };
  if (coords.size() == 1 && rank > 1 && !sliced) {
    const SemaValue &c = coords.front();
    const ast::Expr &e = *subscript.getIndices().front();
    if (!c.is(SemaValue::Kind::Int) || !c.intValue().isStatic()) {
      notStatic(c, e);
      return std::nullopt;
    }
    int64_t i = c.intValue().staticValue();
    if (i < 0 || i >= count) {
      error(e, "index " + llvm::Twine(i) + " is out of range for a register fragment of " +
                   llvm::Twine(count) + " elements");
      return std::nullopt;
    }
    return FragmentSelection{{i}, std::nullopt};
  }
  if (coords.size() != rank) {
    error(subscript, (sliced ? "slicing a rank-" : "indexing a rank-") + llvm::Twine(rank) +
                         " register fragment takes " + llvm::Twine(rank) + " coordinates" +
                         (sliced || rank == 1 ? "" : " (or one index)") + ", not " +
                         llvm::Twine(coords.size()));
    return std::nullopt;
  }
  SliceCoordBuilder coordBuilder{
      notStatic, [&](const ast::Expr &e, const llvm::Twine &message) { error(e, message); }, {}};
  std::vector<IntTuple> coord;
  for (size_t i = 0; i < rank; ++i)
    coord.push_back(coordBuilder
                        .build(coords[i], coordinateExpr(subscript, i),
                               logical.shape.isLeaf() ? logical.shape : logical.shape[i])
                        .second);
  if (!coordBuilder.ok)
    return std::nullopt;
  IntTuple at = logical.shape.isLeaf() ? coord.front() : IntTuple::tuple(coord);
  llvm::Expected<Layout> picked = slice(logical, at);
  llvm::Expected<IntExpr> first = picked ? sliceOffset(logical, at) : llvm::Expected<IntExpr>(0);
  if (!picked || !first) {
    error(subscript, llvm::toString(picked ? first.takeError() : picked.takeError()));
    return std::nullopt;
  }
  if (!sliced)
    return FragmentSelection{{first->staticValue()}, std::nullopt};
  std::optional<StaticIndexer> index = StaticIndexer::of(*picked);
  FragmentSelection selection{{}, picked->shape};
  for (int64_t i = 0; i < index->size(); ++i)
    selection.indices.push_back(first->staticValue() + (*index)(i));
  return selection;
}

SemaValue IRGenTensor::extract(const SemaValue &fragment, const ast::SubscriptExpr &subscript,
                               const std::vector<SemaValue> &coords) {
  std::optional<FragmentSelection> selection = selectElements(fragment, subscript, coords);
  if (!selection)
    return SemaValue::poison();
  if (!selection->shape)
    return fragmentElement(fragment, selection->indices.front(), subscript.getLoc());
  return gatherFragment(fragment, selection->indices, *selection->shape, subscript.getLoc());
}

// --- Coordinate tensors ------------------------------------------------------
// make_identity_tensor((M, N)) is CuTe's tensor whose element at (i, j) is
// the coordinate (i, j). Its layout's strides would be CuTe's basis vectors
// (1@0, 1@1); here each mode is a tensor of its own in the `coord` space,
// with stride 1 in its mode and 0 elsewhere, so that local_tile, slicing
// and partitions apply to each mode as to any view, and a load gives the
// view's offset: the coordinate in that mode.

static constexpr llvm::StringLiteral kCoordinateTensor = "CoordinateTensor";

bool IRGenTensor::isCoordinateTensor(const SemaValue &v) {
  return v.is(SemaValue::Kind::Object) && v.className() == kCoordinateTensor;
}

SemaValue IRGenTensor::coordinateTensor(std::vector<SemaValue> modes) {
  IntTuple shape = modes.front().type().tensorLayout().shape;
  return SemaValue::object(kCoordinateTensor, {"shape", "_modes"},
                           {SemaValue::fromIntTuple(shape), SemaValue::tuple(std::move(modes))});
}

SemaValue IRGenTensor::mapCoordinates(const SemaValue &c,
                                      llvm::function_ref<SemaValue(const SemaValue &)> f) {
  std::vector<SemaValue> modes;
  for (const SemaValue &mode : c.field("_modes")->elements()) {
    modes.push_back(f(mode));
    if (!modes.back().is(SemaValue::Kind::RunTime))
      return SemaValue::poison();
  }
  return coordinateTensor(std::move(modes));
}

SemaValue IRGenTensor::makeIdentityTensor(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  std::optional<LayoutValue> value = site.bound[0].toLayoutValue();
  const IntTuple *shape = value ? value->get<IntTuple>() : nullptr;
  bool flat = shape != nullptr;
  for (size_t i = 0; flat && i < shape->rank(); ++i)
    flat = (*shape)[i].isLeaf() && !(*shape)[i].isUnderscore();
  if (!flat)
    return error(site.argExpr(0), "make_identity_tensor takes a shape of integers such as (M, "
                                  "N), not " +
                                      site.bound[0].describe());
  std::vector<SemaValue> modes;
  for (size_t k = 0; k < shape->rank(); ++k) {
    std::vector<IntTuple> stride;
    for (size_t i = 0; i < shape->rank(); ++i)
      stride.push_back(IntTuple(i == k ? 1 : 0));
    Layout layout(*shape, shape->isLeaf() ? IntTuple(1) : IntTuple::tuple(std::move(stride)));
    modes.push_back(SemaValue::runTime(ctx.builder->createValue(
        ir::OpKind::IdentityTensor, site.loc(),
        ir::Type::tensor(ir::DataType::I32, ir::MemorySpace::Coordinate, layout), {})));
  }
  return coordinateTensor(std::move(modes));
}

SemaValue IRGenTensor::sliceCoordinates(const SemaValue &c, const ast::SubscriptExpr &subscript,
                                        const std::vector<SemaValue> &coords) {
  const std::vector<SemaValue> &modes = c.field("_modes")->elements();
  const Layout &layout = modes.front().type().tensorLayout();
  std::vector<SemaValue> sliced;
  if (coords.size() == 1 && layout.shape.isTuple() && layout.rank() > 1) {
    const SemaValue &index = coords.front();
    std::optional<int64_t> n = size(layout).getStatic();
    if (!index.is(SemaValue::Kind::Int) || !index.intValue().isStatic() || !n)
      return error(subscript, "one index into a coordinate tensor of several modes must be a "
                              "compile-time integer, and the tensor's shape static; give one "
                              "coordinate per mode instead");
    int64_t i = index.intValue().staticValue();
    if (i < 0 || i >= *n)
      return error(subscript, "index " + llvm::Twine(i) + " is out of range for a coordinate "
                              "tensor of " + llvm::Twine(*n) + " elements");
    IntTuple natural = idx2crd(IntExpr(i), layout.shape);
    for (const SemaValue &mode : modes)
      sliced.push_back(sliceWith(mode, natural, {}, subscript.getLoc()));
  } else {
    for (const SemaValue &mode : modes)
      sliced.push_back(sliceTensor(mode, subscript, coords));
  }
  for (const SemaValue &mode : sliced)
    if (mode.isPoison())
      return mode;
  if (!isRankZero(sliced.front().type().tensorLayout()))
    return coordinateTensor(std::move(sliced));
  std::vector<SemaValue> coordinate;
  for (const SemaValue &mode : sliced)
    coordinate.push_back(load(mode, subscript));
  return coordinate.size() == 1 ? coordinate.front() : SemaValue::tuple(std::move(coordinate));
}

// elem_less(coord, shape): coord[i] < shape[i] in every mode, CuTe's
// predicate for the elements inside a ragged tensor. On a whole coordinate
// tensor (with a static shape), element by element: a fragment of bools.
SemaValue IRGenTensor::elemLess(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const SemaValue &bound = site.bound[1];
  auto modesOf = [](const SemaValue &v) {
    return v.is(SemaValue::Kind::Tuple) ? v.elements() : std::vector<SemaValue>{v};
  };
  std::vector<SemaValue> limits = modesOf(bound);
  BinarySite where{site.loc(), site.argExpr(0), site.boundExpr(1, "b")};
  auto less = [&](llvm::ArrayRef<SemaValue> coordinate) {
    SemaValue all = SemaValue::boolean(true);
    for (size_t k = 0; k < coordinate.size() && !all.isPoison(); ++k) {
      SemaValue lt = gen.exprs().binary(ast::BinaryOp::Lt, coordinate[k], limits[k], where);
      all = all.is(SemaValue::Kind::Bool) && all.boolValue()
                ? lt
                : gen.exprs().binary(ast::BinaryOp::And, all, lt, where);
    }
    return all;
  };
  std::vector<SemaValue> coordinate;
  if (isCoordinateTensor(site.bound[0])) {
    for (const SemaValue &mode : site.bound[0].field("_modes")->elements())
      coordinate.push_back(load(mode, site.argExpr(0)));
  } else {
    coordinate = modesOf(site.bound[0]);
  }
  if (coordinate.size() != limits.size())
    return error(site.loc(), "elem_less compares a coordinate of " +
                                 llvm::Twine(coordinate.size()) + " modes with a shape of " +
                                 llvm::Twine(limits.size()),
                 {site.range()});
  for (const SemaValue &v : coordinate)
    if (v.isPoison())
      return v;
  if (!isCoordinateTensor(site.bound[0]))
    return less(coordinate);
  std::vector<const ast::Expr *> exprs(coordinate.size(), &site.argExpr(0));
  return elementwise(coordinate, exprs, site.loc(), less);
}

// The register fragment a view loads into: the view's shape with compact
// column-major strides, except that broadcast (stride-0) modes stay stride 0
// and take no registers, so ((16,4)):((0,1)) holds 4 values (docs/ir.md).
static IntTuple keepBroadcasts(const IntTuple &compact, const IntTuple &viewStride) {
  if (compact.isLeaf())
    return viewStride.leaf().isConstant(0) ? IntTuple(0) : compact;
  std::vector<IntTuple> strides;
  for (size_t i = 0; i < compact.rank(); ++i)
    strides.push_back(keepBroadcasts(compact[i], viewStride[i]));
  return IntTuple::tuple(std::move(strides));
}

static Layout fragmentLayout(const Layout &view) {
  Layout registers = filterZeros(view);
  return Layout(view.shape, keepBroadcasts(compactColMajor(registers.shape), view.stride));
}

SemaValue IRGenTensor::load(const SemaValue &view, const ast::Expr &expr) {
  // CuTe DSL loads a register tensor into a TensorSSA value: here both are
  // the fragment.
  if (isFragment(view))
    return view;
  if (!isView(view))
    return error(expr, "'load' needs a tensor in memory, not " + view.describe());
  const ir::Type &type = view.type();
  if (ir::isOpaque(type.element()))
    return error(expr, opaqueValueError(type.element(), "load"));
  const Layout &layout = type.tensorLayout();
  ir::Type result = ir::Type::scalar(type.element());
  if (!isRankZero(layout)) {
    if (!layout.shape.isStatic())
      return error(expr, "cannot load the view " + type.str() +
                             " into registers: its shape is not static");
    result = ir::Type::tensor(type.element(), ir::MemorySpace::Register, fragmentLayout(layout));
  }
  return SemaValue::runTime(
      ctx.builder->createValue(ir::OpKind::Load, expr.getLoc(), result, {view.irValue()}));
}

void IRGenTensor::store(const SemaValue &value, const SemaValue &view, const ast::Expr &valueExpr,
                        llvm::SMLoc loc) {
  if (value.isPoison() || view.isPoison())
    return;
  if (!isView(view) || view.type().memorySpace() == ir::MemorySpace::Coordinate) {
    error(loc, "can only store into a tensor in memory, not into " + view.describe());
    return;
  }
  const ir::Type &type = view.type();
  if (ir::isOpaque(type.element())) {
    error(loc, opaqueValueError(type.element(), "store"));
    return;
  }
  ir::Value *stored = nullptr;
  if (isRankZero(type.tensorLayout())) {
    if (value.is(SemaValue::Kind::RunTime) && value.type() != ir::Type::scalar(type.element())) {
      std::string hint = value.type().isScalar()
                             ? "; convert it with .to(" + ir::name(type.element()).str() + ")"
                             : IRGenExpr::loadHint(valueExpr, value);
      error(valueExpr,
            "cannot store " + value.describe() + " into an element of " + type.str() + hint);
      return;
    }
    stored = toRunTime(value, valueExpr, type.element());
  } else if (value.is(SemaValue::Kind::RunTime) && value.type().isTensor() &&
             value.type().memorySpace() == ir::MemorySpace::Register) {
    const ir::Type &fragment = value.type();
    if (fragment.element() != type.element()) {
      error(valueExpr, "cannot store a fragment of " + ir::name(fragment.element()) +
                           " into a tensor of " + ir::name(type.element()) +
                           "; convert it with .to(" + ir::name(type.element()) + ")");
      return;
    }
    if (size(fragment.tensorLayout()) != size(type.tensorLayout())) {
      error(valueExpr, "cannot store a fragment of " + size(fragment.tensorLayout()).str() +
                           " elements into a view of " + size(type.tensorLayout()).str());
      return;
    }
    stored = value.irValue();
  } else {
    error(valueExpr, "cannot store " + value.describe() + " into the view " + type.str() +
                         "; store a register fragment, or index one element");
    return;
  }
  if (stored)
    ctx.builder->create(ir::OpKind::Store, loc, {stored, view.irValue()});
}

} // namespace cutec
