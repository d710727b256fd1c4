// IRGen: the evaluator behind buildIR (internal to frontend/).
//
// One tree walk does both semantic analysis and IR generation. Expressions
// evaluate to SemaValues: compile-time values fold on the spot (so helper
// functions, tuples and layouts cost nothing at run time), run-time values
// are IR values created at the builder's insertion point. Python variables
// are a map from names to SemaValues; `for` and `if` over run-time values
// turn the variables they reassign into region arguments and results (SSA
// construction by scope snapshots). The implementation is split by topic:
//   IRGenModule.cpp    top level, kernel signatures, dynamic sizes
//   IRGenExpr.cpp      names, operators, tuples, layouts, calls
//   IRGenScalar.cpp    run-time scalar arithmetic and conversions
//   IRGenBuiltins.cpp  built-in functions and methods
//   IRGenTensor.cpp    local_tile, slicing, load, store, extract, coordinate
//                      tensors
//   IRGenCopy.cpp      copy atoms, tiled copies, partition_S/D, copy
//   IRGenAsync.cpp     shared memory, mbarriers, TMA, fences, sync_threads
//   IRGenTcgen05.cpp   tensor memory allocation
//   IRGenBlockScaled.cpp scale factors in tensor memory, tmem_copy
//   IRGenCluster.cpp   clusters, CTA pairs and the cta_group= argument
//   IRGenStmt.cpp      statements, loops, conditionals, helper calls
//   IRGenCarried.cpp   variables carried through run-time loops and ifs
#ifndef CUTEC_FRONTEND_IRGEN_H
#define CUTEC_FRONTEND_IRGEN_H

#include "frontend/Builtins.h"
#include "frontend/Diagnostics.h"
#include "frontend/SemaValue.h"
#include "ir/core/Builder.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <array>
#include <functional>
#include <map>
#include <optional>

namespace cutec {

/// Variables by name.
using Scope = llvm::StringMap<SemaValue>;

/// A call's evaluated arguments with the expressions they came from.
struct CallSite {
  const ast::CallExpr &call;
  std::vector<SemaValue> args;
  struct Keyword {
    llvm::StringRef name;
    llvm::SMRange nameRange;
    SemaValue value;
    const ast::Expr *expr;
  };
  std::vector<Keyword> keywords;
  /// The built-in being called (its table spelling), once callBuiltin has
  /// looked it up.
  llvm::StringRef callee;
  /// A method's receiver; null for a function.
  const SemaValue *self = nullptr;
  /// The arguments bound to the built-in's signature, in declaration order
  /// (defaults filled in); empty for an unchecked ("...") signature.
  std::vector<SemaValue> bound;
  /// Set by a method that changes its object (`state.advance()`): the
  /// object's new value, which the variable named before the `.` takes.
  std::optional<SemaValue> updatedSelf;

  llvm::SMLoc loc() const { return call.getLoc(); }
  llvm::SMRange range() const { return call.getRange(); }
  /// Where argument i is written; the whole call for an argument that a
  /// built-in passed to another (invokeBuiltin).
  const ast::Expr &argExpr(size_t i) const {
    return i < call.getArgs().size() ? *call.getArgs()[i] : static_cast<const ast::Expr &>(call);
  }
  /// The keyword's value, or null when it was not given.
  const Keyword *keyword(llvm::StringRef name) const;
  /// Where bound argument i, parameter `name`, is written: positionally or
  /// as `name=`; the whole call when it was left out.
  const ast::Expr &boundExpr(size_t i, llvm::StringRef name) const {
    if (i < args.size())
      return argExpr(i);
    const Keyword *kw = keyword(name);
    return kw ? *kw->expr : static_cast<const ast::Expr &>(call);
  }
};

/// Where a binary operation is written: `lhs op rhs`, or `target op= value`.
struct BinarySite {
  llvm::SMLoc opLoc;
  const ast::Expr &lhs;
  const ast::Expr &rhs;
  llvm::SMRange range() const { return {lhs.getRange().Start, rhs.getRange().End}; }
};

/// Why a kernel cannot `what` ("load", "make a value of") the opaque type
/// `t` (u128): only the cluster launch control built-ins use it.
std::string opaqueValueError(ir::DataType t, llvm::StringRef what);

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

/// The op that reads block_idx(), thread_idx() or grid_dim(); none for
/// other names.
std::optional<ir::OpKind> indexRegisterOp(llvm::StringRef builtin);

class IRGen {
  /// The built-in table names IRGen's handlers (frontend/Builtins.cpp).
  friend llvm::ArrayRef<BuiltinInfo> builtinTable();

public:
  explicit IRGen(DiagnosticEngine &diags);
  std::unique_ptr<ir::Module> run(const ast::Module &module);

private:
  /// The state of one function body being evaluated: the module's top
  /// level, a kernel, or a helper call.
  struct Frame {
    explicit Frame(Scope *locals) : locals(locals) {}
    Scope *locals;
    /// While evaluating kernel parameter types, names that are bound
    /// nowhere become dynamic sizes (appended here).
    std::vector<std::string> *dynamicSizes = nullptr;
    /// Set by `return`; evaluation of the body stops.
    std::optional<SemaValue> returned;
    /// How many run-time `for`/`if` regions enclose the current statement.
    unsigned regionDepth = 0;
    /// The helper being called, for messages; null in kernels.
    const ast::FunctionDef *helper = nullptr;
  };

