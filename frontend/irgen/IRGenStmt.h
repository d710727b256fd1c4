// IRGenStmt: the IRGen domain (IRGen::stmts()) of statements and loops:
// assignments, `for` (unrolled or run-time), `while`, `if`, helper calls, and
// the variables that run-time regions carry or merge (SSA construction by scope
// snapshots).
//
// Implemented in:
//   IRGenStmt.cpp      statements, loops, conditionals, helper calls
//   IRGenLoopExits.cpp break, continue and return in run-time control flow
//   IRGenCarried.cpp   variables carried through run-time loops and ifs
#ifndef CUTEC_FRONTEND_IRGEN_IRGENSTMT_H
#define CUTEC_FRONTEND_IRGEN_IRGENSTMT_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

/// The names a block may change: those it assigns (in order of first
/// assignment) and those it calls methods on (`state.advance()`).
struct ChangedNames {
  std::vector<std::string> assigned;
  std::vector<std::string> receivers;
  /// Both, without repeats: the names a region must merge or carry.
  std::vector<std::string> all() const;
};
/// Adds what `block` (with its nested blocks) may change to `changed`.
void collectChanged(const ast::Block &block, ChangedNames &changed);
void collectChanged(const ast::Stmt &stmt, ChangedNames &changed);
/// The hidden variable that `break`, `continue` or `return` (the statement
/// kind) sets inside run-time control flow (IRGenLoopExits.cpp).
llvm::StringRef exitFlagName(ast::NodeKind statement);
/// Adds the names bound by an assignment target (names, tuples of names).
void collectAssignedNames(const ast::Expr &target, std::vector<std::string> &names);
/// Adds the names whose methods `expr` calls (`x` in `x.m(...)`).
void collectReceivers(const ast::Expr &expr, std::vector<std::string> &names);

