// IRGenStmt, for statements: assignment and unpacking, stores through
// subscripts, `return`, loops and conditionals, and helper calls.
//
// SSA construction: variables live in a Scope (name -> SemaValue). A run-time
// `for` carries every variable that its body reassigns and that exists
// before the loop: they become the loop's iter args, block arguments inside
// and results after it. A run-time `if` gives a result to every variable
// that either branch reassigns and that is defined on both paths. Variables
// first defined inside a loop do not outlive it. Compile-time loops
// (`unroll`, tuples) and compile-time conditions need none of this: they
// run their bodies directly in the current scope.
#include "frontend/irgen/IRGen.h"

#include "frontend/Suggestions.h"

namespace cutec {

static constexpr unsigned kMaxCallDepth = 64;

void IRGenStmt::execBlock(const ast::Block &block) { execStatements(block, 0); }

void IRGenStmt::exec(const ast::Stmt &stmt) {
  if (!step(stmt.getLoc()))
    return;
  Nested nested(*this, stmt.getLoc());
  if (!nested.ok())
    return;
  switch (stmt.getKind()) {
  case ast::NodeKind::Assign:
    return execAssign(llvm::cast<ast::AssignStmt>(stmt));
  case ast::NodeKind::AugAssign:
    return execAugAssign(llvm::cast<ast::AugAssignStmt>(stmt));
  case ast::NodeKind::ExprStmt: {
    const ast::Expr &expr = llvm::cast<ast::ExprStmt>(stmt).getExpr();
    if (!llvm::isa<ast::StringLiteralExpr>(expr)) // docstrings do nothing
      gen.exprs().eval(expr);
    return;
  }
  case ast::NodeKind::Pass:
    return;
  case ast::NodeKind::Break:
  case ast::NodeKind::Continue:
    return execExit(stmt);
  case ast::NodeKind::Return:
    return execReturn(llvm::cast<ast::ReturnStmt>(stmt));
  case ast::NodeKind::If:
    return execIf(llvm::cast<ast::IfStmt>(stmt), 0);
  case ast::NodeKind::For:
    return execFor(llvm::cast<ast::ForStmt>(stmt));
  case ast::NodeKind::While:
    return execWhile(llvm::cast<ast::WhileStmt>(stmt));
  case ast::NodeKind::FunctionDef:
    error(llvm::cast<ast::FunctionDef>(stmt).getNameRange().Start,
          "functions can only be defined at the top level");
    return;
  default:
    error(stmt, "not a statement");
  }
}

void IRGenStmt::execAssign(const ast::AssignStmt &stmt) {
  assign(stmt.getTarget(), gen.exprs().eval(stmt.getValue()), stmt.getValue());
}

void IRGenStmt::assign(const ast::Expr &target, const SemaValue &value,
                       const ast::Expr &valueExpr) {
  if (const auto *name = llvm::dyn_cast<ast::NameExpr>(&target)) {
    if (name->getName() == "_")
      return;
    // The first name a run-time value gets is its name in the printed IR.
    if (value.is(SemaValue::Kind::RunTime) && value.irValue()->nameHint().empty())
      value.irValue()->setNameHint(name->getName().str());
    (*ctx.frame->locals)[name->getName()] = value;
    return;
  }
  if (const auto *paren = llvm::dyn_cast<ast::ParenExpr>(&target))
    return assign(paren->getInner(), value, valueExpr);
  const ast::ExprList *targets = nullptr;
  if (const auto *tuple = llvm::dyn_cast<ast::TupleExpr>(&target))
    targets = &tuple->getElements();
  else if (const auto *list = llvm::dyn_cast<ast::ListExpr>(&target))
    targets = &list->getElements();
  if (targets) {
    bool unpackable =
        value.is(SemaValue::Kind::Tuple) && value.elements().size() == targets->size();
    if (!unpackable && !value.isPoison())
      error(valueExpr,
            "cannot unpack " +
                (value.is(SemaValue::Kind::Tuple)
                     ? "a tuple of " + std::to_string(value.elements().size()) + " elements"
                     : value.describe()) +
                " into " + llvm::Twine(targets->size()) + " targets");
    for (size_t i = 0; i < targets->size(); ++i)
      assign(*(*targets)[i], unpackable ? value.elements()[i] : SemaValue::poison(), valueExpr);
    return;
  }
  if (const auto *subscript = llvm::dyn_cast<ast::SubscriptExpr>(&target)) {
    SemaValue base = gen.exprs().eval(subscript->getBase());
    if (base.isPoison())
      return;
    if (!base.is(SemaValue::Kind::RunTime) || !base.type().isTensor()) {
      error(subscript->getBase(), "cannot assign to an element of " + base.describe());
      return;
    }
    const ast::NameExpr *name = nullptr;
    if (IRGenTensor::isFragment(base) &&
        !(name = gen.tensors().fragmentVariable(subscript->getBase())))
      return;
    std::vector<SemaValue> coords;
    for (const ast::ExprPtr &e : subscript->getIndices())
      coords.push_back(gen.exprs().eval(*e));
    for (const SemaValue &c : coords)
      if (c.isPoison())
        return;
    if (!gen.exprs().spreadTupleIndex(base, *subscript, coords))
      return;
    // A fragment is a value: the variable takes the one with the elements
    // replaced (docs/language.md, "Building fragments").
    if (IRGenTensor::isFragment(base)) {
      SemaValue updated = gen.tensors().assignElements(base, *subscript, coords, value, valueExpr);
      if (!updated.isPoison())
        (*ctx.frame->locals)[name->getName()] = updated;
      return;
    }
    SemaValue view = gen.tensors().sliceTensor(base, *subscript, coords);
    gen.tensors().store(value, view, valueExpr, target.getLoc());
    return;
  }
  error(target, "cannot assign to this expression");
}

void IRGenStmt::execAugAssign(const ast::AugAssignStmt &stmt) {
  const ast::Expr &target = stmt.getTarget();
  SemaValue value = gen.exprs().eval(stmt.getValue());
  BinarySite site{stmt.getOpLoc(), target, stmt.getValue()};
  if (const auto *name = llvm::dyn_cast<ast::NameExpr>(&target)) {
    assign(target, gen.exprs().binary(stmt.getOp(), gen.exprs().eval(*name), value, site),
           stmt.getValue());
    return;
  }
  // t[...] op= v: load the element, combine, store it back; a fragment's
  // element: combine, assign.
  if (const auto *subscript = llvm::dyn_cast<ast::SubscriptExpr>(&target)) {
    SemaValue view = gen.exprs().eval(*subscript);
    if (view.isPoison() || value.isPoison())
      return;
    if (IRGenTensor::isFragment(gen.exprs().eval(subscript->getBase())))
      return assign(target, gen.exprs().binary(stmt.getOp(), view, value, site), stmt.getValue());
    SemaValue current = gen.tensors().load(view, target);
    gen.tensors().store(gen.exprs().binary(stmt.getOp(), current, value, site), view,
                        stmt.getValue(), target.getLoc());
    return;
  }
  error(target, "cannot assign to this expression");
}

void IRGenStmt::execReturn(const ast::ReturnStmt &stmt) {
  if (!ctx.frame->helper && stmt.getValue()) {
    error(*stmt.getValue(), "a kernel cannot return a value");
    return;
  }
  if (ctx.frame->regionDepth > 0) {
    // A kernel's return skips the rest of it (return#, IRGenLoopExits.cpp).
    if (ctx.frame->helper)
      error(stmt, "'return' inside a run-time loop or if is supported in a kernel only, not in a "
                  "helper function");
    else
      execExit(stmt);
    return;
  }
  ctx.frame->returned = stmt.getValue() ? gen.exprs().eval(*stmt.getValue()) : SemaValue::none();
}

/// CuTe DSL's `range(n, unroll=2)` and `unroll_full=True` ask its compiler
/// to unroll a run-time loop; they change no result, and cutec leaves the
/// loop to ptxas.
static constexpr llvm::StringRef kRangeHints[] = {"unroll", "unroll_full"};

bool IRGenStmt::checkRangeHints(const CallSite &site) {
  for (const CallSite::Keyword &kw : site.keywords) {
    bool isCount = kw.name == "unroll";
    bool ok = isCount ? kw.value.is(SemaValue::Kind::Int) && kw.value.intValue().isStatic()
                      : kw.value.is(SemaValue::Kind::Bool);
    if (!ok) {
      error(*kw.expr, llvm::Twine(isCount ? "unroll= takes a compile-time integer"
                                          : "unroll_full= takes True or False") +
                          ", not " + kw.value.describe());
      return false;
    }
  }
  return true;
}

void IRGenStmt::execFor(const ast::ForStmt &loop) {
  const ast::Expr &iterable = loop.getIterable();
  const auto *call = llvm::dyn_cast<ast::CallExpr>(&iterable);
  // `range(...)`, or a module's (`cutlass.range(...)`).
  std::optional<SemaValue> builtin = call ? lookupNamed(call->getCallee()) : std::nullopt;
  if (builtin && builtin->is(SemaValue::Kind::Builtin) &&
      (builtin->name() == "range" || builtin->name() == "unroll")) {
    std::optional<CallSite> site = gen.exprs().evalCallSite(*call);
    if (!site)
      return;
    bool unroll = builtin->name() == "unroll";
    if (!checkArity(*site, builtin->name(), 1, unroll ? 1 : 3,
                    unroll ? llvm::ArrayRef<llvm::StringRef>{} : kRangeHints) ||
        !checkRangeHints(*site))
      return;
    // Inside a kernel body `range` is a run-time loop; elsewhere (the top
    // level, helpers) a range of static bounds runs at compile time.
    bool staticBounds = llvm::all_of(site->args, [](const SemaValue &v) {
      return v.is(SemaValue::Kind::Int) && v.intValue().isStatic();
    });
    if (!unroll && (ctx.frame->helper == nullptr || !staticBounds) && ctx.builder)
      return execRangeLoop(loop, *site);
    if (std::optional<std::vector<SemaValue>> values = staticRange(*site, builtin->name()))
      execUnrolled(loop, *values);
    return;
  }
  SemaValue v = gen.exprs().eval(iterable);
  if (v.isPoison())
    return;
  if (!v.is(SemaValue::Kind::Tuple)) {
    error(iterable, "cannot iterate over " + v.describe() + "; use range(n) or unroll(n)");
    return;
  }
  execUnrolled(loop, v.elements());
}

std::optional<std::vector<SemaValue>> IRGenStmt::staticRange(CallSite &site, llvm::StringRef name) {
  std::vector<int64_t> bounds;
  for (size_t i = 0; i < site.args.size(); ++i) {
    const SemaValue &v = site.args[i];
    if (!v.is(SemaValue::Kind::Int) || !v.intValue().isStatic()) {
      error(site.argExpr(i),
            name + "() needs a compile-time integer bound here, not " + v.describe());
      return std::nullopt;
    }
    bounds.push_back(v.intValue().staticValue());
  }
  int64_t lo = bounds.size() == 1 ? 0 : bounds[0];
  int64_t hi = bounds.size() == 1 ? bounds[0] : bounds[1];
  int64_t stride = bounds.size() == 3 ? bounds[2] : 1;
  if (stride == 0) {
    error(site.argExpr(2), "range() step must not be zero");
    return std::nullopt;
  }
  std::vector<SemaValue> values;
  for (int64_t i = lo; stride > 0 ? i < hi : i > hi;) {
    if (!step(site.loc()))
      return std::nullopt;
    values.push_back(SemaValue::integer(i));
    if (__builtin_add_overflow(i, stride, &i))
      break;
  }
  return values;
}

void IRGenStmt::execUnrolled(const ast::ForStmt &loop, const std::vector<SemaValue> &values) {
  // The loop variables are local to the loop: restore what they shadowed.
  std::vector<std::string> targets;
  collectAssignedNames(loop.getTarget(), targets);
  std::vector<std::optional<SemaValue>> shadowed;
  for (const std::string &name : targets) {
    auto it = ctx.frame->locals->find(name);
    shadowed.push_back(it == ctx.frame->locals->end() ? std::nullopt : std::optional(it->second));
  }
  LoopExits exits(*this);
  // An error ends the loop: each further iteration would meet it again (and
  // pay for its message) until the step budget runs out.
  unsigned errorsBefore = ctx.errorsMet;
  for (const SemaValue &v : values) {
    if (ctx.frame->returned || ctx.errorsMet != errorsBefore || !step(loop.getLoc()))
      break;
    // After a `break` under a run-time condition the remaining copies of
    // the body are guarded by it (execStatements).
    SemaValue exited = exitFlags(/*withContinue=*/false, loop.getLoc());
    if (exited.is(SemaValue::Kind::Bool) && exited.boolValue())
      break;
    exits.startIteration(/*entered=*/false);
    assign(loop.getTarget(), v, loop.getIterable());
    execBlock(loop.getBody());
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    if (shadowed[i])
      (*ctx.frame->locals)[targets[i]] = *shadowed[i];
    else
      ctx.frame->locals->erase(targets[i]);
  }
}

void IRGenStmt::execRangeLoop(const ast::ForStmt &loop, CallSite &range) {
  const auto *target = llvm::dyn_cast<ast::NameExpr>(&loop.getTarget());
  if (!target) {
    error(loop.getTarget(), "the variable of a run-time loop must be a name");
    return;
  }
  const std::vector<SemaValue> &a = range.args;
  llvm::SMLoc loc = loop.getLoc();
  ir::Value *lo = a.size() == 1 ? ctx.builder->constantInt(loc, ir::DataType::I32, 0)
                                : toIndex(a[0], range.argExpr(0), "a loop bound");
  ir::Value *hi =
      toIndex(a[a.size() == 1 ? 0 : 1], range.argExpr(a.size() == 1 ? 0 : 1), "a loop bound");
  ir::Value *stride = a.size() == 3 ? toIndex(a[2], range.argExpr(2), "a loop step")
                                    : ctx.builder->constantInt(loc, ir::DataType::I32, 1);
  if (a.size() == 3 && a[2].is(SemaValue::Kind::Int) && a[2].intValue().isConstant(0)) {
    error(range.argExpr(2), "range() step must not be zero");
    return;
  }
  if (!lo || !hi || !stride)
    return;

  LoopExits exits(*this);
  ChangedNames changed;
  collectChanged(loop.getBody(), changed);
  std::vector<ir::Value *> operands{lo, hi, stride};
  std::vector<CarriedVariable> carried = carryIntoLoop(changed, target->getName(), loc, operands);

  ir::Operation &op = ctx.builder->create(ir::OpKind::For, loc, operands, carriedTypes(carried));
  op.set(ir::attr::unroll, false);
  ir::Block &body = op.addRegion().addBlock();
  Scope before = *ctx.frame->locals;
  (*ctx.frame->locals)[target->getName()] =
      SemaValue::runTime(body.addArgument(ir::Type::scalar(ir::DataType::I32), target->getName()));
  std::vector<ir::Value *> args = bindCarried(carried, body);

  ir::Builder inner(body);
  ir::Builder *outer = ctx.builder;
  ctx.builder = &inner;
  ++ctx.frame->regionDepth;
  exits.startIteration(/*entered=*/false);
  execBlock(loop.getBody());
  std::vector<bool> broken;
  std::vector<ir::Value *> yielded =
      carriedOut(carried, args, loc, {"before the loop", "at the end of its body"}, broken);
  inner.create(ir::OpKind::Yield, loc, yielded);
  --ctx.frame->regionDepth;
  ctx.builder = outer;

  *ctx.frame->locals = std::move(before);
  std::vector<ir::Value *> results;
  for (const auto &r : op.results())
    results.push_back(r.get());
  bindCarriedResults(carried, results, broken);
}

void IRGenStmt::execWhile(const ast::WhileStmt &loop) {
  // At the top level the loop runs at compile time. A helper's loop does
  // when its condition is a compile-time bool, as it would be in Python; a
  // kernel's loop is always a run-time loop, like its `range` loops.
  if (!ctx.builder)
    return execWhileAtCompileTime(loop);
  if (!ctx.frame->helper)
    return execWhileLoop(loop);
  std::optional<bool> compileTime = whileConditionIsCompileTime(loop);
  if (!compileTime)
    return;
  if (*compileTime)
    return execWhileAtCompileTime(loop);
  execWhileLoop(loop);
}

// Evaluates the condition aside (into a scratch block, on a copy of the
// variables) to see whether it is known at compile time.
std::optional<bool> IRGenStmt::whileConditionIsCompileTime(const ast::WhileStmt &loop) {
  ir::Block scratch;
  ir::Builder aside(scratch);
  ir::Builder *outer = ctx.builder;
  ctx.builder = &aside;
  Scope variables = *ctx.frame->locals;
  SemaValue condition = gen.exprs().eval(loop.getCondition());
  *ctx.frame->locals = std::move(variables);
  ctx.builder = outer;
  if (condition.isPoison())
    return std::nullopt;
  return !condition.is(SemaValue::Kind::RunTime);
}

void IRGenStmt::execWhileAtCompileTime(const ast::WhileStmt &loop) {
  const ast::Expr &expr = loop.getCondition();
  LoopExits exits(*this);
  // An error ends the loop, as in execUnrolled.
  unsigned errorsBefore = ctx.errorsMet;
  while (!ctx.frame->returned && ctx.errorsMet == errorsBefore && step(loop.getLoc())) {
    exits.startIteration(/*entered=*/false);
    SemaValue condition = loopCondition(expr);
    if (condition.isPoison())
      return;
    if (condition.is(SemaValue::Kind::RunTime) && condition.type().isScalar() &&
        condition.type().element() == ir::DataType::Bool) {
      error(expr, "this loop started at compile time (its condition was a compile-time bool), "
                  "but now its condition is a run-time bool; give the loop's variables run-time "
                  "values before it (such as i32(0)) to make it a run-time loop");
      return;
    }
    if (!condition.is(SemaValue::Kind::Bool)) {
      error(expr, "the condition must be a bool, not " + condition.describe());
      return;
    }
    if (!condition.boolValue())
      return;
    execBlock(loop.getBody());
  }
}

// The condition as the loop's run-time bool: a compile-time False is the
// constant false (the body never runs); True is an error, since a kernel's
// loop can only end by its condition.
ir::Value *IRGenStmt::whileCondition(const SemaValue &condition, const ast::Expr &expr) {
  if (condition.isPoison())
    return nullptr;
  if (condition.is(SemaValue::Kind::RunTime) && condition.type().isScalar() &&
      condition.type().element() == ir::DataType::Bool)
    return condition.irValue();
  if (condition.is(SemaValue::Kind::Bool) && !condition.boolValue())
    return toRunTime(condition, expr);
  if (condition.is(SemaValue::Kind::Bool))
    error(expr, "this condition is always True and nothing in the loop breaks out of it, so the "
                "loop would never end; a loop in a kernel needs a run-time condition or a "
                "'break'");
  else
    error(expr, "the condition must be a bool, not " + condition.describe());
  return nullptr;
}

void IRGenStmt::execWhileLoop(const ast::WhileStmt &loop) {
  llvm::SMLoc loc = loop.getLoc();
  LoopExits exits(*this);
  ChangedNames changed;
  collectReceivers(loop.getCondition(), changed.receivers);
  collectChanged(loop.getBody(), changed);
  std::vector<ir::Value *> inits;
  std::vector<CarriedVariable> carried = carryIntoLoop(changed, "", loc, inits);
  std::vector<ir::Type> types = carriedTypes(carried);
  ir::Operation &op = ctx.builder->create(ir::OpKind::While, loc, inits, types);
  Scope before = *ctx.frame->locals;
  ir::Builder *outer = ctx.builder;
  ++ctx.frame->regionDepth;

  // The before region evaluates the condition on the carried values and
  // forwards them (as the condition's methods may have changed them).
  ir::Block &head = op.addRegion().addBlock();
  std::vector<ir::Value *> headArgs = bindCarried(carried, head);
  ir::Builder headBuilder(head);
  ctx.builder = &headBuilder;
  SemaValue value = loopCondition(loop.getCondition());
  ir::Value *condition = whileCondition(value, loop.getCondition());
  std::vector<bool> broken, bodyBroken;
  std::vector<ir::Value *> forwarded =
      carriedOut(carried, headArgs, loc, {"before the loop", "after its condition"}, broken);
  if (!condition) // after an error: keep the IR well formed
    condition = toRunTime(SemaValue::boolean(false), loc, llvm::SMRange());
  std::vector<ir::Value *> operands{condition};
  operands.insert(operands.end(), forwarded.begin(), forwarded.end());
  headBuilder.create(ir::OpKind::Condition, loc, operands);

  ir::Block &body = op.addRegion().addBlock();
  std::vector<ir::Value *> bodyArgs = bindCarried(carried, body);
  ir::Builder bodyBuilder(body);
  ctx.builder = &bodyBuilder;
  exits.startIteration(/*entered=*/true);
  if (!value.is(SemaValue::Kind::Bool))
    execBlock(loop.getBody());
  std::vector<ir::Value *> yielded =
      carriedOut(carried, bodyArgs, loc, {"before the loop", "at the end of its body"}, bodyBroken);
  bodyBuilder.create(ir::OpKind::Yield, loc, yielded);
  --ctx.frame->regionDepth;
  ctx.builder = outer;

  *ctx.frame->locals = std::move(before);
  std::vector<ir::Value *> results;
  for (const auto &r : op.results())
    results.push_back(r.get());
  for (size_t i = 0; i < broken.size(); ++i)
    broken[i] = broken[i] || bodyBroken[i];
  bindCarriedResults(carried, results, broken);
}

void IRGenStmt::execIf(const ast::IfStmt &stmt, size_t clause) {
  // Compile-time conditions select a branch without any IR.
  for (; clause < stmt.getClauses().size(); ++clause) {
    const ast::IfClause &c = stmt.getClauses()[clause];
    SemaValue cond = gen.exprs().eval(*c.condition);
    if (cond.isPoison())
      return;
    if (cond.is(SemaValue::Kind::RunTime) && cond.type() == ir::Type::scalar(ir::DataType::Bool))
      return execIfRegion(stmt, clause, cond.irValue());
    if (!cond.is(SemaValue::Kind::Bool)) {
      error(*c.condition, "the condition must be a bool, not " + cond.describe());
      return;
    }
    if (cond.boolValue())
      return execBlock(c.body);
  }
  execBlock(stmt.getElseBody());
}

void IRGenStmt::execIfRegion(const ast::IfStmt &stmt, size_t clause, ir::Value *condition) {
  llvm::SMLoc loc = stmt.getClauses()[clause].keywordLoc;
  Nested nested(*this, loc);
  if (!nested.ok())
    return;
  bool hasElse = clause + 1 < stmt.getClauses().size() || stmt.hasElse();
  ChangedNames changed;
  collectChanged(stmt.getClauses()[clause].body, changed);
  for (size_t i = clause + 1; i < stmt.getClauses().size(); ++i) {
    collectReceivers(*stmt.getClauses()[i].condition, changed.receivers);
    collectChanged(stmt.getClauses()[i].body, changed);
  }
  collectChanged(stmt.getElseBody(), changed);
  // Names whose methods a branch calls merge like assigned ones: when the
  // method left its object as it was, both paths hold the same value.
  std::vector<std::string> names = changed.all();

  runTimeIf(condition, loc, names, [&] { execBlock(stmt.getClauses()[clause].body); },
            hasElse ? llvm::function_ref<void()>([&] { execIf(stmt, clause + 1); }) : nullptr);
}

void IRGenStmt::runTimeIf(ir::Value *condition, llvm::SMLoc loc,
                          const std::vector<std::string> &names,
                          llvm::function_ref<void()> thenBody,
                          llvm::function_ref<void()> elseBody) {
  ir::Operation &op = ctx.builder->create(ir::OpKind::If, loc, {condition});
  ir::Builder *outer = ctx.builder;
  Scope before = *ctx.frame->locals;
  ++ctx.frame->regionDepth;
  ir::Builder thenBuilder(op.addRegion().addBlock());
  ctx.builder = &thenBuilder;
  thenBody();
  Scope thenScope = std::move(*ctx.frame->locals);
  *ctx.frame->locals = before;
  // Variables merge at the end of both branches; the else region exists
  // when the source has one or when a merged variable needs it.
  std::optional<ir::Builder> elseBuilder;
  if (elseBody) {
    elseBuilder.emplace(op.addRegion().addBlock());
    ctx.builder = &*elseBuilder;
    elseBody();
  }
  Scope elseScope = std::move(*ctx.frame->locals);
  --ctx.frame->regionDepth;

  ctx.builder = outer;
  *ctx.frame->locals = std::move(before);
  BranchMerge merge;
  merge.thenBuilder = &thenBuilder;
  merge.elseBuilder = [&]() -> ir::Builder & {
    if (!elseBuilder)
      elseBuilder.emplace(op.addRegion().addBlock());
    return *elseBuilder;
  };
  for (const std::string &name : names) {
    auto t = thenScope.find(name), e = elseScope.find(name);
    if (t == thenScope.end() || e == elseScope.end())
      ctx.frame->locals->erase(name); // defined on one path only
    else if (!mergeBranches(name, t->second, e->second, loc, merge))
      (*ctx.frame->locals)[name] = SemaValue::poison();
  }
  thenBuilder.create(ir::OpKind::Yield, loc, merge.thenValues);
  if (elseBuilder)
    elseBuilder->create(ir::OpKind::Yield, loc, merge.elseValues);
  bindMerged(merge, op);
}

SemaValue IRGenStmt::callHelper(const ast::FunctionDef &def, CallSite &site) {
  llvm::StringRef name = def.getName();
  if (ctx.callDepth >= kMaxCallDepth)
    return error(site.loc(),
                 "too many nested helper calls (the limit is " + llvm::Twine(kMaxCallDepth) +
                     "): does '" + name + "' call itself without end?",
                 {site.range()});
  const ast::ParamList &params = def.getParams();
  if (site.args.size() > params.size())
    return error(site.loc(),
                 "wrong number of arguments: '" + name + "' takes " + llvm::Twine(params.size()) +
                     " arguments, got " + llvm::Twine(site.args.size()),
                 {site.range()});
  Scope locals;
  for (size_t i = 0; i < site.args.size(); ++i)
    locals[params[i]->getName()] = site.args[i];
  for (const CallSite::Keyword &kw : site.keywords) {
    auto param = llvm::find_if(params, [&](const auto &p) { return p->getName() == kw.name; });
    if (param == params.end()) {
      std::vector<llvm::StringRef> names;
      for (const auto &p : params)
        names.push_back(p->getName());
      return error(kw.nameRange.Start,
                   "'" + name + "' has no parameter named '" + kw.name + "'" +
                       didYouMean(kw.name, names),
                   {kw.nameRange});
    }
    if (!locals.try_emplace(kw.name, kw.value).second)
      return error(kw.nameRange.Start,
                   "argument '" + kw.name + "' of '" + name + "' is given twice", {kw.nameRange});
  }
  const std::vector<std::optional<SemaValue>> &defaults = ctx.helperDefaults[&def];
  for (size_t i = 0; i < params.size(); ++i) {
    if (locals.count(params[i]->getName()))
      continue;
    if (i >= defaults.size() || !defaults[i])
      return error(site.loc(),
                   "missing argument '" + params[i]->getName() + "' in the call to '" + name + "'",
                   {site.range()});
    locals[params[i]->getName()] = *defaults[i];
  }
  Frame helperFrame{&locals};
  helperFrame.helper = &def;
  Frame *caller = ctx.frame;
  ctx.frame = &helperFrame;
  ++ctx.callDepth;
  execBlock(def.getBody());
  --ctx.callDepth;
  ctx.frame = caller;
  return helperFrame.returned.value_or(SemaValue::none());
}

} // namespace cutec