  // --- Diagnostics (IRGenModule.cpp) ----------------------------------------
  SemaValue error(llvm::SMLoc loc, const llvm::Twine &message,
                  llvm::ArrayRef<llvm::SMRange> ranges = {});
  SemaValue error(const ast::Node &node, const llvm::Twine &message);
  /// Counts one evaluation step against the compile-time budget, so that
  /// no input makes the compiler loop for long; false once it is spent.
  bool step(llvm::SMLoc loc);
  /// Evaluation recurses through expressions, statements, regions and helper
  /// calls. The parser bounds one expression's depth; this bounds their
  /// combination so the stack stays small. A scope object: the nesting
  /// level is left when it is destroyed; `ok()` is false (and an error was
  /// reported) when the limit was reached.
  class Nested {
  public:
    Nested(IRGen &gen, llvm::SMLoc loc);
    ~Nested() { --gen.nesting; }
    bool ok() const { return within; }

  private:
    IRGen &gen;
    bool within;
  };

  // --- Top level (IRGenModule.cpp) --------------------------------------------
  void defineTopLevel(const ast::Stmt &stmt);
  void defineHelper(const ast::FunctionDef &def);
  void buildKernelSignature(const ast::FunctionDef &def, ir::Operation &kernel);
  /// A kernel parameter's type: a global tensor or a scalar.
  std::optional<ir::Type> evalParamType(const ast::Param &param);
  void evalKernelDecorator(const ast::FunctionDef &def, ir::Operation &kernel,
                           llvm::ArrayRef<std::string> dynamicSizes);
  // --- assume= of @kernel (IRGenAssume.cpp) ----------------------------------
  void evalAssumptions(const ast::Expr &expr, ir::Operation &kernel,
                       llvm::ArrayRef<std::string> dynamicSizes);
  void verifyKernel(const ir::Operation &kernel);

  // --- Expressions (IRGenExpr.cpp) --------------------------------------------
  SemaValue eval(const ast::Expr &expr);
  SemaValue evalName(const ast::NameExpr &name);
  std::optional<SemaValue> lookup(llvm::StringRef name);
  /// Every name a kernel may use here, for "did you mean" after a misspelling.
  std::vector<llvm::StringRef> visibleNames() const;
  /// The attributes `base` has, for "did you mean" after a misspelling.
  static std::vector<llvm::StringRef> attributeNames(const SemaValue &base);
  SemaValue evalElements(const ast::ExprList &elements);
  SemaValue evalList(const ast::ListExpr &list);
  SemaValue evalUnary(const ast::UnaryExpr &unary);
  SemaValue evalBinary(const ast::BinaryExpr &binary);
  SemaValue evalLayout(const ast::LayoutExpr &layout);
  /// An operand of `:`, where `(t)` around a tuple is a rank-1 tuple.
  SemaValue evalLayoutOperand(const ast::Expr &expr);
  SemaValue evalCall(const ast::CallExpr &call);
  /// After a method that changed its object: rebinds the variable the
  /// method was called on (`state` in `state.advance()`).
  void updateReceiver(const ast::CallExpr &call, const SemaValue &self);
  /// The call's arguments, or nullopt when one of them failed.
  std::optional<CallSite> evalCallSite(const ast::CallExpr &call);
  /// A binary operation on evaluated operands: folded or emitted.
  SemaValue binary(ast::BinaryOp op, const SemaValue &lhs, const SemaValue &rhs,
                   const BinarySite &site);
  SemaValue evalSubscript(const ast::SubscriptExpr &subscript);
  SemaValue evalAttribute(const ast::AttributeExpr &attribute);
  SemaValue indexTuple(const SemaValue &tuple, const ast::SubscriptExpr &subscript);
  /// Compile-time integer arithmetic; nullopt when `op` is not one.
  std::optional<SemaValue> foldInts(ast::BinaryOp op, const SemaValue &lhs, const SemaValue &rhs,
                                    const BinarySite &site);
  std::optional<SemaValue> foldFloats(ast::BinaryOp op, const SemaValue &lhs, const SemaValue &rhs);

