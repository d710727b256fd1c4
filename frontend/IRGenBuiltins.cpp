// IRGen for built-in functions and methods: the CuTe layout functions
// (evaluated at compile time through callLayoutFunction), tuple select,
// size with mode=, block_idx/thread_idx, element-type constructors, and the
// tensor methods .load(), .store(v) and .to(dtype).
#include "frontend/IRGen.h"

#include "llvm/ADT/StringSwitch.h"

namespace cutec {

bool IRGen::isBuiltinName(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
             .Cases("range", "unroll", "block_idx", "thread_idx", "local_tile", "Tensor", true)
             .Case("shuffle_sync_bfly", true) // warp collectives (IRGenWarp.cpp)
             .Default(false) ||
         isAsyncBuiltinName(name) || isTcgen05BuiltinName(name) || isTiledMmaBuiltinName(name) ||
         isClusterBuiltinName(name) ||
         isLayoutFunction(name);
}

bool IRGen::checkArity(CallSite &site, llvm::StringRef name, size_t min, size_t max,
                       llvm::ArrayRef<llvm::StringRef> keywords) {
  size_t n = site.args.size();
  if (n < min || n > max) {
    std::string expected =
        min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max);
    error(site.loc(),
          "wrong number of arguments: '" + name + "' takes " + expected +
              (max == 1 ? " argument" : " arguments") + ", got " + llvm::Twine(n),
          {site.range()});
    return false;
  }
  for (const CallSite::Keyword &kw : site.keywords)
    if (!llvm::is_contained(keywords, kw.name)) {
      error(kw.nameRange.Start, "'" + name + "' has no argument named '" + kw.name + "'",
            {kw.nameRange});
      return false;
    }
  return true;
}

std::optional<LayoutValue> IRGen::layoutArgument(const SemaValue &v) {
  if (v.is(SemaValue::Kind::RunTime) && v.type().isTensor())
    return LayoutValue(v.type().tensorLayout());
  return v.toLayoutValue();
}

SemaValue IRGen::callBuiltin(llvm::StringRef name, CallSite &site) {
  if (name == "range" || name == "unroll")
    return error(site.loc(), name + "() can only be the iterable of a for loop", {site.range()});
  if (name == "Tensor")
    return error(site.loc(), "Tensor[...] is only allowed as the type of a kernel parameter",
                 {site.range()});
  if (name == "block_idx")
    return callIndexTuple(ir::OpKind::BlockIdx, site);
  if (name == "thread_idx")
    return callIndexTuple(ir::OpKind::ThreadIdx, site);
  if (name == "local_tile")
    return localTile(site);
  if (name == "shuffle_sync_bfly")
    return callShuffleBfly(site);
  if (name == "size")
    return callSize(site);
  if (name == "select")
    return callSelect(site);
  if (isAsyncBuiltinName(name))
    return callAsyncBuiltin(name, site);
  if (isTcgen05BuiltinName(name))
    return callTcgen05Builtin(name, site);
  if (isTiledMmaBuiltinName(name))
    return callTiledMmaBuiltin(name, site);
  if (isClusterBuiltinName(name))
    return callClusterBuiltin(name, site);
  return callLayoutBuiltin(name, site);
}

SemaValue IRGen::callIndexTuple(ir::OpKind kind, CallSite &site) {
  llvm::StringRef name = kind == ir::OpKind::BlockIdx ? "block_idx" : "thread_idx";
  if (!checkArity(site, name, 0, 0))
    return SemaValue::poison();
  ir::Builder *b = requireBuilder(site.loc(), name + "()");
  if (!b)
    return SemaValue::poison();
  std::vector<SemaValue> dims;
  for (int64_t dim = 0; dim < 3; ++dim) {
    ir::Operation &op = b->create(kind, site.loc(), {}, {ir::Type::scalar(ir::DataType::I32)});
    op.setAttr("dim", dim);
    dims.push_back(SemaValue::runTime(op.result()));
  }
  return SemaValue::tuple(std::move(dims));
}

// Keyword arguments of layout functions, by position (CuTe's names).
static std::optional<size_t> layoutKeywordPosition(llvm::StringRef function,
                                                   llvm::StringRef keyword) {
  struct Entry {
    const char *function, *keyword;
    size_t position;
  };
  static const Entry entries[] = {{"tile_to_shape", "order", 2},
                                  {"make_ordered_layout", "order", 1},
                                  {"make_layout", "stride", 1},
                                  {"complement", "cotarget", 1},
                                  {"coalesce", "profile", 1}};
  for (const Entry &e : entries)
    if (function == e.function && keyword == e.keyword)
      return e.position;
  return std::nullopt;
}

SemaValue IRGen::callLayoutBuiltin(llvm::StringRef name, CallSite &site) {
  std::vector<LayoutValue> args;
  for (size_t i = 0; i < site.args.size(); ++i) {
    std::optional<LayoutValue> lv = layoutArgument(site.args[i]);
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
      return error(kw.nameRange.Start, "'" + name + "' has no argument named '" + kw.name + "'",
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
  llvm::Expected<LayoutValue> result = callLayoutFunction(name, args);
  if (!result)
    return error(site.loc(), llvm::toString(result.takeError()), {site.range()});
  return SemaValue::fromLayoutValue(std::move(*result));
}

// size(x) and size(x, mode=i) or mode=(i, j) for a nested mode (CuTe DSL's
// size(t, mode=[i])).
SemaValue IRGen::callSize(CallSite &site) {
  if (!checkArity(site, "size", 1, 1, {"mode"}))
    return SemaValue::poison();
  std::optional<LayoutValue> shaped = layoutArgument(site.args[0]);
  if (!shaped)
    return error(site.argExpr(0),
                 "'size' needs a tensor, a layout or a shape, not " + site.args[0].describe());
  if (const CallSite::Keyword *mode = site.keyword("mode")) {
    std::vector<LayoutValue> args{*shaped};
    if (const IntTuple *shape = shaped->get<IntTuple>())
      args[0] = LayoutValue(makeLayout(*shape));
    const SemaValue &m = mode->value;
    for (const SemaValue &i :
         m.is(SemaValue::Kind::Tuple) ? m.elements() : std::vector<SemaValue>{m}) {
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
SemaValue IRGen::callSelect(CallSite &site) {
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

SemaValue IRGen::callDType(ir::DataType type, CallSite &site) {
  if (!checkArity(site, ir::name(type), 1, 1))
    return SemaValue::poison();
  return convert(site.args[0], type, site.argExpr(0));
}

SemaValue IRGen::callMethod(const SemaValue &method, CallSite &site) {
  const SemaValue &self = method.receiver();
  llvm::StringRef name = method.name();
  if (self.is(SemaValue::Kind::TiledMma))
    return callTiledMmaMethod(method, site);
  if (name == "load") {
    if (!checkArity(site, "load", 0, 0))
      return SemaValue::poison();
    return load(self, site.call);
  }
  if (name == "store") {
    if (!checkArity(site, "store", 1, 1))
      return SemaValue::poison();
    store(site.args[0], self, site.argExpr(0), site.loc());
    return SemaValue::none();
  }
  // .to(dtype)
  if (!checkArity(site, "to", 1, 1))
    return SemaValue::poison();
  if (!site.args[0].is(SemaValue::Kind::DType))
    return error(site.argExpr(0),
                 "'to' needs an element type such as f32, not " + site.args[0].describe());
  return convert(self, site.args[0].dataType(), site.call);
}

} // namespace cutec