class IRGenStmt : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  void execBlock(const ast::Block &block);
  void exec(const ast::Stmt &stmt);
  void execAssign(const ast::AssignStmt &assign);
  void execAugAssign(const ast::AugAssignStmt &assign);
  void execReturn(const ast::ReturnStmt &ret);
  void execFor(const ast::ForStmt &loop);
  /// range's `unroll=` and `unroll_full=` (CuTe DSL's hints); false after
  /// an error.
  bool checkRangeHints(const CallSite &site);
  /// The values of range(...)/unroll(n) with static bounds, or nullopt
  /// after an error.
  std::optional<std::vector<SemaValue>> staticRange(CallSite &site, llvm::StringRef name);
  void execUnrolled(const ast::ForStmt &loop, const std::vector<SemaValue> &values);
  void execRangeLoop(const ast::ForStmt &loop, CallSite &range);
  void execWhile(const ast::WhileStmt &loop);
  /// Whether a helper's `while` has a compile-time condition, so that it
  /// runs at compile time (the condition is evaluated aside, leaving no IR);
  /// nullopt after an error.
  std::optional<bool> whileConditionIsCompileTime(const ast::WhileStmt &loop);
  void execWhileAtCompileTime(const ast::WhileStmt &loop);
  /// A run-time `while` (IR op `while`) carrying what the loop may change.
  void execWhileLoop(const ast::WhileStmt &loop);
  /// The run-time bool that the `condition` terminator takes; null after an
  /// error (a condition that is not a bool, or always True).
  ir::Value *whileCondition(const SemaValue &condition, const ast::Expr &expr);
  /// The `if` from clause `clause` on (later clauses are its else branch).
  void execIf(const ast::IfStmt &stmt, size_t clause);
  void execIfRegion(const ast::IfStmt &stmt, size_t clause, ir::Value *condition);
  /// An IR `if` on `condition` running `thenBody` and `elseBody` (none when
  /// null) in its regions, which merges the variables `names` after it.
  void runTimeIf(ir::Value *condition, llvm::SMLoc loc, const std::vector<std::string> &names,
                 llvm::function_ref<void()> thenBody, llvm::function_ref<void()> elseBody);
  /// A loop's own break and continue flags, set up for the loop and the
  /// enclosing loop's restored after it.
  class LoopExits {
  public:
    explicit LoopExits(IRGenStmt &gen);
    LoopExits(const LoopExits &) = delete;
    LoopExits &operator=(const LoopExits &) = delete;
    ~LoopExits();
    /// Before each iteration's body; `entered` when the loop's condition
    /// has just checked the break and return flags.
    void startIteration(bool entered);

  private:
    IRGenStmt &gen;
    std::optional<SemaValue> outerBreak, outerContinue;
  };
  void startKernelBody();
  /// `break`, `continue`, or `return` in a kernel's run-time region.
  void execExit(const ast::Stmt &stmt);
  /// Whether a break or return flag (and `withContinue`, continue) holds:
  /// a compile-time bool, or their run-time or.
  SemaValue exitFlags(bool withContinue, llvm::SMLoc loc);
  /// `block` from statement `from` on, each statement after checking the
  /// flags.
  void execStatements(const ast::Block &block, size_t from);
  /// The statements from `from` on, in the else branch of an `if` on
  /// `exited`.
  void execUnlessExited(const ast::Block &block, size_t from, ir::Value *exited);
  /// A loop's condition, False once a break or return flag holds (and then
  /// not evaluated).
  SemaValue loopCondition(const ast::Expr &condition);
  /// Binds a (tuple of) target(s) to `value`: names, `_`, tensor subscripts.
  void assign(const ast::Expr &target, const SemaValue &value, const ast::Expr &valueExpr);
  /// The two places compared in "'x' is T <first> but U <second>".
  using Paths = std::pair<const char *, const char *>;
  /// A variable that a run-time loop carries: its value at the loop's entry,
  /// whose structure it keeps, and the types of the leaves that may change
  /// (one region argument and result each).
  struct CarriedVariable {
    std::string name;
    SemaValue entry;
    std::vector<ir::Type> types;
  };
  /// The region type a changing leaf gets: i32, f32, bool or its own.
  static std::optional<ir::Type> carriedType(const SemaValue &v);
  /// The leaf `v` as a value of `type` (a compile-time number adopts it);
  /// null after an error naming `path` and `paths`.
  ir::Value *carriedValue(const SemaValue &v, const ir::Type &type, llvm::StringRef path,
                          llvm::SMLoc loc, Paths paths);
  /// The variable `name` carried from `entry`: appends the initial values of
  /// its changing leaves to `inits`; nullopt after an error.
  std::optional<CarriedVariable> startCarrying(llvm::StringRef name, const SemaValue &entry,
                                               llvm::SMLoc loc, std::vector<ir::Value *> &inits);
  /// The variables a loop carries: the `changed` ones that exist before it
  /// (except `loopVariable`), receivers of methods only when they are
  /// objects. Their initial values go to `inits`; a variable that cannot be
  /// carried becomes poison.
  std::vector<CarriedVariable> carryIntoLoop(const ChangedNames &changed,
                                             llvm::StringRef loopVariable, llvm::SMLoc loc,
                                             std::vector<ir::Value *> &inits);
  static std::vector<ir::Type> carriedTypes(llvm::ArrayRef<CarriedVariable> carried);
  /// Binds the variables to new arguments of `block`, which it returns.
  std::vector<ir::Value *> bindCarried(llvm::ArrayRef<CarriedVariable> carried, ir::Block &block);
  /// The variables' current values, one per changing leaf, for a yield. A
  /// variable that changed its type, structure or a fixed leaf is reported,
  /// gives `fallback`'s values instead and is marked in `broken`.
  std::vector<ir::Value *> carriedOut(llvm::ArrayRef<CarriedVariable> carried,
                                      llvm::ArrayRef<ir::Value *> fallback, llvm::SMLoc loc,
                                      Paths paths, std::vector<bool> &broken);
  /// Rebinds the variables to `results` (poison where `broken`).
  void bindCarriedResults(llvm::ArrayRef<CarriedVariable> carried,
                          llvm::ArrayRef<ir::Value *> results, const std::vector<bool> &broken);
  /// The variables that a run-time `if` merges and the values each branch
  /// yields for their changing leaves.
  struct BranchMerge {
    ir::Builder *thenBuilder = nullptr;
    /// The else region's builder, which it creates when the source has none.
    std::function<ir::Builder &()> elseBuilder;
    std::vector<ir::Value *> thenValues, elseValues;
    std::vector<ir::Type> types;
    std::vector<std::string> resultNames;
    struct Variable {
      std::string name;
      SemaValue shape;                                // its value in the then branch
      std::vector<SemaValue> leaves;                  // the same after both
      std::vector<std::pair<size_t, size_t>> results; // (leaf, result) pairs
    };
    std::vector<Variable> variables;
  };
  /// Adds the variable `name`, which the branches leave as `thenValue` and
  /// `elseValue`, to `merge`; false after an error.
  bool mergeBranches(llvm::StringRef name, const SemaValue &thenValue, const SemaValue &elseValue,
                     llvm::SMLoc loc, BranchMerge &merge);
  /// Gives the `if` its results and binds the merged variables to them.
  void bindMerged(const BranchMerge &merge, ir::Operation &op);
  SemaValue callHelper(const ast::FunctionDef &def, CallSite &site);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENSTMT_H