  // --- Run-time scalars (IRGenScalar.cpp) ----------------------------------
  /// The IR value of `v` as a run-time value; compile-time numbers become
  /// constants of `want` (i32 for integers, f32 for floats, when none).
  /// Reports an error and returns null when there is no such value.
  ir::Value *toRunTime(const SemaValue &v, llvm::SMLoc loc, llvm::SMRange range,
                       std::optional<ir::DataType> want = std::nullopt);
  ir::Value *toRunTime(const SemaValue &v, const ast::Expr &expr,
                       std::optional<ir::DataType> want = std::nullopt) {
    return toRunTime(v, expr.getLoc(), expr.getRange(), want);
  }
  /// A run-time i32, e.g. a loop bound or a slice coordinate.
  ir::Value *toIndex(const SemaValue &v, const ast::Expr &expr, llvm::StringRef what);
  SemaValue scalarBinary(ast::BinaryOp op, const SemaValue &lhs, const SemaValue &rhs,
                         const BinarySite &site);
  /// Arithmetic is on 32- and 64-bit integers and on f32; reports the
  /// others (bool, f16, i8, f4e2m1...) at `loc`.
  bool checkArithmeticType(ir::DataType t, llvm::SMLoc loc, llvm::SMRange range);
  SemaValue scalarNot(const SemaValue &v, const ast::Expr &expr);
  /// The source of `expr`, followed by `.load()` when `v` is a view of memory.
  static std::string loadedSpelling(const ast::Expr &expr, const SemaValue &v);
  /// "; ... did you mean x.load()?" when `v`, the value of `expr`, is a view
  /// of memory used where a value is needed; otherwise "".
  static std::string loadHint(const ast::Expr &expr, const SemaValue &v);
  SemaValue convert(const SemaValue &v, ir::DataType to, const ast::Expr &expr);

  // --- Register fragments (IRGenFragment.cpp) ------------------------------
  static bool isFragment(const SemaValue &v);
  /// Element `index` (in the fragment's logical order) as a run-time scalar.
  SemaValue fragmentElement(const SemaValue &fragment, int64_t index, llvm::SMLoc loc);
  /// `scalar` applied to each element of the fragment operands (the other
  /// operands as they are), gathered into a fragment of their one shape.
  SemaValue elementwise(llvm::ArrayRef<SemaValue> operands, llvm::ArrayRef<const ast::Expr *> exprs,
                        llvm::SMLoc loc,
                        llvm::function_ref<SemaValue(llvm::ArrayRef<SemaValue>)> scalar);
  /// frag.reduce(ReductionOp.X, init): one scalar, in the elements' order.
  SemaValue fragmentReduce(const SemaValue &fragment, CallSite &site);
  ir::Value *materialize(const IntExpr &e, llvm::SMLoc loc);
  /// The builder, or an error saying `what` needs a kernel.
  ir::Builder *requireBuilder(llvm::SMLoc loc, const llvm::Twine &what);
  /// Whether the built-in call is inside a kernel (an error otherwise).
  bool inKernel(CallSite &site) { return requireBuilder(site.loc(), site.callee + "()"); }

  // --- Run-time and/or and conditional expressions (IRGenConditional.cpp) ----
  /// An expression evaluated into a block of its own, not yet in the IR.
  struct Aside {
    SemaValue value;
    std::unique_ptr<ir::Block> block;
  };
  Aside evalAside(const ast::Expr &expr);
  /// The aside value as a run-time `type`, converted inside its block.
  ir::Value *asideRunTime(Aside &aside, const ast::Expr &expr, ir::DataType type);
  /// `condition ? a : b`, where a and b were built aside: a select after
  /// both blocks when they have no effects, else an IR `if` with a result.
  ir::Value *choose(ir::Value *condition, Aside &onTrue, ir::Value *a, Aside &onFalse,
                    ir::Value *b, llvm::SMLoc loc);
  /// `lhs and rhs` / `lhs or rhs` with a run-time bool `lhs`.
  SemaValue shortCircuit(ast::BinaryOp op, const SemaValue &lhs, const ast::BinaryExpr &expr);
  SemaValue evalConditional(const ast::ConditionalExpr &expr);

