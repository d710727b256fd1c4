// IRGenStmt: variables carried through run-time regions (SSA construction).
//
// A run-time loop carries every variable that its body may change and that
// exists before it: what the body assigns, and the objects it calls
// changing methods on (UPDATING_METHOD rows of Builtins.def, such as
// `state.advance()`; `barrier.arrive()` leaves its object as it was). A run-time
// `if` merges the variables that its branches change. A variable's value is
// a tree whose inner nodes are tuples and built-in objects. A leaf that is a
// number or a run-time scalar, and a variable that is a tensor as a whole,
// may change at run time: each becomes one argument and one result of the
// region (Int -> i32, Float -> f32, Bool -> bool). Every other leaf (a
// layout, an element type, a string, a tensor inside a tuple, an object's
// private `_` fields, which hold its compile-time configuration) must be the
// same on every path. After the region the value is rebuilt with the same
// structure, its changing leaves replaced by the region's results.
#include "frontend/Builtins.h"
#include "frontend/irgen/IRGen.h"

namespace cutec {

namespace {

using Kind = SemaValue::Kind;

/// One leaf of a variable's value, with its place in messages ("t[1]",
/// "state.index") and whether it may change at run time.
struct Leaf {
  SemaValue value;
  std::string path;
  bool changes;
  /// Where it is: the variable itself, inside a tuple or object, or an
  /// object's private field (its compile-time configuration).
  enum Place { Whole, Inside, Configuration } place;
};

/// Whether `v` is one scalar: a compile-time number or bool, or a run-time
/// scalar.
bool isScalarLeaf(const SemaValue &v) {
  return v.is(Kind::Int) || v.is(Kind::Float) || v.is(Kind::Bool) ||
         (v.is(Kind::RunTime) && v.type().isScalar());
}

bool isPrivateField(llvm::StringRef field) { return field.starts_with("_"); }

/// The leaves of `v` in order; `whole` when `v` is the variable itself.
void flatten(const SemaValue &v, const std::string &path, bool whole, std::vector<Leaf> &out) {
  if (v.is(Kind::Tuple)) {
    for (size_t i = 0; i < v.elements().size(); ++i)
      flatten(v.elements()[i], path + "[" + std::to_string(i) + "]", false, out);
    return;
  }
  if (v.is(Kind::Object)) {
    for (size_t i = 0; i < v.fieldNames().size(); ++i) {
      const std::string &field = v.fieldNames()[i];
      if (isPrivateField(field))
        out.push_back({v.elements()[i], path + "." + field, false, Leaf::Configuration});
      else
        flatten(v.elements()[i], path + "." + field, false, out);
    }
    return;
  }
  bool tensor = v.is(Kind::RunTime) && v.type().isTensor();
  out.push_back({v, path, isScalarLeaf(v) || (whole && tensor), whole ? Leaf::Whole : Leaf::Inside});
}

std::vector<Leaf> leavesOf(const SemaValue &v, llvm::StringRef name) {
  std::vector<Leaf> leaves;
  flatten(v, name.str(), true, leaves);
  return leaves;
}

/// `shape` with its leaves replaced, in order, by `leaves[next...]`.
SemaValue rebuild(const SemaValue &shape, llvm::ArrayRef<SemaValue> leaves, size_t &next) {
  if (shape.is(Kind::Tuple)) {
    std::vector<SemaValue> elements;
    for (const SemaValue &e : shape.elements())
      elements.push_back(rebuild(e, leaves, next));
    return SemaValue::tuple(std::move(elements));
  }
  if (shape.is(Kind::Object)) {
    std::vector<SemaValue> fields;
    for (size_t i = 0; i < shape.fieldNames().size(); ++i)
      fields.push_back(isPrivateField(shape.fieldNames()[i])
                           ? leaves[next++]
                           : rebuild(shape.elements()[i], leaves, next));
    return SemaValue::object(shape.className(), shape.fieldNames(), std::move(fields));
  }
  return leaves[next++];
}

/// A value's outline for messages about structure: "a tuple of 2 elements".
std::string outline(const SemaValue &v) {
  if (v.is(Kind::Tuple))
    return "a tuple of " + std::to_string(v.elements().size()) + " elements";
  return v.describe();
}

/// Where `a` and `b` first differ in structure (tuple sizes, object classes,
/// a tuple where the other has a leaf), or nullopt when their leaves line up.
struct Mismatch {
  std::string path;
  SemaValue a, b;
};
std::optional<Mismatch> structureMismatch(const SemaValue &a, const SemaValue &b,
                                          const std::string &path) {
  bool aCompound = a.is(Kind::Tuple) || a.is(Kind::Object);
  bool bCompound = b.is(Kind::Tuple) || b.is(Kind::Object);
  if (!aCompound && !bCompound)
    return std::nullopt;
  if (a.kind() != b.kind() || a.elements().size() != b.elements().size() ||
      (a.is(Kind::Object) && (a.className() != b.className() || a.fieldNames() != b.fieldNames())))
    return Mismatch{path, a, b};
  for (size_t i = 0; i < a.elements().size(); ++i) {
    bool tuple = a.is(Kind::Tuple);
    if (!tuple && isPrivateField(a.fieldNames()[i]))
      continue; // compared as one leaf
    std::string place =
        tuple ? path + "[" + std::to_string(i) + "]" : path + "." + a.fieldNames()[i];
    if (auto m = structureMismatch(a.elements()[i], b.elements()[i], place))
      return m;
  }
  return std::nullopt;
}

/// The name a region argument or result gets in the printed IR: the
/// variable's, or "state.index" / "t.1" for a leaf inside it.
std::string valueName(llvm::StringRef path) {
  std::string name;
  for (char c : path)
    if (c != ']')
      name += c == '[' ? '.' : c;
  return name;
}

void addName(llvm::StringRef name, std::vector<std::string> &names) {
  if (!llvm::is_contained(names, name))
    names.push_back(name.str());
}

} // namespace

void collectAssignedNames(const ast::Expr &target, std::vector<std::string> &names) {
  if (const auto *name = llvm::dyn_cast<ast::NameExpr>(&target)) {
    if (name->getName() != "_")
      addName(name->getName(), names);
  } else if (const auto *paren = llvm::dyn_cast<ast::ParenExpr>(&target)) {
    collectAssignedNames(paren->getInner(), names);
  } else if (const auto *tuple = llvm::dyn_cast<ast::TupleExpr>(&target)) {
    for (const ast::ExprPtr &e : tuple->getElements())
      collectAssignedNames(*e, names);
  } else if (const auto *list = llvm::dyn_cast<ast::ListExpr>(&target)) {
    for (const ast::ExprPtr &e : list->getElements())
      collectAssignedNames(*e, names);
  }
}

void collectReceivers(const ast::Expr &expr, std::vector<std::string> &names) {
  auto each = [&](const ast::ExprList &list) {
    for (const ast::ExprPtr &e : list)
      collectReceivers(*e, names);
  };
  switch (expr.getKind()) {
  case ast::NodeKind::Paren:
    return collectReceivers(llvm::cast<ast::ParenExpr>(expr).getInner(), names);
  case ast::NodeKind::Tuple:
    return each(llvm::cast<ast::TupleExpr>(expr).getElements());
  case ast::NodeKind::List:
    return each(llvm::cast<ast::ListExpr>(expr).getElements());
  case ast::NodeKind::Unary:
    return collectReceivers(llvm::cast<ast::UnaryExpr>(expr).getOperand(), names);
  case ast::NodeKind::Binary: {
    const auto &binary = llvm::cast<ast::BinaryExpr>(expr);
    collectReceivers(binary.getLHS(), names);
    return collectReceivers(binary.getRHS(), names);
  }
  case ast::NodeKind::Layout: {
    const auto &layout = llvm::cast<ast::LayoutExpr>(expr);
    collectReceivers(layout.getShape(), names);
    return collectReceivers(layout.getStride(), names);
  }
  case ast::NodeKind::Call: {
    const auto &call = llvm::cast<ast::CallExpr>(expr);
    if (const auto *method = llvm::dyn_cast<ast::AttributeExpr>(&call.getCallee()))
      if (const auto *name = llvm::dyn_cast<ast::NameExpr>(&method->getBase()))
        if (isUpdatingMethodName(method->getName()) || method->getName() == "fill" ||
            method->getName() == "store")
          addName(name->getName(), names);
    collectReceivers(call.getCallee(), names);
    each(call.getArgs());
    for (const ast::KeywordArg &kw : call.getKeywords())
      collectReceivers(*kw.value, names);
    return;
  }
  case ast::NodeKind::Subscript: {
    const auto &subscript = llvm::cast<ast::SubscriptExpr>(expr);
    collectReceivers(subscript.getBase(), names);
    return each(subscript.getIndices());
  }
  case ast::NodeKind::Attribute:
    return collectReceivers(llvm::cast<ast::AttributeExpr>(expr).getBase(), names);
  default:
    return;
  }
}

void collectChanged(const ast::Block &block, ChangedNames &changed) {
  for (const ast::StmtPtr &stmt : block)
    collectChanged(*stmt, changed);
}

/// What a loop's body changes, as seen from outside the loop: its `break`
/// and `continue` are its own.
static void collectChangedByLoop(const ast::Block &body, ChangedNames &changed) {
  ChangedNames inner;
  collectChanged(body, inner);
  for (std::string &name : inner.assigned)
    if (name != exitFlagName(ast::NodeKind::Break) &&
        name != exitFlagName(ast::NodeKind::Continue))
      addName(name, changed.assigned);
  for (std::string &name : inner.receivers)
    addName(name, changed.receivers);
}

/// `frag[c] = v` changes `frag` when it is a register fragment, as its
/// updating methods do (a view in memory stays as it is).
static void collectElementTarget(const ast::Expr &target, std::vector<std::string> &receivers) {
  if (const auto *subscript = llvm::dyn_cast<ast::SubscriptExpr>(&target))
    if (const auto *name = llvm::dyn_cast<ast::NameExpr>(&subscript->getBase()))
      addName(name->getName(), receivers);
}

void collectChanged(const ast::Stmt &stmt, ChangedNames &changed) {
  if (const auto *assign = llvm::dyn_cast<ast::AssignStmt>(&stmt)) {
    collectAssignedNames(assign->getTarget(), changed.assigned);
    collectElementTarget(assign->getTarget(), changed.receivers);
    collectReceivers(assign->getTarget(), changed.receivers);
    collectReceivers(assign->getValue(), changed.receivers);
  } else if (const auto *aug = llvm::dyn_cast<ast::AugAssignStmt>(&stmt)) {
    collectAssignedNames(aug->getTarget(), changed.assigned);
    collectElementTarget(aug->getTarget(), changed.receivers);
    collectReceivers(aug->getTarget(), changed.receivers);
    collectReceivers(aug->getValue(), changed.receivers);
  } else if (const auto *expr = llvm::dyn_cast<ast::ExprStmt>(&stmt)) {
    collectReceivers(expr->getExpr(), changed.receivers);
    // copy(atom, src, frag) gives the fragment's variable a new value.
    if (const auto *call = llvm::dyn_cast<ast::CallExpr>(&expr->getExpr()))
      if (const auto *callee = llvm::dyn_cast<ast::NameExpr>(&call->getCallee());
          callee && callee->getName() == "copy" && call->getArgs().size() >= 3)
        if (const auto *dst = llvm::dyn_cast<ast::NameExpr>(call->getArgs()[2].get()))
          addName(dst->getName(), changed.assigned);
  } else if (const auto *ret = llvm::dyn_cast<ast::ReturnStmt>(&stmt)) {
    addName(exitFlagName(ast::NodeKind::Return), changed.assigned);
    if (ret->getValue())
      collectReceivers(*ret->getValue(), changed.receivers);
  } else if (llvm::isa<ast::BreakStmt, ast::ContinueStmt>(stmt)) {
    addName(exitFlagName(stmt.getKind()), changed.assigned);
  } else if (const auto *loop = llvm::dyn_cast<ast::ForStmt>(&stmt)) {
    collectReceivers(loop->getIterable(), changed.receivers);
    collectChangedByLoop(loop->getBody(), changed);
  } else if (const auto *loop = llvm::dyn_cast<ast::WhileStmt>(&stmt)) {
    collectReceivers(loop->getCondition(), changed.receivers);
    collectChangedByLoop(loop->getBody(), changed);
  } else if (const auto *cond = llvm::dyn_cast<ast::IfStmt>(&stmt)) {
    for (const ast::IfClause &clause : cond->getClauses()) {
      collectReceivers(*clause.condition, changed.receivers);
      collectChanged(clause.body, changed);
    }
    collectChanged(cond->getElseBody(), changed);
  }
}

std::vector<std::string> ChangedNames::all() const {
  std::vector<std::string> names = assigned;
  for (const std::string &name : receivers)
    if (!llvm::is_contained(names, name))
      names.push_back(name);
  return names;
}

std::optional<ir::Type> IRGenStmt::carriedType(const SemaValue &v) {
  switch (v.kind()) {
  case Kind::RunTime:
    return v.type();
  case Kind::Int:
    return ir::Type::scalar(ir::DataType::I32);
  case Kind::Float:
    return ir::Type::scalar(ir::DataType::F32);
  case Kind::Bool:
    return ir::Type::scalar(ir::DataType::Bool);
  default:
    return std::nullopt;
  }
}

ir::Value *IRGenStmt::carriedValue(const SemaValue &v, const ir::Type &type, llvm::StringRef path,
                                   llvm::SMLoc loc, Paths paths) {
  if (v.isPoison())
    return nullptr;
  if (v.is(Kind::RunTime) && v.type() == type)
    return v.irValue();
  // A compile-time number adopts the type: an integer any number type, a
  // float a float type, a bool only bool.
  bool adopts = type.isScalar() && ((v.is(Kind::Int) && type.element() != ir::DataType::Bool) ||
                                    (v.is(Kind::Float) && ir::isFloat(type.element())) ||
                                    (v.is(Kind::Bool) && type.element() == ir::DataType::Bool));
  if (adopts)
    return toRunTime(v, loc, llvm::SMRange(), type.element());
  std::string now = v.is(Kind::RunTime) ? v.type().str() : outline(v);
  error(loc, "'" + path + "' is " + type.str() + " " + paths.first + " but " + now + " " +
                 paths.second + "; give it one type (with .to(...))");
  return nullptr;
}

/// Why a leaf that cannot change at run time must not differ between
/// `paths`.
static std::string cannotChange(const Leaf &a, const SemaValue &b,
                                std::pair<const char *, const char *> paths) {
  const char *why[] = {"(only numbers, tensors, and the numbers inside tuples and objects can)",
                       "(inside a tuple or object, only numbers can)",
                       "(an object's private fields are its compile-time configuration)"};
  return "'" + a.path + "' is " + outline(a.value) + " " + paths.first + " but " + outline(b) +
         " " + paths.second + ", which cannot change at run time " + why[a.place];
}

static std::string structureChanges(const Mismatch &m,
                                    std::pair<const char *, const char *> paths) {
  return "'" + m.path + "' is " + outline(m.a) + " " + paths.first + " but " + outline(m.b) + " " +
         paths.second +
         "; a variable keeps its structure (tuple sizes, object classes) "
         "through a run-time loop or if";
}

std::optional<IRGenStmt::CarriedVariable>
IRGenStmt::startCarrying(llvm::StringRef name, const SemaValue &entry, llvm::SMLoc loc,
                         std::vector<ir::Value *> &inits) {
  CarriedVariable var{name.str(), entry, {}};
  std::vector<ir::Value *> values;
  for (const Leaf &leaf : leavesOf(entry, name)) {
    if (leaf.value.isPoison())
      return std::nullopt;
    if (!leaf.changes)
      continue;
    ir::Type type = *carriedType(leaf.value);
    ir::Value *init = carriedValue(leaf.value, type, leaf.path, loc, {"", ""});
    if (!init)
      return std::nullopt;
    var.types.push_back(type);
    values.push_back(init);
  }
  inits.insert(inits.end(), values.begin(), values.end());
  return var;
}

std::vector<IRGenStmt::CarriedVariable> IRGenStmt::carryIntoLoop(const ChangedNames &changed,
                                                                 llvm::StringRef loopVariable,
                                                                 llvm::SMLoc loc,
                                                                 std::vector<ir::Value *> &inits) {
  std::vector<CarriedVariable> carried;
  auto carry = [&](const std::string &name, bool onlyObjects) {
    auto it = ctx.frame->locals->find(name);
    if (name == loopVariable || it == ctx.frame->locals->end() ||
        llvm::any_of(carried, [&](const CarriedVariable &v) { return v.name == name; }))
      return;
    // A method called on a tensor in memory (`gC.store(v)`) leaves it as
    // it is; a register fragment's fill and element assignments do not.
    if (onlyObjects && !it->second.is(Kind::Object) && !IRGenTensor::isFragment(it->second))
      return;
    if (std::optional<CarriedVariable> var = startCarrying(name, it->second, loc, inits))
      carried.push_back(std::move(*var));
    else
      it->second = SemaValue::poison();
  };
  for (const std::string &name : changed.assigned)
    carry(name, false);
  for (const std::string &name : changed.receivers)
    carry(name, true);
  return carried;
}

std::vector<ir::Type> IRGenStmt::carriedTypes(llvm::ArrayRef<CarriedVariable> carried) {
  std::vector<ir::Type> types;
  for (const CarriedVariable &var : carried)
    types.insert(types.end(), var.types.begin(), var.types.end());
  return types;
}

std::vector<ir::Value *> IRGenStmt::bindCarried(llvm::ArrayRef<CarriedVariable> carried,
                                                ir::Block &block) {
  std::vector<ir::Value *> args;
  for (const CarriedVariable &var : carried) {
    std::vector<SemaValue> leaves;
    size_t next = 0;
    for (const Leaf &leaf : leavesOf(var.entry, var.name)) {
      if (!leaf.changes) {
        leaves.push_back(leaf.value);
        continue;
      }
      ir::Value *arg = block.addArgument(var.types[next++], valueName(leaf.path));
      args.push_back(arg);
      leaves.push_back(SemaValue::runTime(arg));
    }
    size_t at = 0;
    (*ctx.frame->locals)[var.name] = rebuild(var.entry, leaves, at);
  }
  return args;
}

std::vector<ir::Value *> IRGenStmt::carriedOut(llvm::ArrayRef<CarriedVariable> carried,
                                               llvm::ArrayRef<ir::Value *> fallback,
                                               llvm::SMLoc loc, Paths paths,
                                               std::vector<bool> &broken) {
  std::vector<ir::Value *> out;
  broken.clear();
  for (const CarriedVariable &var : carried) {
    size_t first = out.size();
    auto give = [&] { // the variable's values did not fit: keep the IR valid
      out.resize(first);
      for (size_t i = 0; i < var.types.size(); ++i)
        out.push_back(fallback[first + i]);
      broken.push_back(true);
    };
    const SemaValue &now = (*ctx.frame->locals)[var.name];
    if (now.isPoison()) {
      give();
      continue;
    }
    if (std::optional<Mismatch> m = structureMismatch(var.entry, now, var.name)) {
      error(loc, structureChanges(*m, paths));
      give();
      continue;
    }
    std::vector<Leaf> before = leavesOf(var.entry, var.name), after = leavesOf(now, var.name);
    bool ok = true;
    size_t next = 0;
    for (size_t i = 0; i < before.size() && ok; ++i) {
      if (!before[i].changes) {
        ok = before[i].value.sameAs(after[i].value);
        if (!ok)
          error(loc, cannotChange(before[i], after[i].value, paths));
        continue;
      }
      ir::Value *v = carriedValue(after[i].value, var.types[next++], after[i].path, loc, paths);
      ok = v != nullptr;
      out.push_back(v);
    }
    if (ok)
      broken.push_back(false);
    else
      give();
  }
  return out;
}

void IRGenStmt::bindCarriedResults(llvm::ArrayRef<CarriedVariable> carried,
                                   llvm::ArrayRef<ir::Value *> results,
                                   const std::vector<bool> &broken) {
  size_t next = 0;
  for (size_t v = 0; v < carried.size(); ++v) {
    const CarriedVariable &var = carried[v];
    std::vector<SemaValue> leaves;
    for (const Leaf &leaf : leavesOf(var.entry, var.name)) {
      if (!leaf.changes) {
        leaves.push_back(leaf.value);
        continue;
      }
      ir::Value *result = results[next++];
      result->setNameHint(valueName(leaf.path));
      leaves.push_back(SemaValue::runTime(result));
    }
    size_t at = 0;
    (*ctx.frame->locals)[var.name] =
        broken[v] ? SemaValue::poison() : rebuild(var.entry, leaves, at);
  }
}

bool IRGenStmt::mergeBranches(llvm::StringRef name, const SemaValue &thenValue,
                              const SemaValue &elseValue, llvm::SMLoc loc, BranchMerge &merge) {
  Paths paths{"in one branch", "in the other"};
  BranchMerge::Variable var{name.str(), thenValue, {}, {}};
  if (std::optional<Mismatch> m = structureMismatch(thenValue, elseValue, var.name)) {
    error(loc, structureChanges(*m, paths));
    return false;
  }
  std::vector<Leaf> thenLeaves = leavesOf(thenValue, name), elseLeaves = leavesOf(elseValue, name);
  for (size_t i = 0; i < thenLeaves.size(); ++i) {
    const Leaf &t = thenLeaves[i], &e = elseLeaves[i];
    var.leaves.push_back(t.value);
    if (t.value.sameAs(e.value))
      continue;
    if (!t.changes || !e.changes) {
      // Named by the leaf that cannot change ("one branch" and "the other"
      // read the same either way round).
      error(loc, t.changes ? cannotChange(e, t.value, paths) : cannotChange(t, e.value, paths));
      return false;
    }
    ir::Type type = *carriedType(t.value.is(Kind::RunTime) ? t.value : e.value);
    ir::Builder *outer = ctx.builder;
    ctx.builder = merge.thenBuilder;
    ir::Value *tv = carriedValue(t.value, type, t.path, loc, paths);
    ctx.builder = &merge.elseBuilder();
    ir::Value *ev = carriedValue(e.value, type, e.path, loc, paths);
    ctx.builder = outer;
    if (!tv || !ev)
      return false;
    var.results.push_back({i, merge.types.size()});
    merge.thenValues.push_back(tv);
    merge.elseValues.push_back(ev);
    merge.types.push_back(type);
    merge.resultNames.push_back(valueName(t.path));
  }
  merge.variables.push_back(std::move(var));
  return true;
}

void IRGenStmt::bindMerged(const BranchMerge &merge, ir::Operation &op) {
  std::vector<ir::Value *> results;
  for (size_t i = 0; i < merge.types.size(); ++i) {
    results.push_back(op.addResult(merge.types[i]));
    results.back()->setNameHint(merge.resultNames[i]);
  }
  for (const BranchMerge::Variable &var : merge.variables) {
    std::vector<SemaValue> leaves = var.leaves;
    for (auto [leaf, result] : var.results)
      leaves[leaf] = SemaValue::runTime(results[result]);
    size_t at = 0;
    (*ctx.frame->locals)[var.name] = rebuild(var.shape, leaves, at);
  }
}

} // namespace cutec
