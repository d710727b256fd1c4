// IRGenExpr: the IRGen domain (IRGen::exprs()) of expressions: names,
// operators, tuples, layouts, calls, subscripts and attributes; run-time scalar
// arithmetic and conversions; run-time `and`/`or` and conditional expressions;
// the math library.
//
// Implemented in:
//   IRGenExpr.cpp        names, operators, tuples, layouts, calls
//   IRGenScalar.cpp      run-time scalar arithmetic and conversions
//   IRGenConditional.cpp run-time and/or and conditional expressions
//   IRGenMath.cpp        the math library
#ifndef CUTEC_FRONTEND_IRGEN_IRGENEXPR_H
#define CUTEC_FRONTEND_IRGEN_IRGENEXPR_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

/// Why a kernel cannot `what` ("load", "make a value of") the opaque type
/// `t` (u128): only the cluster launch control built-ins use it.
std::string opaqueValueError(ir::DataType t, llvm::StringRef what);

class IRGenExpr : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  SemaValue eval(const ast::Expr &expr);
  SemaValue evalName(const ast::NameExpr &name);
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
  /// t[(a, b, c)]: replaces the one tuple index of a tensor of rank 2 or
  /// more by its elements, one per mode; false after an error.
  bool spreadTupleIndex(const SemaValue &base, const ast::SubscriptExpr &subscript,
                        std::vector<SemaValue> &indices);
  SemaValue evalAttribute(const ast::AttributeExpr &attribute);
  /// `cute.size`, `cute.arch.thread_idx`: a member of CuTe DSL's `module`
  /// (IRGenCuteDsl.cpp).
  SemaValue moduleMember(const ast::AttributeExpr &attribute, llvm::StringRef module);
  /// `Float32.inf`, `f32.nan`, `Int32.zero`, `f16.width`: CuTe DSL's
  /// attributes of an element type; nullopt when `type` has no `name`.
  static std::optional<SemaValue> dtypeAttribute(ir::DataType type, llvm::StringRef name);
  static std::vector<llvm::StringRef> dtypeAttributeNames(ir::DataType type);
  SemaValue indexTuple(const SemaValue &tuple, const ast::SubscriptExpr &subscript);
  /// `is`, `==` with None, and tuples' `==`, `!=` and `+`, with Python's
  /// meaning (IRGenPythonObjects.cpp); nullopt when `op` is none of them.
  std::optional<SemaValue> foldPythonObjects(ast::BinaryOp op, const SemaValue &lhs,
                                             const SemaValue &rhs, const BinarySite &site);
  /// Python's `a == b` of tuples: element by element, compile-time.
  SemaValue tuplesEqual(const SemaValue &a, const SemaValue &b, const BinarySite &site);
  /// Compile-time integer arithmetic; nullopt when `op` is not one.
  std::optional<SemaValue> foldInts(ast::BinaryOp op, const SemaValue &lhs, const SemaValue &rhs,
                                    const BinarySite &site);
  /// `x op y` for the bitwise operators on static integers.
  SemaValue foldBitwise(ast::BinaryOp op, int64_t x, int64_t y, const BinarySite &site);
  std::optional<SemaValue> foldFloats(ast::BinaryOp op, const SemaValue &lhs, const SemaValue &rhs);
  SemaValue scalarBinary(ast::BinaryOp op, const SemaValue &lhs, const SemaValue &rhs,
                         const BinarySite &site);
  /// Arithmetic is on 32- and 64-bit integers and on f32; reports the
  /// others (bool, f16, i8, f4e2m1...) at `loc`.
  bool checkArithmeticType(ir::DataType t, llvm::SMLoc loc, llvm::SMRange range);
  /// Comparisons also take f16 and bf16 as they are (setp.f16, setp.bf16).
  bool checkComparisonType(ir::DataType t, llvm::SMLoc loc, llvm::SMRange range);
  /// The bitwise operators (`spelling`) are on i32 and u32; reports the
  /// others at `loc`.
  bool checkBitwiseType(ir::DataType t, llvm::StringRef spelling, llvm::SMLoc loc,
                        llvm::SMRange range);
  SemaValue scalarNot(const SemaValue &v, const ast::Expr &expr);
  /// The source of `expr`, followed by `.load()` when `v` is a view of memory.
  static std::string loadedSpelling(const ast::Expr &expr, const SemaValue &v);
  /// "; ... did you mean x.load()?" when `v`, the value of `expr`, is a view
  /// of memory used where a value is needed; otherwise "".
  static std::string loadHint(const ast::Expr &expr, const SemaValue &v);
  SemaValue convert(const SemaValue &v, ir::DataType to, const ast::Expr &expr);
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
  ir::Value *choose(ir::Value *condition, Aside &onTrue, ir::Value *a, Aside &onFalse, ir::Value *b,
                    llvm::SMLoc loc);
  /// `lhs and rhs` / `lhs or rhs` with a run-time bool `lhs`.
  SemaValue shortCircuit(ast::BinaryOp op, const SemaValue &lhs, const ast::BinaryExpr &expr);
  SemaValue evalConditional(const ast::ConditionalExpr &expr);
  SemaValue fragmentConditional(const SemaValue &condition, Aside &onTrue, Aside &onFalse,
                                const ast::ConditionalExpr &expr);
  /// The type both values of a choice (`what`: "a conditional expression",
  /// "where") take: a run-time value's, which a compile-time number adopts;
  /// for two compile-time values, bool, i32 or (with a float) f32. Null
  /// when they cannot meet; `why` then says so.
  static std::optional<ir::DataType> choiceType(const SemaValue &a, const SemaValue &b,
                                                llvm::StringRef what, std::string &why);
  /// max, min, abs, fma, copysign, sqrt, rsqrt, exp, exp2, log, log2, tanh,
  /// rcp_approx.
  SemaValue mathFunctionCall(CallSite &site);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENEXPR_H