  // --- Built-ins (IRGenBuiltins.cpp; the table is frontend/Builtins.def) -----
  static bool isBuiltinName(llvm::StringRef name);
  SemaValue callBuiltin(llvm::StringRef name, CallSite &site);
  /// Checks the call against the built-in's signature and fills
  /// `site.bound`; false after an error.
  bool bindArguments(const BuiltinInfo &builtin, CallSite &site);
  /// A built-in of the table that is one kernel IR op.
  SemaValue callIntrinsic(const BuiltinInfo &builtin, CallSite &site);
  /// `range`/`unroll` outside a for header, `Tensor[...]` outside a
  /// parameter type, and built-in enumerations called as functions.
  SemaValue misplacedIterable(CallSite &site);
  SemaValue misplacedTensorType(CallSite &site);
  SemaValue notAFunction(CallSite &site);
  /// Calls the built-in `name` of the table with `args` (positional, already
  /// evaluated) on behalf of `site`: how built-ins are made of built-ins.
  SemaValue invokeBuiltin(llvm::StringRef name, CallSite &site, std::vector<SemaValue> args);
  SemaValue callLayoutBuiltin(llvm::StringRef name, CallSite &site);
  SemaValue callSize(CallSite &site);
  SemaValue callSelect(CallSite &site);
  SemaValue callIndexTuple(CallSite &site);
  SemaValue callSmCount(CallSite &site);
  /// One dimension (0..2) of block_idx(), thread_idx() or grid_dim().
  SemaValue indexRegister(ir::OpKind kind, llvm::SMLoc loc, const llvm::Twine &what, int64_t dim);
  SemaValue callMethod(const SemaValue &method, CallSite &site);
  SemaValue callDType(ir::DataType type, CallSite &site);
  bool checkArity(CallSite &site, llvm::StringRef name, size_t min, size_t max,
                  llvm::ArrayRef<llvm::StringRef> keywords = {});
  /// A tensor's layout stands for the tensor in layout functions.
  std::optional<LayoutValue> layoutArgument(const SemaValue &v);

