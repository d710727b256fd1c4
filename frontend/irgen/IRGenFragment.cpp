//===- IRGenFragment.cpp - Arithmetic on register fragments ---------------===//
//
// A register fragment (what `.load()`, `.to()` and `make_rmem_tensor`
// give) takes the scalar operators, the math functions and `reduce`
// element by element (docs/language.md, "Register fragments"): each
// element is extracted, the scalar rule applies with its checks and
// messages, and `cute.fragment_of` gathers the results into a fragment of
// the first fragment operand's shape (the others' shapes must flatten to
// the same). A compile-time or run-time scalar operand is used for every
// element.
//
//===----------------------------------------------------------------------===//
#include "frontend/irgen/IRGen.h"

namespace cutec {

bool IRGenTensor::isFragment(const SemaValue &v) {
  return v.is(SemaValue::Kind::RunTime) && v.type().isTensor() &&
         v.type().memorySpace() == ir::MemorySpace::Register;
}

SemaValue IRGenTensor::fragmentElement(const SemaValue &fragment, int64_t index, llvm::SMLoc loc) {
  ir::Operation &extract = ctx.builder->create(ir::OpKind::Extract, loc, {fragment.irValue()},
                                               {ir::Type::scalar(fragment.type().element())});
  extract.setAttr("index", index);
  return SemaValue::runTime(extract.result());
}

SemaValue
IRGenTensor::elementwise(llvm::ArrayRef<SemaValue> operands,
                         llvm::ArrayRef<const ast::Expr *> exprs, llvm::SMLoc loc,
                         llvm::function_ref<SemaValue(llvm::ArrayRef<SemaValue>)> scalar) {
  const SemaValue *shapeOf = nullptr;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!isFragment(operands[i]))
      continue;
    // (4) and ((4)) hold the same elements in the same order.
    const IntTuple &shape = operands[i].type().tensorLayout().shape;
    if (shapeOf && !(flatten(shapeOf->type().tensorLayout().shape) == flatten(shape)))
      return error(*exprs[i], "element-wise operands must have one shape: " +
                                  shapeOf->type().tensorLayout().shape.str() + " and " +
                                  shape.str());
    if (!shapeOf)
      shapeOf = &operands[i];
  }
  const IntTuple &shape = shapeOf->type().tensorLayout().shape;
  int64_t count = size(makeLayout(shape)).staticValue();
  std::vector<ir::Value *> elements;
  for (int64_t e = 0; e < count; ++e) {
    std::vector<SemaValue> scalars;
    for (const SemaValue &v : operands)
      scalars.push_back(isFragment(v) ? fragmentElement(v, e, loc) : v);
    // The first element reports a type error once for all of them.
    SemaValue r = scalar(scalars);
    if (r.isPoison())
      return r;
    if (!r.is(SemaValue::Kind::RunTime) || !r.type().isScalar())
      return error(loc, "internal error: an element-wise operation gave " + r.describe());
    elements.push_back(r.irValue());
  }
  ir::Type type = ir::Type::tensor(elements.front()->type().element(), ir::MemorySpace::Register,
                                   makeLayout(shape));
  return SemaValue::runTime(ctx.builder->createValue(ir::OpKind::FragmentOf, loc, type, elements));
}

// frag.reduce(op, init): init combined with the elements in their order,
// one after another: ((init op f[0]) op f[1]) ...
SemaValue IRGenTensor::fragmentReduce(const SemaValue &fragment, CallSite &site) {
  if (!checkArity(site, "reduce", 2, 2, {"reduction_profile"}))
    return SemaValue::poison();
  if (const CallSite::Keyword *profile = site.keyword("reduction_profile");
      profile && !(profile->value.is(SemaValue::Kind::Int) &&
                   profile->value.intValue().isStatic() &&
                   profile->value.intValue().staticValue() == 0))
    return error(*profile->expr, "only reduction_profile=0 (the whole fragment to one scalar) "
                                 "is supported, not " +
                                     profile->value.describe());
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
  ir::Value *acc = toRunTime(site.args[1], site.argExpr(1), type);
  if (!acc)
    return SemaValue::poison();
  if (acc->type() != ir::Type::scalar(type))
    return error(site.argExpr(1), "the initial value of reduce must be " + ir::name(type) +
                                      ", the fragment's element type, not " +
                                      site.args[1].describe());
  int64_t count = size(makeLayout(fragment.type().tensorLayout().shape)).staticValue();
  for (int64_t e = 0; e < count; ++e) {
    ir::Value *element = fragmentElement(fragment, e, site.loc()).irValue();
    ir::Operation &step =
        ctx.builder->create(kind->second, site.loc(), {acc, element}, {ir::Type::scalar(type)});
    if (kind->second == ir::OpKind::MathCall)
      step.setAttr("fn", std::string(kind->first.ends_with("MAX") ? "max" : "min"));
    acc = step.result();
  }
  return SemaValue::runTime(acc);
}

// A layout function of a register fragment (logical_divide(frag, tiler),
// group_modes, ...), as CuTe applies it to a tensor: a fragment of the same
// registers whose element i is the one at logical index first + arranged(i)
// (first: where a slice starts).
SemaValue IRGenTensor::rearrangeFragment(const SemaValue &fragment, const Layout &arranged,
                                         int64_t first, llvm::SMLoc loc, llvm::SMRange range) {
  std::optional<StaticIndexer> index = StaticIndexer::of(arranged);
  if (!index)
    return error(loc,
                 "a register fragment has a compile-time shape; rearranged by " + arranged.str() +
                     " it would have a run-time one",
                 {range});
  const int64_t size = cutec::size(fragment.type().tensorLayout()).staticValue();
  std::vector<ir::Value *> elements;
  for (int64_t i = 0; i < index->size(); ++i) {
    int64_t at = first + (*index)(i);
    if (at < 0 || at >= size)
      return error(loc,
                   "the layout " + arranged.str() + " reaches element " + llvm::Twine(at) +
                       " of a register fragment of " + llvm::Twine(size) + " elements",
                   {range});
    SemaValue e = fragmentElement(fragment, at, loc);
    if (e.isPoison())
      return e;
    elements.push_back(e.irValue());
  }
  ir::Type type = ir::Type::tensor(fragment.type().element(), ir::MemorySpace::Register,
                                   makeLayout(arranged.shape));
  return SemaValue::runTime(ctx.builder->createValue(ir::OpKind::FragmentOf, loc, type, elements));
}

} // namespace cutec
