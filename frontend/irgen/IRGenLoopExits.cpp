// IRGenStmt, for `break`, `continue` and a kernel's `return` inside run-time
// control flow. Structured IR has no jumps, so each becomes a bool flag, a
// hidden variable of the scope that loops carry and `if`s merge like any
// other ('#' keeps the names apart from the source's):
//
//   break#     the innermost loop is to end; a `while` ends when it holds
//              (its condition is then not evaluated), a `range` loop's
//              remaining iterations do nothing;
//   continue#  the rest of this iteration is skipped; false again at the
//              start of each iteration, so never carried;
//   return#    the rest of the kernel is skipped (set to False at the
//              kernel's start).
//
// After each statement the flags are checked: a compile-time True ends the
// block (`break` with nothing run-time around it costs nothing); a
// run-time one puts the rest of the block in the else branch of an IR `if`
// on the flags, where they are known to be False.
#include "frontend/irgen/IRGen.h"

namespace cutec {

namespace {
constexpr llvm::StringLiteral kBreakFlag = "break#";
constexpr llvm::StringLiteral kContinueFlag = "continue#";
constexpr llvm::StringLiteral kReturnFlag = "return#";
} // namespace

llvm::StringRef exitFlagName(ast::NodeKind statement) {
  switch (statement) {
  case ast::NodeKind::Break:
    return kBreakFlag;
  case ast::NodeKind::Continue:
    return kContinueFlag;
  default:
    return kReturnFlag;
  }
}

IRGenStmt::LoopExits::LoopExits(IRGenStmt &gen) : gen(gen) {
  Scope &locals = *gen.ctx.frame->locals;
  for (auto [flag, saved] :
       {std::pair(kBreakFlag, &outerBreak), std::pair(kContinueFlag, &outerContinue)}) {
    auto it = locals.find(flag);
    if (it != locals.end())
      *saved = it->second;
  }
  locals[kBreakFlag] = SemaValue::boolean(false);
  locals.erase(kContinueFlag);
}

IRGenStmt::LoopExits::~LoopExits() {
  Scope &locals = *gen.ctx.frame->locals;
  for (auto [flag, saved] :
       {std::pair(kBreakFlag, &outerBreak), std::pair(kContinueFlag, &outerContinue)}) {
    if (*saved)
      locals[flag] = **saved;
    else
      locals.erase(flag);
  }
}

void IRGenStmt::LoopExits::startIteration(bool entered) {
  Scope &locals = *gen.ctx.frame->locals;
  locals[kContinueFlag] = SemaValue::boolean(false);
  // A `while` body runs only when its condition saw neither flag.
  if (entered)
    for (llvm::StringRef flag : {kBreakFlag, kReturnFlag})
      if (locals.count(flag))
        locals[flag] = SemaValue::boolean(false);
}

void IRGenStmt::startKernelBody() { (*ctx.frame->locals)[kReturnFlag] = SemaValue::boolean(false); }

void IRGenStmt::execExit(const ast::Stmt &stmt) {
  llvm::StringRef flag = exitFlagName(stmt.getKind());
  if (!ctx.frame->locals->count(flag)) {
    error(stmt, "'" + llvm::Twine(stmt.getKind() == ast::NodeKind::Break ? "break" : "continue") +
                    "' outside a loop");
    return;
  }
  (*ctx.frame->locals)[flag] = SemaValue::boolean(true);
}

SemaValue IRGenStmt::exitFlags(bool withContinue, llvm::SMLoc loc) {
  SemaValue any = SemaValue::boolean(false);
  for (llvm::StringRef flag : {kBreakFlag, kContinueFlag, kReturnFlag}) {
    if (flag == kContinueFlag && !withContinue)
      continue;
    auto it = ctx.frame->locals->find(flag);
    if (it == ctx.frame->locals->end() || it->second.isPoison())
      continue;
    const SemaValue &v = it->second;
    if (v.is(SemaValue::Kind::Bool)) {
      if (v.boolValue())
        return v;
      continue;
    }
    if (any.is(SemaValue::Kind::Bool)) {
      any = v;
      continue;
    }
    // any or v = any ? True : v, which isel makes one or.pred.
    ir::Value *yes = toRunTime(SemaValue::boolean(true), loc, llvm::SMRange());
    any = SemaValue::runTime(ctx.builder->createValue(ir::OpKind::Select, loc, yes->type(),
                                                      {any.irValue(), yes, v.irValue()}));
  }
  return any;
}

void IRGenStmt::execStatements(const ast::Block &block, size_t from) {
  for (size_t i = from; i < block.size(); ++i) {
    if (ctx.frame->returned || ctx.budgetSpent)
      return;
    SemaValue exited = exitFlags(/*withContinue=*/true, block[i]->getLoc());
    if (exited.is(SemaValue::Kind::Bool) && exited.boolValue())
      return;
    if (exited.is(SemaValue::Kind::RunTime))
      return execUnlessExited(block, i, exited.irValue());
    exec(*block[i]);
  }
}

void IRGenStmt::execUnlessExited(const ast::Block &block, size_t from, ir::Value *exited) {
  ChangedNames changed;
  for (size_t i = from; i < block.size(); ++i)
    collectChanged(*block[i], changed);
  std::vector<std::string> names = changed.all();
  // The then branch (a flag holds) leaves everything as it was; the else
  // branch runs the rest, where no flag holds yet.
  runTimeIf(exited, block[from]->getLoc(), names, [] {}, [&] {
    for (llvm::StringRef flag : {kBreakFlag, kContinueFlag, kReturnFlag})
      if (ctx.frame->locals->count(flag))
        (*ctx.frame->locals)[flag] = SemaValue::boolean(false);
    execStatements(block, from);
  });
}

SemaValue IRGenStmt::loopCondition(const ast::Expr &condition) {
  SemaValue exited = exitFlags(/*withContinue=*/false, condition.getLoc());
  if (exited.is(SemaValue::Kind::Bool))
    return exited.boolValue() ? SemaValue::boolean(false) : gen.exprs().eval(condition);
  // exited ? False : condition, the condition evaluated only when needed.
  IRGenExpr::Aside onFalse = gen.exprs().evalAside(condition);
  const SemaValue &c = onFalse.value;
  if (c.isPoison())
    return c;
  bool isBool = c.is(SemaValue::Kind::Bool) ||
                (c.is(SemaValue::Kind::RunTime) && c.type() == ir::Type::scalar(ir::DataType::Bool));
  if (!isBool)
    return error(condition, "the condition must be a bool, not " + c.describe());
  IRGenExpr::Aside onTrue{SemaValue::boolean(false), std::make_unique<ir::Block>()};
  ir::Value *no = gen.exprs().asideRunTime(onTrue, condition, ir::DataType::Bool);
  ir::Value *value = gen.exprs().asideRunTime(onFalse, condition, ir::DataType::Bool);
  if (!no || !value)
    return SemaValue::poison();
  return SemaValue::runTime(
      gen.exprs().choose(exited.irValue(), onTrue, no, onFalse, value, condition.getLoc()));
}

} // namespace cutec