  // --- Shared memory, mbarriers, TMA (IRGenAsync.cpp) ----------------------
  SemaValue sharedTensor(CallSite &site);
  /// A static allocation of shared memory (what shared_tensor makes), named
  /// `name` in diagnostics when not empty; poison after an error at `loc`.
  SemaValue allocateShared(ir::DataType dtype, const Layout &layout, const Swizzle &swizzle,
                           int64_t align, llvm::SMLoc loc, llvm::SMRange range,
                           const std::string &name);
  SemaValue asBytes(CallSite &site);
  SemaValue sizeInBytes(CallSite &site);
  SemaValue mbarrierOp(CallSite &site);
  ir::Value *mbarrierOperand(CallSite &site, size_t i, llvm::StringRef name);
  SemaValue tmaLoad(CallSite &site);
  SemaValue tmaStore(CallSite &site);
  /// The checks tma_load and tma_store share: the global `tile` and the
  /// shared tensor `smem` (written at `smemExpr`) hold the same element
  /// type, and `smem` has the tile's elements, or those of its memory image
  /// (the tile without its broadcast modes). False after reporting.
  bool checkTmaOperands(CallSite &site, const SemaValue &tile, const SemaValue &smem,
                        const ast::Expr &smemExpr);
  // --- The math library (IRGenMath.cpp) ------------------------------------
  /// max, min, abs, fma, copysign, sqrt, rsqrt, exp, exp2, log, log2, tanh,
  /// rcp_approx.
  SemaValue mathFunctionCall(CallSite &site);
  // --- Atomics (IRGenAtomic.cpp) -------------------------------------------
  /// atomic_add/max/min/and/or/xor/exch(elem, val), atomic_cas(elem, cmp=,
  /// val=): one cute.atomic giving the element's old value.
  SemaValue atomicUpdate(CallSite &site);
  // --- Warp collectives and warp specialisation (IRGenWarp.cpp) -----------
  /// shuffle_sync_up/down/bfly/idx and shuffle_sync (idx).
  SemaValue callShuffle(CallSite &site);
  /// One warp.shuffle of `value`: by the compile-time `offset`, or else by
  /// the run-time i32 `laneOffset`; `clamp` is shfl.sync's c operand.
  ir::Operation &emitShuffle(llvm::SMLoc loc, llvm::StringRef mode, ir::Value *value, int64_t clamp,
                             std::optional<int64_t> offset, ir::Value *laneOffset = nullptr);
  /// The first argument `v` of a shuffle or warp reduction as a 32-bit
  /// run-time scalar; null after reporting ("shuffle_sync_bfly moves ...").
  ir::Value *shuffledScalar(CallSite &site, const SemaValue &v, llvm::StringRef verb);
  /// warp_reduction_sum/max/min: butterfly shuffles and the combining op.
  SemaValue warpReduction(CallSite &site);
  /// `value` combined (`op`: sum, max, min) over each group of `group`
  /// lanes by butterfly shuffles; every lane of a group gets the same bits.
  ir::Value *reduceOverLanes(llvm::StringRef op, ir::Value *value, int64_t group,
                             llvm::SMLoc loc);
  /// a + b, max(a, b) or min(a, b) of two run-time scalars.
  ir::Value *combineReduced(llvm::StringRef op, ir::Value *a, ir::Value *b, llvm::SMLoc loc);
  /// block_reduction_sum/max/min(value, scratch): warp reductions, one
  /// shared element per warp, a barrier, and the combination of those.
  SemaValue blockReduction(CallSite &site);
  SemaValue matrixCopy(CallSite &site);
  /// The 8x8 matrices of an stmatrix/ldmatrix tile: how many, and how many
  /// blocks its rows hold; reports the mistake and returns nullopt.
  std::optional<std::pair<int64_t, int64_t>> matrixTile(CallSite &site, bool trans);
  /// NamedBarrier(barrier_id, num_threads): the built-in object.
  SemaValue namedBarrier(CallSite &site);
  /// Its arrive(), arrive_and_wait()/sync() and get_barrier().
  SemaValue namedBarrierMethod(CallSite &site);
  /// `bar.arrive id, threads` (wait false) or `bar.sync id, threads` at
  /// `loc`; an error when the kernel's block has fewer than `threads`.
  bool emitNamedBarrier(int64_t id, int64_t threads, bool wait, llvm::SMLoc loc,
                        llvm::SMRange range);

