// IRGenTensor, for views built inside a kernel (docs/language.md, "Views"):
// a tensor's iterator and element offsets from it, make_tensor(iterator,
// layout), the layout functions of CuTe that give a tensor when given one
// (composition, logical_divide, ...), and recast_tensor. Every view is a
// `cute.make_tensor` of the memory it came from, so it costs nothing until
// it is read or written.
#include "frontend/irgen/IRGen.h"

#include "llvm/ADT/StringSwitch.h"

namespace cutec {

static constexpr llvm::StringLiteral kPointer = "Pointer";

static bool isViewInMemory(const SemaValue &v) {
  return v.is(SemaValue::Kind::RunTime) && v.type().isTensor() &&
         v.type().memorySpace() != ir::MemorySpace::Register &&
         v.type().memorySpace() != ir::MemorySpace::Coordinate;
}

bool IRGenTensor::isPointer(const SemaValue &v) {
  return v.is(SemaValue::Kind::Object) && v.className() == kPointer;
}

static SemaValue pointer(const SemaValue &tensor, SemaValue offset) {
  return SemaValue::object(kPointer, {"dtype", "_tensor", "_offset"},
                           {SemaValue::dtype(tensor.type().element()), tensor, std::move(offset)});
}

// t.iterator: CuTe's pointer to the tensor's first element. Here it is the
// tensor itself and an element offset, so that make_tensor can view the
// same memory.
SemaValue IRGenTensor::iteratorOf(const SemaValue &tensor, const ast::Expr &expr) {
  if (!isViewInMemory(tensor))
    return error(expr, "only a tensor in memory has an iterator, not " + tensor.describe() +
                           (isFragment(tensor)
                                ? "; rearrange a register fragment with a layout function "
                                  "(composition, logical_divide, ...)"
                                : ""));
  return pointer(tensor, SemaValue::integer(IntExpr(0)));
}

static bool isInteger(const SemaValue &v) {
  return v.is(SemaValue::Kind::Int) ||
         (v.is(SemaValue::Kind::RunTime) && v.type().isScalar() && ir::isInteger(v.type().element()));
}

// iterator + n, n + iterator, iterator - n: an element offset, compile-time
// (folded) or run-time (an i32).
SemaValue IRGenTensor::pointerArithmetic(ast::BinaryOp op, const SemaValue &lhs,
                                         const SemaValue &rhs, const BinarySite &site) {
  const bool left = isPointer(lhs);
  const SemaValue &ptr = left ? lhs : rhs;
  const SemaValue &n = left ? rhs : lhs;
  const ast::Expr &nExpr = left ? site.rhs : site.lhs;
  if (isPointer(n) || !(op == ast::BinaryOp::Add || (op == ast::BinaryOp::Sub && left)))
    return error(site.opLoc, "an iterator takes `+ n` and `- n` of an integer n (an element "
                             "offset), nothing else",
                 {site.range()});
  if (!isInteger(n))
    return error(nExpr, "an iterator's offset is an integer number of elements, not " +
                            n.describe());
  const SemaValue &offset = *ptr.field("_offset");
  SemaValue sum;
  if (offset.is(SemaValue::Kind::Int) && n.is(SemaValue::Kind::Int)) {
    sum = SemaValue::integer(op == ast::BinaryOp::Add ? offset.intValue() + n.intValue()
                                                      : offset.intValue() - n.intValue());
  } else {
    ir::Value *a = toRunTime(offset, site.opLoc, site.range(), ir::DataType::I32);
    ir::Value *b = toRunTime(n, nExpr, ir::DataType::I32);
    if (!a || !b)
      return SemaValue::poison();
    if (b->type() != ir::Type::scalar(ir::DataType::I32))
      return error(nExpr, "an iterator's run-time offset is an i32, not " + n.describe());
    sum = SemaValue::runTime(ctx.builder->createValue(
        op == ast::BinaryOp::Add ? ir::OpKind::Add : ir::OpKind::Sub, site.opLoc,
        ir::Type::scalar(ir::DataType::I32), {a, b}));
  }
  return ptr.withField("_offset", std::move(sum));
}

// make_ptr(dtype, address, AddressSpace.gmem, assumed_align=16): CuTe DSL's
// pointer to global memory at a run-time address (an i64 or u64, such as
// one loaded from a tensor of per-group addresses). Its memory is a
// `cute.global_tensor`, which make_tensor views like any other.
SemaValue IRGenTensor::makePtr(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  if (!site.bound[0].is(SemaValue::Kind::DType))
    return error(site.boundExpr(0, "dtype"),
                 "make_ptr needs an element type such as f16, not " + site.bound[0].describe());
  const ir::DataType element = site.bound[0].dataType();
  const SemaValue &address = site.bound[1];
  const bool isAddress = address.is(SemaValue::Kind::RunTime) && address.type().isScalar() &&
                         (address.type().element() == ir::DataType::I64 ||
                          address.type().element() == ir::DataType::U64);
  if (!isAddress)
    return error(site.boundExpr(1, "value"),
                 "make_ptr takes the address as a run-time i64 or u64, not " + address.describe() +
                     (isViewInMemory(address) ? "; load it first (`.load()`)" : ""));
  const SemaValue &space = site.bound[2];
  if (!space.isWildcard() &&
      !(space.is(SemaValue::Kind::Builtin) && space.name() == "AddressSpace.gmem"))
    return error(site.boundExpr(2, "mem_space"),
                 "make_ptr makes pointers to global memory (AddressSpace.gmem), not " +
                     space.describe());
  const int64_t bytes = std::max<int64_t>(1, ir::bitWidth(element) / 8);
  int64_t align = bytes;
  if (!site.bound[3].isWildcard()) {
    align = site.bound[3].intValue().staticValue();
    if (align & (align - 1) || align % bytes)
      return error(site.boundExpr(3, "assumed_align"),
                   "assumed_align is a power of two bytes, a multiple of the " +
                       llvm::Twine(bytes) + " bytes of " + ir::name(element) + ", not " +
                       llvm::Twine(align));
  }
  ir::Value *value = address.irValue();
  if (value->type().element() == ir::DataType::U64)
    value = ctx.builder->createValue(ir::OpKind::Bitcast, site.loc(),
                                     ir::Type::scalar(ir::DataType::I64), {value});
  ir::Operation &op = ctx.builder->create(
      ir::OpKind::GlobalTensor, site.loc(), {value},
      {ir::Type::tensor(element, ir::MemorySpace::Global, Layout(IntTuple(1), IntTuple(0)))});
  op.set(ir::attr::align, align);
  return pointer(SemaValue::runTime(op.result()), SemaValue::integer(IntExpr(0)));
}

/// Whether `v` is memory itself (a kernel parameter or a shared
/// allocation) rather than a view into a larger tensor, so that its
/// cosize bounds every view of it.
static bool isWholeTensor(const SemaValue &v) {
  const ir::Operation *def = v.irValue()->definingOp();
  return !def || def->kind() == ir::OpKind::SmemAlloc;
}

// make_tensor(iterator, layout): the memory from the iterator on, under
// `layout` (a shape stands for its column-major layout).
SemaValue IRGenTensor::makeTensor(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const SemaValue &ptr = site.bound[0];
  if (!isPointer(ptr))
    return error(site.boundExpr(0, "iterator"),
                 "make_tensor takes an iterator (`t.iterator`, plus an element offset), not " +
                     ptr.describe() + (isViewInMemory(ptr) ? "; write `t.iterator`" : ""));
  // A shape may hold run-time sizes (a group's M and K loaded from memory).
  std::optional<LayoutValue> value = withRunTimeExtents(site.bound[1], site.loc()).toLayoutValue();
  std::optional<Layout> layout;
  if (value && value->get<Layout>())
    layout = *value->get<Layout>();
  else if (value && value->get<IntTuple>())
    layout = makeLayout(*value->get<IntTuple>());
  if (!layout)
    return error(site.boundExpr(1, "layout"),
                 "make_tensor takes a layout (or a shape) as its second argument, not " +
                     site.bound[1].describe());
  const SemaValue &tensor = *ptr.field("_tensor");
  const SemaValue &offset = *ptr.field("_offset");
  if (offset.is(SemaValue::Kind::Int) && isWholeTensor(tensor)) {
    IntExpr start = offset.intValue();
    IntExpr have = cosize(tensor.type().tensorLayout());
    IntExpr past = start + cosize(*layout) - have;
    if ((start.isStatic() && start.staticValue() < 0) ||
        (past.isStatic() && past.staticValue() > 0))
      return error(site.loc(),
                   "the view reaches past the tensor it is made from: offset " + start.str() +
                       " plus the cosize " + cosize(*layout).str() + " of " + layout->str() +
                       " exceeds the cosize " + have.str() + " of " +
                       tensor.type().str(),
                   {site.range()});
  }
  const ir::Type &type = tensor.type();
  std::vector<ir::Value *> operands{tensor.irValue()};
  std::optional<IntExpr> at;
  if (offset.is(SemaValue::Kind::Int)) {
    if (!offset.intValue().isConstant(0))
      at = offset.intValue();
  } else {
    operands.push_back(offset.irValue());
    at = IntExpr::symbol("$0");
  }
  ir::Operation &op = ctx.builder->create(
      ir::OpKind::MakeTensor, site.loc(), operands,
      {ir::Type::tensor(type.element(), type.memorySpace(), *layout, type.tensorSwizzle())});
  if (at)
    op.set(ir::attr::offset, IntTuple(*at));
  return SemaValue::runTime(op.result());
}

bool IRGenTensor::givesView(llvm::StringRef layoutFunction) {
  return llvm::StringSwitch<bool>(layoutFunction)
      .Cases("composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", true)
      .Default(false);
}

// composition(t, L), logical_divide(t, tiler), ...: CuTe's functions of a
// tensor, the same memory under the function of its layout.
SemaValue IRGenTensor::viewUnder(const SemaValue &tensor, const Layout &layout, llvm::SMLoc loc) {
  return gen.tiledMma().relayout(tensor, layout, loc);
}

/// The first mode of `l` that elements `ratio` times wider do not divide
/// exactly (CuTe's static_assert in shape_div): a stride that is neither a
/// multiple nor a divisor of the ratio, or an extent the elements per new
/// element do not divide. Dynamic strides are taken on trust.
static std::optional<std::string> inexactUpcast(const Layout &l, int64_t ratio) {
  std::vector<IntTuple> shapes, strides;
  flattenInto(l.shape, shapes);
  flattenInto(l.stride, strides);
  for (size_t i = 0; i < shapes.size(); ++i) {
    const IntExpr &d = strides[i].leaf(), &s = shapes[i].leaf();
    if (!d.isStatic() || d.staticValue() == 0)
      continue;
    const int64_t step = std::abs(d.staticValue());
    const std::string mode = "the mode " + s.str() + ":" + d.str();
    if (step >= ratio && step % ratio)
      return "the stride of " + mode + " is not a multiple of " + std::to_string(ratio);
    if (step < ratio && (ratio % step || !s.isStatic() || s.staticValue() % (ratio / step)))
      return "the extent of " + mode + " is not a multiple of " + std::to_string(ratio / step);
  }
  return std::nullopt;
}

// recast_tensor(t, dtype): the same bytes as elements of `dtype`, its
// layout recast as CuTe's recast_layout does (a unit-stride mode's extent
// scales by the width ratio, the other strides by its inverse).
SemaValue IRGenTensor::recastTensor(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const SemaValue &tensor = site.bound[0];
  if (!isViewInMemory(tensor))
    return error(site.boundExpr(0, "src"),
                 "recast_tensor takes a tensor in memory, not " + tensor.describe());
  if (!site.bound[1].is(SemaValue::Kind::DType))
    return error(site.boundExpr(1, "dtype"),
                 "recast_tensor needs an element type such as u32, not " +
                     site.bound[1].describe());
  ir::DataType from = tensor.type().element(), to = site.bound[1].dataType();
  const int64_t oldBits = ir::bitWidth(from), newBits = ir::bitWidth(to);
  if (oldBits % newBits && newBits % oldBits)
    return error(site.boundExpr(1, "dtype"),
                 "cannot recast " + ir::name(from) + " (" + llvm::Twine(oldBits) + " bits) as " +
                     ir::name(to) + " (" + llvm::Twine(newBits) +
                     " bits): one width must divide the other");
  if (newBits > oldBits)
    if (std::optional<std::string> problem =
            inexactUpcast(tensor.type().tensorLayout(), newBits / oldBits))
      return error(site.loc(),
                   "cannot recast " + tensor.type().str() + " as " + ir::name(to) + ": " +
                       *problem,
                   {site.range()});
  llvm::Expected<LayoutValue> recast = callLayoutFunction(
      "recast", {tensor.type().tensorLayout(), IntTuple(oldBits), IntTuple(newBits)});
  if (!recast)
    return error(site.loc(),
                 "cannot recast " + tensor.type().str() + " as " + ir::name(to) + ": " +
                     llvm::toString(recast.takeError()),
                 {site.range()});
  const ir::Type &type = tensor.type();
  return SemaValue::runTime(ctx.builder->createValue(
      ir::OpKind::MakeTensor, site.loc(),
      ir::Type::tensor(to, type.memorySpace(), *recast->get<Layout>(), type.tensorSwizzle()),
      {tensor.irValue()}));
}

} // namespace cutec
