// IRGenBuiltins, for built-in functions and methods: the CuTe layout functions
// (evaluated at compile time through callLayoutFunction), tuple select,
// size with mode=, block_idx/thread_idx, element-type constructors, and the
// tensor methods .load(), .store(v) and .to(dtype).
#include "frontend/irgen/IRGen.h"

#include "frontend/Suggestions.h"
#include "ir/core/LaunchChecks.h"

#include "llvm/ADT/StringExtras.h"


namespace cutec {

bool IRGenBuiltins::isBuiltinName(llvm::StringRef name) {
  return findBuiltin(name) || isLayoutFunction(name);
}

std::optional<LayoutValue> IRGenBuiltins::layoutArgument(const SemaValue &v) {
  if (v.is(SemaValue::Kind::RunTime) && v.type().isTensor())
    return LayoutValue(v.type().tensorLayout());
  // A coordinate tensor stands for its shape (size(c), rank(c), ...).
  if (IRGenTensor::isCoordinateTensor(v))
    return LayoutValue(
        makeLayout(v.field("_modes")->elements().front().type().tensorLayout().shape));
  return v.toLayoutValue();
}

SemaValue IRGenBuiltins::callBuiltin(llvm::StringRef name, CallSite &site) {
  const BuiltinInfo *builtin = findBuiltin(name);
  if (!builtin)
    return callLayoutBuiltin(name, site);
  site.callee = builtin->spelling;
  if (!bindArguments(*builtin, site))
    return SemaValue::poison();
  if (!builtin->handler)
    return callIntrinsic(*builtin, site);
  return builtin->handler(gen, site);
}

/// Whether `v` is one element of a shared tensor of `element`s (an
/// mbarrier: u64 or i64; a try_cancel response: u128).
static bool isSharedElement(const SemaValue &v, llvm::function_ref<bool(ir::DataType)> element) {
  if (!v.is(SemaValue::Kind::RunTime) || !v.type().isTensor())
    return false;
  const ir::Type &t = v.type();
  return t.memorySpace() == ir::MemorySpace::Shared && t.tensorLayout().shape.isTuple() &&
         t.tensorLayout().shape.rank() == 0 && element(t.element());
}

static bool isMbarrier(const SemaValue &v) {
  return isSharedElement(
      v, [](ir::DataType t) { return ir::bitWidth(t) == 64 && ir::isInteger(t); });
}

static bool isTensorIn(const SemaValue &v, std::optional<ir::MemorySpace> space) {
  return v.is(SemaValue::Kind::RunTime) && v.type().isTensor() &&
         (!space || v.type().memorySpace() == *space);
}

static bool hasKind(const SemaValue &v, ArgKind kind) {
  switch (kind) {
  case ArgKind::I32:
    return v.is(SemaValue::Kind::Int) ||
           (v.is(SemaValue::Kind::RunTime) && v.type().isScalar() &&
            ir::isInteger(v.type().element()) && ir::bitWidth(v.type().element()) == 32);
  case ArgKind::Bool:
    return v.is(SemaValue::Kind::Bool) ||
           (v.is(SemaValue::Kind::RunTime) && v.type() == ir::Type::scalar(ir::DataType::Bool));
  case ArgKind::Int:
    return v.is(SemaValue::Kind::Int) && v.intValue().isStatic();
  case ArgKind::Flag:
    return v.is(SemaValue::Kind::Bool);
  case ArgKind::Mbarrier:
    return isMbarrier(v);
  case ArgKind::ClcResponse:
    return isSharedElement(v, [](ir::DataType t) { return t == ir::DataType::U128; });
  case ArgKind::Smem:
    return isTensorIn(v, ir::MemorySpace::Shared);
  case ArgKind::Gmem:
    return isTensorIn(v, ir::MemorySpace::Global);
  case ArgKind::Tensor:
    return isTensorIn(v, std::nullopt);
  case ArgKind::String:
    return v.is(SemaValue::Kind::String);
  case ArgKind::Any:
    return true;
  }
  return false;
}

bool IRGenBuiltins::bindArguments(const BuiltinInfo &builtin, CallSite &site) {
  const BuiltinSignature &sig = builtin.signature;
  if (sig.unchecked)
    return true;
  // As in Python, every parameter may be passed by keyword
  // (`NamedBarrier(barrier_id=1, num_threads=128)`).
  llvm::SmallVector<llvm::StringRef, 4> keywords;
  for (const BuiltinParam &p : sig.params)
    keywords.push_back(p.name);
  size_t requiredByKeyword = llvm::count_if(site.keywords, [&](const CallSite::Keyword &kw) {
    int i = sig.find(kw.name);
    return i >= 0 && !sig.params[size_t(i)].keywordOnly && !sig.params[size_t(i)].optional;
  });
  size_t required = sig.requiredCount() - std::min(requiredByKeyword, sig.requiredCount());
  if (!checkArity(site, builtin.spelling, required, sig.positionalCount(), keywords))
    return false;
  std::vector<std::optional<SemaValue>> bound(sig.params.size());
  std::vector<const ast::Expr *> exprs(sig.params.size());
  for (size_t i = 0; i < site.args.size(); ++i) {
    bound[i] = site.args[i];
    exprs[i] = &site.argExpr(i);
  }
  for (const CallSite::Keyword &kw : site.keywords) {
    size_t i = size_t(sig.find(kw.name));
    if (bound[i]) {
      error(kw.nameRange.Start,
            "'" + builtin.spelling + "' got argument '" + kw.name + "' twice", {kw.nameRange});
      return false;
    }
    bound[i] = kw.value;
    exprs[i] = kw.expr;
  }
  site.bound.clear();
  for (size_t i = 0; i < sig.params.size(); ++i) {
    const BuiltinParam &p = sig.params[i];
    if (!bound[i] && !p.optional) {
      error(site.loc(), "missing argument '" + p.name + "' in the call to '" + builtin.spelling + "'",
            {site.range()});
      return false;
    }
    if (!bound[i]) {
      bool flag = p.kind == ArgKind::Flag;
      site.bound.push_back(!p.defaultValue ? SemaValue::none()
                           : flag          ? SemaValue::boolean(*p.defaultValue != 0)
                                           : SemaValue::integer(*p.defaultValue));
      continue;
    }
    const SemaValue &v = *bound[i];
    if (!hasKind(v, p.kind)) {
      error(*exprs[i], "'" + p.name + "' of " + builtin.spelling + " must be " +
                           describeArgKind(p.kind) + ", not " + v.describe());
      return false;
    }
    if (p.kind == ArgKind::Int && p.lo) {
      int64_t n = v.intValue().staticValue();
      if (n < *p.lo || n > *p.hi || (n - *p.lo) % p.step != 0) {
        std::string step = p.step == 1 ? "" : " in steps of " + std::to_string(p.step);
        error(*exprs[i], "'" + p.name + "' of " + builtin.spelling + " must be from " +
                             llvm::Twine(*p.lo) + " to " + llvm::Twine(*p.hi) + step + ", not " +
                             llvm::Twine(n));
        return false;
      }
    }
    site.bound.push_back(v);
  }
  return true;
}

SemaValue IRGenBuiltins::callIntrinsic(const BuiltinInfo &builtin, CallSite &site) {
  ir::Builder *b = requireBuilder(site.loc(), builtin.spelling + "()");
  if (!b)
    return SemaValue::poison();
  const BuiltinSignature &sig = builtin.signature;
  std::vector<ir::Value *> operands;
  std::vector<std::pair<std::string, ir::Attribute>> attributes;
  for (size_t i = 0; i < sig.params.size(); ++i) {
    const BuiltinParam &p = sig.params[i];
    const SemaValue &v = site.bound[i];
    if (v.is(SemaValue::Kind::None))
      continue; // an optional argument left out
    switch (p.kind) {
    case ArgKind::Int:
      attributes.push_back({p.name, ir::Attribute(v.intValue().staticValue())});
      continue;
    case ArgKind::Flag:
      attributes.push_back({p.name, ir::Attribute(v.boolValue())});
      continue;
    case ArgKind::I32:
      operands.push_back(toRunTime(v, site.loc(), site.range(), ir::DataType::I32));
      break;
    case ArgKind::Bool:
      operands.push_back(toRunTime(v, site.loc(), site.range(), ir::DataType::Bool));
      break;
    default:
      operands.push_back(v.irValue());
      break;
    }
    if (!operands.back())
      return SemaValue::poison();
  }
  std::vector<ir::Type> results;
  if (sig.result)
    results.push_back(ir::Type::scalar(*sig.result));
  ir::Operation &op = b->create(builtin.op, site.loc(), operands, results);
  for (const auto &[name, value] : attributes)
    op.setAttr(name, value);
  return sig.result ? SemaValue::runTime(op.result()) : SemaValue::none();
}

SemaValue IRGenBuiltins::invokeBuiltin(llvm::StringRef name, CallSite &site,
                                       std::vector<SemaValue> args) {
  const BuiltinInfo *builtin = findBuiltin(name);
  if (!builtin)
    return error(site.loc(), "internal error: '" + site.callee + "' needs the built-in '" + name +
                                 "', which this build lacks",
                 {site.range()});
  CallSite inner{site.call, std::move(args), {}, builtin->spelling, nullptr, {}, std::nullopt};
  if (!bindArguments(*builtin, inner))
    return SemaValue::poison();
  if (!builtin->handler)
    return callIntrinsic(*builtin, inner);
  return builtin->handler(gen, inner);
}

SemaValue IRGenBuiltins::misplacedIterable(CallSite &site) {
  return error(site.loc(), site.callee + "() can only be the iterable of a for loop",
               {site.range()});
}

SemaValue IRGenBuiltins::misplacedTensorType(CallSite &site) {
  return error(site.loc(), "Tensor[...] is only allowed as the type of a kernel parameter",
               {site.range()});
}

// A built-in enumeration or class called as a function: its values, or how
// to make one ("PipelineTmaUmma.create(...)"), are the table's rows under
// its name.
SemaValue IRGenBuiltins::notAFunction(CallSite &site) {
  llvm::StringRef name = site.callee;
  if (findBuiltin(name)->isModule)
    return error(site.loc(), name + " is a module, not a function", {site.range()});
  std::vector<std::string> values, constructors;
  for (const BuiltinInfo &row : builtinTable()) {
    auto [owner, member] = row.spelling.split('.');
    if (owner != name || member.empty() || member.contains('.'))
      continue;
    if (row.notCallable)
      values.push_back(row.spelling.str());
    else if (member == "create")
      constructors.push_back(row.spelling.str() + "(...)");
  }
  auto list = [](std::vector<std::string> items, llvm::StringRef last) {
    std::string tail = items.back();
    items.pop_back();
    return items.empty() ? tail : llvm::join(items, ", ") + " " + last.str() + " " + tail;
  };
  std::string what = !constructors.empty() ? "make one with " + list(constructors, "or")
                     : !values.empty()     ? "its values are " + list(values, "and")
                                           : "it is a value";
  return error(site.loc(), name + " is not a function: " + what, {site.range()});
}

std::optional<ir::OpKind> indexRegisterOp(llvm::StringRef builtin) {
  if (builtin == "block_idx")
    return ir::OpKind::BlockIdx;
  if (builtin == "thread_idx")
    return ir::OpKind::ThreadIdx;
  if (builtin == "grid_dim")
    return ir::OpKind::GridDim;
  return std::nullopt;
}

SemaValue IRGenBuiltins::indexRegister(ir::OpKind kind, llvm::SMLoc loc, const llvm::Twine &what,
                                       int64_t dim) {
  ir::Builder *b = requireBuilder(loc, what);
  if (!b)
    return SemaValue::poison();
  ir::Operation &op = b->create(kind, loc, {}, {ir::Type::scalar(ir::DataType::I32)});
  op.set(ir::attr::dim, dim);
  return SemaValue::runTime(op.result());
}

SemaValue IRGenBuiltins::callIndexTuple(CallSite &site) {
  ir::OpKind kind = *indexRegisterOp(site.callee);
  std::vector<SemaValue> dims;
  for (int64_t dim = 0; dim < 3; ++dim) {
    SemaValue index = indexRegister(kind, site.loc(), site.callee + "()", dim);
    if (index.isPoison())
      return index;
    dims.push_back(std::move(index));
  }
  return SemaValue::tuple(std::move(dims));
}

// sm_count(): the launching device's SM count, a size only the launcher
// knows, so only a grid may use it (persistent kernels launch one CTA per SM).
SemaValue IRGenBuiltins::callSmCount(CallSite &site) {
  if (!ctx.evaluatingGrid)
    return error(site.loc(),
                 "sm_count() is known only when the kernel is launched: use it in the @kernel "
                 "grid, e.g. grid=(min(tiles, sm_count()), 1, 1), and read the grid in the "
                 "kernel with grid_dim()",
                 {site.range()});
  return SemaValue::integer(IntExpr::symbol(ir::kSmCountSize));
}

// Keyword arguments of layout functions, by position (CuTe's names).
struct LayoutKeyword {
  const char *function, *keyword;
  size_t position;
};
static constexpr LayoutKeyword kLayoutKeywords[] = {{"tile_to_shape", "order", 2},
                                                    {"make_ordered_layout", "order", 1},
                                                    {"make_layout", "stride", 1},
                                                    {"complement", "cotarget", 1},
                                                    {"coalesce", "profile", 1}};

static std::optional<size_t> layoutKeywordPosition(llvm::StringRef function,
                                                   llvm::StringRef keyword) {
  for (const LayoutKeyword &e : kLayoutKeywords)
    if (function == e.function && keyword == e.keyword)
      return e.position;
  return std::nullopt;
}

/// The keywords layout function `function` takes (for "did you mean").
static std::vector<llvm::StringRef> layoutKeywords(llvm::StringRef function) {
  std::vector<llvm::StringRef> names;
  for (const LayoutKeyword &e : kLayoutKeywords)
    if (function == e.function)
      names.push_back(e.keyword);
  return names;
}

/// The first element of `v` (depth first) that is neither an integer nor a
/// tuple; null when there is none.
static const SemaValue *firstNonInteger(const SemaValue &v) {
  if (v.is(SemaValue::Kind::Int))
    return nullptr;
  if (!v.is(SemaValue::Kind::Tuple))
    return &v;
  for (const SemaValue &e : v.elements())
    if (const SemaValue *bad = firstNonInteger(e))
      return bad;
  return nullptr;
}

SemaValue IRGenBuiltins::callLayoutBuiltin(llvm::StringRef name, CallSite &site) {
  // make_layout's shape and stride may hold run-time i32s (a size loaded
  // from memory): they become run-time extents of the layout.
  if (name == "make_layout") {
    for (SemaValue &arg : site.args)
      arg = withRunTimeExtents(arg, site.loc());
    for (CallSite::Keyword &kw : site.keywords)
      kw.value = withRunTimeExtents(kw.value, site.loc());
  }
  std::vector<LayoutValue> args;
  for (size_t i = 0; i < site.args.size(); ++i) {
    std::optional<LayoutValue> lv = layoutArgument(site.args[i]);
    if (!lv && name == "make_layout")
      return error(
          site.argExpr(i),
          "argument " + llvm::Twine(i + 1) +
              " of 'make_layout' holds integers, known at compile "
              "time or run-time i32 values, not " +
              (firstNonInteger(site.args[i]) ? *firstNonInteger(site.args[i]) : site.args[i])
                  .describe());
    if (!lv)
      return error(site.argExpr(i), "argument " + llvm::Twine(i + 1) + " of '" + name +
                                        "' must be known at compile time (an integer, a tuple "
                                        "or a layout), not " +
                                        site.args[i].describe());
    args.push_back(std::move(*lv));
  }
  for (const CallSite::Keyword &kw : site.keywords) {
    std::optional<size_t> position = layoutKeywordPosition(name, kw.name);
    if (!position)
      return error(kw.nameRange.Start,
                   "'" + name + "' has no argument named '" + kw.name + "'" +
                       didYouMean(kw.name, layoutKeywords(name)),
                   {kw.nameRange});
    if (*position != args.size())
      return error(kw.nameRange.Start,
                   "'" + kw.name + "' is argument " + llvm::Twine(*position + 1) + " of '" + name +
                       "', but " + llvm::Twine(args.size()) + " positional arguments precede it",
                   {kw.nameRange});
    std::optional<LayoutValue> lv = layoutArgument(kw.value);
    if (!lv)
      return error(*kw.expr,
                   "'" + kw.name + "' must be known at compile time, not " + kw.value.describe());
    args.push_back(std::move(*lv));
  }
  const SemaValue &first = site.args.empty() ? SemaValue::poison() : site.args[0];
  // composition(t, L), logical_divide(t, tiler), ... of a tensor: a view.
  if (IRGenTensor::givesView(name) && IRGenTensor::isCoordinateTensor(first))
    return gen.tensors().mapCoordinates(first, [&](const SemaValue &mode) {
      CallSite each = site;
      each.args[0] = mode;
      return callLayoutBuiltin(name, each);
    });
  const bool ofView = IRGenTensor::givesView(name) && first.is(SemaValue::Kind::RunTime) &&
                      first.type().isTensor() &&
                      first.type().memorySpace() != ir::MemorySpace::Register;
  const bool ofFragment = first.is(SemaValue::Kind::RunTime) && first.type().isTensor() &&
                          first.type().memorySpace() == ir::MemorySpace::Register;
  if (ofFragment) // its elements by their logical index, which the result maps to
    args[0] = LayoutValue(makeLayout(first.type().tensorLayout().shape));
  llvm::Expected<LayoutValue> result = callLayoutFunction(name, args);
  if (!result)
    return error(site.loc(), llvm::toString(result.takeError()), {site.range()});
  if (ofFragment && result->get<Layout>())
    return gen.tensors().rearrangeFragment(first, *result->get<Layout>(), site.loc(), site.range());
  if (ofView && result->get<Layout>() && requireBuilder(site.loc(), name + "() of a tensor"))
    return gen.tensors().viewUnder(first, *result->get<Layout>(), site.loc());
  return SemaValue::fromLayoutValue(std::move(*result));
}

// size(x) and size(x, mode=i) or mode=(i, j) for a nested mode (CuTe DSL's
// size(t, mode=[i])).
SemaValue IRGenBuiltins::callSize(CallSite &site) {
  std::optional<LayoutValue> shaped = layoutArgument(site.bound[0]);
  if (!shaped)
    return error(site.boundExpr(0, "x"),
                 "'size' needs a tensor, a layout or a shape, not " + site.bound[0].describe());
  if (const CallSite::Keyword *mode = site.keyword("mode")) {
    std::vector<LayoutValue> args{*shaped};
    if (const IntTuple *shape = shaped->get<IntTuple>())
      args[0] = LayoutValue(makeLayout(*shape));
    const SemaValue &m = mode->value;
    if (m.isPoison())
      return m;
    std::vector<SemaValue> path =
        m.is(SemaValue::Kind::Tuple) ? m.elements() : std::vector<SemaValue>{m};
    // CuTe DSL writes the path as a list, which evaluates to a tiler: take
    // its elements (integers, without effects) as they are written.
    if (const auto *list = llvm::dyn_cast<ast::ListExpr>(mode->expr)) {
      path.clear();
      for (const ast::ExprPtr &e : list->getElements())
        path.push_back(gen.exprs().eval(*e));
    }
    for (const SemaValue &i : path) {
      std::optional<LayoutValue> lv = i.toLayoutValue();
      if (!i.is(SemaValue::Kind::Int) || !lv)
        return error(*mode->expr,
                     "mode= must be an integer or a tuple of integers, not " + m.describe());
      args.push_back(*lv);
    }
    llvm::Expected<LayoutValue> sub = callLayoutFunction("get", args);
    if (!sub)
      return error(*mode->expr, llvm::toString(sub.takeError()));
    shaped = std::move(*sub);
  }
  llvm::Expected<LayoutValue> size = callLayoutFunction("size", {*shaped});
  if (!size)
    return error(site.loc(), llvm::toString(size.takeError()), {site.range()});
  return SemaValue::fromLayoutValue(std::move(*size));
}

// select(tuple, i, j...) picks tuple elements (which may be run-time
// values); on a layout it is CuTe's select.
SemaValue IRGenBuiltins::callSelect(CallSite &site) {
  if (site.args.empty() || !site.args[0].is(SemaValue::Kind::Tuple))
    return callLayoutBuiltin("select", site);
  if (!checkArity(site, "select", 2, 16))
    return SemaValue::poison();
  const std::vector<SemaValue> &elements = site.args[0].elements();
  std::vector<SemaValue> picked;
  for (size_t i = 1; i < site.args.size(); ++i) {
    const SemaValue &index = site.args[i];
    if (!index.is(SemaValue::Kind::Int) || !index.intValue().isStatic())
      return error(site.argExpr(i),
                   "select: a mode index must be a static integer, not " + index.describe());
    int64_t m = index.intValue().staticValue();
    if (m < 0 || m >= int64_t(elements.size()))
      return error(site.argExpr(i), "select: mode " + llvm::Twine(m) +
                                        " is out of range for a tuple of " +
                                        llvm::Twine(elements.size()) + " elements");
    picked.push_back(elements[m]);
  }
  return SemaValue::tuple(std::move(picked));
}

SemaValue IRGenBuiltins::callDType(ir::DataType type, CallSite &site) {
  if (!checkArity(site, ir::name(type), 1, 1))
    return SemaValue::poison();
  return gen.exprs().convert(site.args[0], type, site.argExpr(0));
}

SemaValue IRGenBuiltins::callMethod(const SemaValue &method, CallSite &site) {
  const SemaValue &self = method.receiver();
  llvm::StringRef name = method.name();
  if (self.is(SemaValue::Kind::TiledMma))
    return gen.tiledMma().callTiledMmaMethod(method, site);
  if (self.is(SemaValue::Kind::Object)) {
    const BuiltinInfo *builtin = findBuiltin((self.className() + "." + name).str());
    site.callee = builtin->spelling;
    site.self = &self;
    if (!bindArguments(*builtin, site))
      return SemaValue::poison();
    return builtin->handler(gen, site);
  }
  if (name == "load") {
    if (!checkArity(site, "load", 0, 0))
      return SemaValue::poison();
    return gen.tensors().load(self, site.call);
  }
  if (name == "reduce")
    return gen.tensors().fragmentReduce(self, site);
  if (name == "fill")
    return gen.tensors().fill(self, site);
  if (name == "store" && IRGenTensor::isFragment(self))
    return gen.tensors().storeFragment(self, site);
  if (name == "store") {
    if (!checkArity(site, "store", 1, 1))
      return SemaValue::poison();
    gen.tensors().store(site.args[0], self, site.argExpr(0), site.loc());
    return SemaValue::none();
  }
  // .to(dtype)
  if (!checkArity(site, "to", 1, 1))
    return SemaValue::poison();
  if (!site.args[0].is(SemaValue::Kind::DType))
    return error(site.argExpr(0),
                 "'to' needs an element type such as f32, not " + site.args[0].describe());
  return gen.exprs().convert(self, site.args[0].dataType(), site.call);
}

} // namespace cutec