  // --- Tensor memory (IRGenTcgen05.cpp) ------------------------------------
  /// tmem_alloc, tmem_dealloc, tmem_relinquish_alloc_permit, umma_commit.
  SemaValue tmemAllocation(CallSite &site);
  std::optional<int64_t> tmemColumnsArgument(CallSite &site, size_t i);
  SemaValue ummaSmemLayout(CallSite &site);
  // --- OperandMajorMode.K/.MN (IRGenOperandMajor.cpp) -------------------------
  /// Whether `v` is OperandMajorMode.MN (false for .K); an error otherwise.
  std::optional<bool> mnMajorArgument(const SemaValue &v, const ast::Expr &expr);
  /// The `major=` keyword of `site`, K-major when absent.
  std::optional<bool> majorKeyword(CallSite &site);
  SemaValue tmemTensor(CallSite &site);
  /// tmem_tensor's tensor of `layout` at its address argument.
  SemaValue tmemTensorAt(CallSite &site, const Layout &layout);
  /// The tensor of `layout` at tmem_tensor's address argument, once it is
  /// checked to be a 32-bit value (what tmem_alloc wrote).
  SemaValue tmemTensorValue(CallSite &site, const Layout &layout);
  /// tmem_load (store false) and tmem_store (IRGenTmemLoadStore.cpp).
  SemaValue tmemLoadStore(CallSite &site);
  // --- Block-scaled MMA (IRGenBlockScaled.cpp) ------------------------------
  SemaValue tmemScaleFactorTensor(CallSite &site);
  SemaValue tmemCopy(CallSite &site);
  /// Appends gemm's sfa, sfb (and sfb_row) operands when the call has them
  /// and sets `kind` to its kind= keyword ("" without); false after an error.
  bool blockScaledGemmOperands(CallSite &site, std::vector<ir::Value *> &operands,
                               llvm::StringRef &kind);
  /// gemm(acc, a, b, accumulate) at arguments `first`... (1 after a tiled MMA).
  SemaValue gemm(CallSite &site, size_t first = 0);
  SemaValue gemmCall(CallSite &site) { return inKernel(site) ? gemm(site) : SemaValue::poison(); }
  // --- Tiled MMA vocabulary (IRGenTiledMma.cpp) --------------------------------
  SemaValue callTiledMmaBuiltin(CallSite &site);
  SemaValue mmaOp(CallSite &site);
  SemaValue smemLayoutForMma(MmaOperand operand, CallSite &site);
  // --- Warpgroup MMA (IRGenWarpgroupMma.cpp) ---------------------------------
  SemaValue warpgroupMmaOp(CallSite &site, TiledMma mma, size_t shapeArgument);
  /// A warpgroup slice's partition_C (partition_A, A from registers) of an
  /// (M, X') tile in memory: the thread's elements, laid out as its register
  /// fragment.
  SemaValue warpgroupPartition(const TiledMma &slice, MmaOperand operand, CallSite &site);
  /// gemm(tiled_mma, acc, a, b, flag) of a warpgroup MMA: the new
  /// accumulator, after the checks and regrouping tiledMmaGemm did.
  SemaValue warpgroupGemm(const TiledMma &mma, CallSite &site);
  /// make_rmem_tensor(shape, dtype): a register fragment of zeros.
  SemaValue makeRmemTensor(CallSite &site);
  SemaValue zeroFragment(const IntTuple &shape, ir::DataType element, llvm::SMLoc loc);
  std::optional<SemaValue> tiledMmaAttribute(const SemaValue &base, llvm::StringRef name);
  SemaValue callTiledMmaMethod(const SemaValue &method, CallSite &site);
  SemaValue setField(const TiledMma &mma, CallSite &site);
  SemaValue tiledMmaGemm(CallSite &site);
  SemaValue relayout(const SemaValue &tensor, const Layout &layout, llvm::SMLoc loc);

  // --- Pipelines (IRGenPipeline.cpp) ----------------------------------------
  SemaValue cooperativeGroup(CallSite &site);
  SemaValue makePipelineState(CallSite &site);
  SemaValue pipelineStateAdvance(CallSite &site);
  SemaValue pipelineStateResetCount(CallSite &site);
  SemaValue createPipeline(CallSite &site);
  SemaValue pipelineProducerAcquire(CallSite &site);
  SemaValue pipelineProducerCommit(CallSite &site);
  SemaValue pipelineProducerGetBarrier(CallSite &site);
  SemaValue pipelineProducerTail(CallSite &site);
  SemaValue pipelineConsumerWait(CallSite &site);
  SemaValue pipelineConsumerRelease(CallSite &site);
  const SemaValue *pipelineStateArgument(CallSite &site);
  void waitStage(const SemaValue &barriers, const SemaValue &state, llvm::SMLoc loc);
  void commitStage(const SemaValue &pipeline, ir::Value *bar, CallSite &site);
  ir::Value *stageBarrier(const SemaValue &barriers, const SemaValue &index, llvm::SMLoc loc);
  /// `a + c` or `a ^ c` on an i32 (folded when `a` is compile-time).
  SemaValue pipelineArith(ir::OpKind kind, const SemaValue &a, int64_t c, llvm::SMLoc loc);
  ir::Value *equalsConstant(ir::Value *v, int64_t c, llvm::SMLoc loc);
  /// A run-time `if condition:` whose then-block `body` fills.
  void emitIf(ir::Value *condition, llvm::SMLoc loc, llvm::function_ref<void()> body);
  ir::Value *firstThreadOfCta(llvm::SMLoc loc);
  ir::Value *isPairLeader(llvm::SMLoc loc);
  ir::Value *electOne(CallSite &site);

