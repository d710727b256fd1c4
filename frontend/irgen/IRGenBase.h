// IRGenBase: what every IRGen domain (frontend/irgen/) builds on, as Clang's
// SemaBase is for SemaCUDA and SemaOpenMP: the state of one buildIR run (the
// builder, the scopes, the kernel being built), diagnostics, value lookup and
// the conversions to run-time values that every domain uses. A domain reaches
// another only through the IRGen that owns them all (`gen.exprs().eval(e)`).
#ifndef CUTEC_FRONTEND_IRGEN_IRGENBASE_H
#define CUTEC_FRONTEND_IRGEN_IRGENBASE_H

#include "frontend/Builtins.h"
#include "frontend/Diagnostics.h"
#include "frontend/SemaValue.h"
#include "ir/core/Builder.h"

#include "llvm/ADT/StringMap.h"

#include <array>
#include <map>
#include <optional>

namespace cutec {

class IRGen;

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

class IRGenBase {
public:
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
  /// The state of one buildIR run, which IRGen owns and its domains share.
  struct Context {
    explicit Context(DiagnosticEngine &diags) : diags(diags) {}
    DiagnosticEngine &diags;
    Scope globals;
    /// Helper defaults, evaluated when the def is reached.
    std::map<const ast::FunctionDef *, std::vector<std::optional<SemaValue>>> helperDefaults;
    Frame *frame = nullptr;
    /// The kernel being built; null at the top level.
    ir::Builder *builder = nullptr;
    /// The kernel's dynamic sizes by name: its trailing i32 arguments.
    llvm::StringMap<ir::Value *> dynamicSizeArgs;
    /// The kernel's run-time extents (`?0`, `?1`, ...: i32 values used as
    /// layout leaves) by symbol.
    llvm::StringMap<ir::Value *> runTimeExtents;
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
    /// Errors met so far, repeats included (the engine counts only those it
    /// prints): a compile-time loop stops at the first error in its body.
    unsigned errorsMet = 0;
  };

  explicit IRGenBase(IRGen &gen);

  // --- What every domain uses (IRGenBase.cpp) --------------------------------
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
    Nested(IRGenBase &base, llvm::SMLoc loc);
    ~Nested() { --base.ctx.nesting; }
    bool ok() const { return within; }

  private:
    IRGenBase &base;
    bool within;
  };
  /// The value of the variable, constant, helper, element type or built-in
  /// `name` in the current frame; nullopt when there is none.
  std::optional<SemaValue> lookup(llvm::StringRef name);
  /// The element type or built-in `name` (CuTe DSL's names included), which
  /// no variable hides: what a module's member `cute.name` is.
  static std::optional<SemaValue> lookupBuiltin(llvm::StringRef name);
  /// What a name (`f32`, `range`) or a module's member (`cutlass.Float32`,
  /// `cutlass.range`) stands for; poison after a reported error, nullopt for
  /// an unknown name or another expression.
  std::optional<SemaValue> lookupNamed(const ast::Expr &expr);
  /// The names lookupBuiltin knows, for "did you mean".
  static std::vector<llvm::StringRef> builtinNames();
  /// Every name a kernel may use here, for "did you mean" after a misspelling.
  std::vector<llvm::StringRef> visibleNames() const;
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
  ir::Value *materialize(const IntExpr &e, llvm::SMLoc loc);
  /// `v` with each run-time i32 in it (the value or a tuple's element) a
  /// run-time extent: the layout symbol `?N`, bound to the value by a
  /// `cute.runtime_extent`, so that a layout may hold it (make_layout,
  /// make_tensor). A layout cannot leave the run-time branch or loop that
  /// made it (a variable keeps one layout), so the value is in scope
  /// wherever the layout is used.
  SemaValue withRunTimeExtents(const SemaValue &v, llvm::SMLoc loc);
  /// The builder, or an error saying `what` needs a kernel.
  ir::Builder *requireBuilder(llvm::SMLoc loc, const llvm::Twine &what);
  /// Whether the built-in call is inside a kernel (an error otherwise).
  bool inKernel(CallSite &site) { return requireBuilder(site.loc(), site.callee + "()"); }
  /// The argument count and keyword names of a built-in that checks its own
  /// arguments (an unchecked "..." signature); false after an error.
  bool checkArity(CallSite &site, llvm::StringRef name, size_t min, size_t max,
                  llvm::ArrayRef<llvm::StringRef> keywords = {});

protected:
  IRGen &gen;
  Context &ctx;
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENBASE_H
