//===- IRGenFragmentValues.cpp - Building register fragments --------------===//
//
// A register fragment is a value (docs/language.md, "Building fragments"):
// `frag[c] = v` and `frag.fill(v)` give the variable a new fragment, the
// old elements with some replaced, as an assignment gives it a new number;
// `where` chooses element by element; `full_like` and `make_fragment` make
// one of equal elements. Each is `cute.fragment_of` or `cute.fill` of
// scalars, so it costs no instruction beyond the selects of `where`.
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"

namespace cutec {

SemaValue IRGenTensor::filledFragment(const IntTuple &shape, ir::Value *value, llvm::SMLoc loc) {
  ir::Type type =
      ir::Type::tensor(value->type().element(), ir::MemorySpace::Register, makeLayout(shape));
  return SemaValue::runTime(ctx.builder->createValue(ir::OpKind::Fill, loc, type, {value}));
}

/// `value` as a run-time scalar of `type`, the element type of the fragment
/// it goes into (`what`: "an element of", "every element of"): a literal
/// adopts the type, a run-time value must have it.
static ir::Value *elementValue(IRGenBase &irgen, const SemaValue &value, const ast::Expr &expr,
                               ir::DataType type, const llvm::Twine &what) {
  if (value.is(SemaValue::Kind::RunTime) && value.type() != ir::Type::scalar(type)) {
    std::string hint = value.type().isScalar()
                           ? "; convert it with .to(" + ir::name(type).str() + ")"
                           : IRGenExpr::loadHint(expr, value);
    irgen.error(expr, "cannot put " + value.describe() + " into " + what + " a fragment of " +
                          ir::name(type) + hint);
    return nullptr;
  }
  return irgen.toRunTime(value, expr, type);
}

const ast::NameExpr *IRGenTensor::fragmentVariable(const ast::Expr &base) {
  const auto *name = llvm::dyn_cast<ast::NameExpr>(&base);
  if (!name) {
    error(base, "only a variable's register fragment can change (the variable takes the new "
                "fragment); name it first");
    return nullptr;
  }
  // In Python the caller would see the change; a fragment is a value.
  if (const ast::FunctionDef *helper = ctx.frame->helper)
    for (const auto &param : helper->getParams())
      if (param->getName() == name->getName()) {
        error(base, "'" + name->getName() + "' is a parameter of '" + helper->getName() +
                        "': changing its elements would change the helper's copy only, not the "
                        "caller's fragment; change a new variable (`out = " +
                        name->getName() + "`) and return it");
        return nullptr;
      }
  return name;
}

SemaValue IRGenTensor::assignElements(const SemaValue &fragment,
                                      const ast::SubscriptExpr &subscript,
                                      const std::vector<SemaValue> &coords, const SemaValue &value,
                                      const ast::Expr &valueExpr) {
  std::optional<FragmentSelection> selection = selectElements(fragment, subscript, coords);
  if (!selection || value.isPoison())
    return SemaValue::poison();
  const ir::DataType type = fragment.type().element();
  llvm::SMLoc loc = subscript.getLoc();
  std::vector<ir::Value *> replacements;
  if (isFragment(value)) {
    if (!selection->shape)
      return error(valueExpr, "cannot put " + value.describe() +
                                  " into one element of a register fragment; index it too");
    int64_t count = size(makeLayout(value.type().tensorLayout().shape)).staticValue();
    if (value.type().element() != type)
      return error(valueExpr, "cannot put a fragment of " + ir::name(value.type().element()) +
                                  " into a fragment of " + ir::name(type) +
                                  "; convert it with .to(" + ir::name(type) + ")");
    if (count != int64_t(selection->indices.size()))
      return error(valueExpr, "cannot put a fragment of " + llvm::Twine(count) + " elements into " +
                                  llvm::Twine(selection->indices.size()) +
                                  " elements of a register fragment");
    for (int64_t i = 0; i < count; ++i)
      replacements.push_back(fragmentElement(value, i, loc).irValue());
  } else {
    ir::Value *v = elementValue(*this, value, valueExpr, type,
                                selection->shape ? "elements of" : "an element of");
    if (!v)
      return SemaValue::poison();
    replacements.assign(selection->indices.size(), v);
  }
  // The fragment's elements in order, the selected ones replaced.
  const IntTuple &shape = fragment.type().tensorLayout().shape;
  std::vector<int64_t> all(size(makeLayout(shape)).staticValue());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = int64_t(i);
  SemaValue gathered = gatherFragment(fragment, all, shape, loc);
  ir::Operation &op = *gathered.irValue()->definingOp();
  for (size_t k = 0; k < replacements.size(); ++k)
    op.setOperand(selection->indices[k], replacements[k]);
  return gathered;
}

SemaValue IRGenTensor::select(const SemaValue &cond, const SemaValue &a, const SemaValue &b,
                              llvm::ArrayRef<const ast::Expr *> exprs, llvm::SMLoc loc) {
  return elementwise({cond, a, b}, exprs, loc, [&](llvm::ArrayRef<SemaValue> s) -> SemaValue {
    bool isBool =
        s[0].is(SemaValue::Kind::Bool) ||
        (s[0].is(SemaValue::Kind::RunTime) && s[0].type() == ir::Type::scalar(ir::DataType::Bool));
    if (!isBool)
      return error(*exprs[0],
                   "the condition must be bools, not " +
                       (isFragment(cond) ? "a fragment of " + ir::name(cond.type().element()).str()
                                         : cond.describe()) +
                       IRGenExpr::loadHint(*exprs[0], cond));
    std::string why;
    std::optional<ir::DataType> type = IRGenExpr::choiceType(s[1], s[2], "where", why);
    if (!type)
      return error(*exprs[2], why);
    ir::Value *c = toRunTime(s[0], *exprs[0], ir::DataType::Bool);
    ir::Value *x = toRunTime(s[1], *exprs[1], *type);
    ir::Value *y = toRunTime(s[2], *exprs[2], *type);
    if (!c || !x || !y)
      return SemaValue::poison();
    return SemaValue::runTime(
        ctx.builder->createValue(ir::OpKind::Select, loc, ir::Type::scalar(*type), {c, x, y}));
  });
}

// where(cond, x, y), CuTe DSL's cute.where: x where cond holds, else y,
// element by element; a scalar among them is used for every element.
SemaValue IRGenTensor::where(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  if (!llvm::any_of(site.bound, isFragment))
    return error(site.loc(),
                 "where chooses element by element between register fragments; none of its "
                 "arguments is one (for scalars write `x if cond else y`)",
                 {site.range()});
  return select(site.bound[0], site.bound[1], site.bound[2],
                {&site.boundExpr(0, "cond"), &site.boundExpr(1, "x"), &site.boundExpr(2, "y")},
                site.loc());
}

// full_like(a, fill_value, dtype=None), zeros_like(a, dtype=None),
// ones_like(a, dtype=None): a fragment of a's shape (a fragment or a view
// of static shape) with every element the value, of a's element type or
// `dtype`.
SemaValue IRGenTensor::fullLike(CallSite &site) {
  if (!inKernel(site))
    return SemaValue::poison();
  const SemaValue &like = site.bound[0];
  bool full = site.callee == "full_like";
  const SemaValue &dtype = site.bound[full ? 2 : 1];
  const IntTuple *shape = like.is(SemaValue::Kind::RunTime) && like.type().isTensor()
                              ? &like.type().tensorLayout().shape
                              : nullptr;
  if (!shape || !shape->isStatic() || (shape->isTuple() && shape->rank() == 0) ||
      like.type().memorySpace() == ir::MemorySpace::Coordinate)
    return error(site.argExpr(0), site.callee +
                                      " needs a register fragment or a tensor of "
                                      "several elements and a static shape, not " +
                                      like.describe());
  ir::DataType type = like.type().element();
  if (dtype.is(SemaValue::Kind::DType))
    type = dtype.dataType();
  else if (!dtype.is(SemaValue::Kind::None))
    return error(site.boundExpr(full ? 2 : 1, "dtype"),
                 site.callee + " needs an element type, not " + dtype.describe());
  SemaValue value =
      full ? site.bound[1] : SemaValue::integer(IntExpr(site.callee == "ones_like" ? 1 : 0));
  ir::Value *v = elementValue(*this, value, site.boundExpr(full ? 1 : 0, "fill_value"), type,
                              "every element of");
  if (!v)
    return SemaValue::poison();
  return filledFragment(*shape, v, site.loc());
}

// frag.fill(v): CuTe DSL fills a register tensor in place; here the
// variable takes the filled fragment, as after `frag = full_like(frag, v)`.
SemaValue IRGenTensor::fill(const SemaValue &fragment, CallSite &site) {
  if (!checkArity(site, "fill", 1, 1) ||
      !fragmentVariable(llvm::cast<ast::AttributeExpr>(site.call.getCallee()).getBase()))
    return SemaValue::poison();
  ir::Value *v = elementValue(*this, site.args[0], site.argExpr(0), fragment.type().element(),
                              "every element of");
  if (!v)
    return SemaValue::poison();
  site.updatedSelf = filledFragment(fragment.type().tensorLayout().shape, v, site.loc());
  return SemaValue::none();
}

// frag.store(v): CuTe DSL stores a TensorSSA into a register tensor; here
// the variable takes `v`, a fragment of the same shape and element type.
SemaValue IRGenTensor::storeFragment(const SemaValue &fragment, CallSite &site) {
  if (!checkArity(site, "store", 1, 1) ||
      !fragmentVariable(llvm::cast<ast::AttributeExpr>(site.call.getCallee()).getBase()))
    return SemaValue::poison();
  const SemaValue &value = site.args[0];
  if (value.isPoison())
    return value;
  const ir::Type &type = fragment.type();
  if (!isFragment(value) || value.type().element() != type.element() ||
      value.type().tensorLayout().shape != type.tensorLayout().shape)
    return error(site.argExpr(0), "a register fragment of " + type.str() +
                                      " takes a fragment of the same shape and element type, "
                                      "not " + value.describe());
  site.updatedSelf = value;
  return SemaValue::none();
}

} // namespace cutec