  // --- Clusters (IRGenCluster.cpp) ------------------------------------------
  /// cluster_ctarank() and cluster_size().
  SemaValue clusterSpecial(CallSite &site);
  // Persistent tile schedulers (IRGenTileScheduler.cpp)
  struct SchedulerArith;
  SemaValue tileSchedulerParams(CallSite &site);
  SemaValue createStaticScheduler(CallSite &site);
  SemaValue schedulerCurrentWork(CallSite &site);
  SemaValue schedulerAdvance(CallSite &site);
  /// The params object of `site`'s create call (argument 0) checked against
  /// `className` and the kernel's cluster shape; null after an error.
  const SemaValue *schedulerParams(CallSite &site, llvm::StringRef className);
  SemaValue createClcScheduler(CallSite &site);
  SemaValue clcSchedulerInitialWork(CallSite &site);
  SemaValue clcSchedulerCurrentWork(CallSite &site);
  SemaValue clcSchedulerAdvance(CallSite &site);
  /// issue_clc_query(mbar, response, multicast=True): try_cancel.
  SemaValue issueClcQuery(CallSite &site);
  /// clc_response(response): (x, y, z, is_canceled), the canceled cluster's
  /// first CTA id (undefined unless is_canceled) and whether there was one.
  SemaValue clcResponse(CallSite &site);
  /// The cta_group= keyword of `name` (1 when absent), or nullopt after an
  /// error: 2 needs clusters of an even number of CTAs, and the tcgen05
  /// operations (`tcgen05`) of a kernel must all use the same group.
  std::optional<int64_t> ctaGroupArgument(CallSite &site, llvm::StringRef name, bool tcgen05);
  /// Marks `op` as a cta_group::2 operation when `group` is 2.
  static void setCtaGroup(ir::Operation &op, int64_t group);
  /// The run-time i32 value of `name`'s cluster keyword `key`: the CTA mask
  /// of multicast= or the CTA rank of cta=; `absent` (true, null) when there
  /// is none, null after an error: both need a cluster kernel, a static mask
  /// names CTAs of the cluster and a static rank is one of them.
  ir::Value *clusterArgument(CallSite &site, llvm::StringRef name, llvm::StringRef key,
                             bool &absent);
  /// clusterArgument's checks of the value `v` of `name`'s `key`, written
  /// at `expr`; a kernel without clusters is reported at `where`.
  ir::Value *clusterOperand(llvm::StringRef name, llvm::StringRef key, const SemaValue &v,
                            const ast::Expr &expr, llvm::SMRange where);
  /// mapa(tensor, cta): the shared tensor as CTA `cta`'s of the cluster
  /// (distributed shared memory), to load from and store to.
  SemaValue mapaView(CallSite &site);

  // --- Tiled copies (IRGenCopy.cpp) -----------------------------------------
  SemaValue copyUniversalOp(CallSite &site);
  SemaValue makeCopyAtom(CallSite &site);
  SemaValue makeLayoutTvCall(CallSite &site);
  SemaValue makeTiledCopyTv(CallSite &site);
  SemaValue tiledCopyGetSlice(CallSite &site);
  /// partition_S and partition_D of a thread's slice.
  SemaValue thrCopyPartition(CallSite &site);
  /// make_fragment_like and make_rmem_tensor_like.
  SemaValue makeFragmentLike(CallSite &site);
  /// copy(atom, src, dst, pred=): group by group, predicated where asked.
  SemaValue copyCall(CallSite &site);
  /// `count` elements of `src` (a view or a fragment) from logical element
  /// `first` on, as scalars; a view's group is one load.
  std::vector<ir::Value *> readElements(const SemaValue &src, int64_t first, int64_t count,
                                        llvm::SMLoc loc);
  /// Stores `values` into the view `dst` from logical element `first` on.
  void writeElements(const SemaValue &dst, int64_t first, llvm::ArrayRef<ir::Value *> values,
                     llvm::SMLoc loc);
  /// An IR `if` with results of `types`, its branches built by `onTrue` and
  /// `onFalse`, each giving the values its branch yields.
  std::vector<ir::Value *>
  ifElse(ir::Value *condition, llvm::ArrayRef<ir::Type> types, llvm::SMLoc loc,
         llvm::function_ref<std::vector<ir::Value *>()> onTrue,
         llvm::function_ref<std::vector<ir::Value *>()> onFalse);

  // --- Tensors (IRGenTensor.cpp) -------------------------------------------
  SemaValue localTile(CallSite &site);
  /// The view of `tensor` that the slice `pattern` selects (`_`, static
  /// integers, `$i` for `operands[i]`).
  SemaValue sliceWith(const SemaValue &tensor, const IntTuple &pattern,
                      std::vector<ir::Value *> operands, llvm::SMLoc loc);
  /// make_identity_tensor(shape): a coordinate tensor, one `coord` tensor
  /// per mode; elem_less(coord, shape) compares coordinates.
  SemaValue makeIdentityTensor(CallSite &site);
  SemaValue elemLess(CallSite &site);
  /// The coordinate tensor of these `coord` tensors (one per mode).
  static SemaValue coordinateTensor(std::vector<SemaValue> modes);
  static bool isCoordinateTensor(const SemaValue &v);
  /// The coordinate tensor whose modes are `f` of `c`'s; poison when one is.
  SemaValue mapCoordinates(const SemaValue &c, llvm::function_ref<SemaValue(const SemaValue &)> f);
  /// c[...]: a coordinate tensor, or with every mode fixed the coordinate,
  /// a tuple of i32; `c[i]` with one compile-time index on a tensor of
  /// several modes is its i-th element in column-major order.
  SemaValue sliceCoordinates(const SemaValue &c, const ast::SubscriptExpr &subscript,
                             const std::vector<SemaValue> &coords);
  SemaValue sliceTensor(const SemaValue &tensor, const ast::SubscriptExpr &subscript,
                        const std::vector<SemaValue> &coords);
  /// Element `index` (compile-time or run-time) of a rank-1 tensor in memory.
  SemaValue elementView(const SemaValue &tensor, const SemaValue &index, llvm::SMLoc loc);
  SemaValue rearrangeFragment(const SemaValue &fragment, const Layout &arranged, int64_t first,
                              llvm::SMLoc loc, llvm::SMRange range);
  SemaValue sliceFragment(const SemaValue &fragment, const ast::SubscriptExpr &subscript,
                          const std::vector<SemaValue> &coords);
  SemaValue extract(const SemaValue &fragment, const ast::SubscriptExpr &subscript,
                    const std::vector<SemaValue> &coords);
  SemaValue load(const SemaValue &view, const ast::Expr &expr);
  void store(const SemaValue &value, const SemaValue &view, const ast::Expr &valueExpr,
             llvm::SMLoc loc);

  // --- Statements (IRGenStmt.cpp) ------------------------------------------
  void execBlock(const ast::Block &block);
  void exec(const ast::Stmt &stmt);
  void execAssign(const ast::AssignStmt &assign);
  void execAugAssign(const ast::AugAssignStmt &assign);
  void execReturn(const ast::ReturnStmt &ret);
  void execFor(const ast::ForStmt &loop);
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

  // --- break, continue and return in run-time control flow ------------------
  // (IRGenLoopExits.cpp)
  /// A loop's own break and continue flags, set up for the loop and the
  /// enclosing loop's restored after it.
  class LoopExits {
  public:
    explicit LoopExits(IRGen &gen);
    LoopExits(const LoopExits &) = delete;
    LoopExits &operator=(const LoopExits &) = delete;
    ~LoopExits();
    /// Before each iteration's body; `entered` when the loop's condition
    /// has just checked the break and return flags.
    void startIteration(bool entered);

  private:
    IRGen &gen;
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
  // --- Variables carried through run-time regions (IRGenCarried.cpp) --------
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

  DiagnosticEngine &diags;
  Scope globals;
  /// Helper defaults, evaluated when the def is reached.
  std::map<const ast::FunctionDef *, std::vector<std::optional<SemaValue>>> helperDefaults;
  Frame *frame = nullptr;
  /// The kernel being built; null at the top level.
  ir::Builder *builder = nullptr;
  /// The kernel's dynamic sizes by name: its trailing i32 arguments.
  llvm::StringMap<ir::Value *> dynamicSizeArgs;
  /// Bytes of shared memory the kernel being built has allocated so far.
  int64_t sharedBytes = 0;
  /// The largest alignment among them.
  int64_t sharedAlign = 16;
  /// Columns of tensor memory the kernel being built allocates.
  int64_t tmemColumns = 0;
  /// CTAs per cluster of the kernel being built (its cluster= extent), and
  /// the cluster's shape.
  int64_t clusterCtas = 1;
  /// Threads per CTA of the kernel being built (its block= extent).
  int64_t blockThreads = 0;
  std::array<int64_t, 3> clusterShape{1, 1, 1};
  /// The CTA group of its tcgen05 operations (0 until the first one) and
  /// where that one is.
  int64_t kernelCtaGroup = 0;
  llvm::SMLoc kernelCtaGroupLoc;
  /// While the @kernel grid is evaluated (the one place sm_count() means
  /// something).
  bool evaluatingGrid = false;
  unsigned callDepth = 0;
  unsigned nesting = 0;
  bool nestingReported = false;
  uint64_t steps = 0;
  bool budgetSpent = false;
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_H
