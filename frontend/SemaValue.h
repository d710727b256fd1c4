// SemaValue: what an expression of the kernel language evaluates to during
// semantic analysis.
//
// Most of a kernel is known at compile time: integers (static, or symbolic
// over the dynamic sizes such as ceil_div(K,64)), floats, bools, tuples,
// layouts, element types, functions. The rest are run-time values: IR values
// (scalars and tensors) created in the kernel being built. One value type
// holds both, so the same expression code folds what it can and emits IR for
// the rest. A Poison value stands for an expression that already produced an
// error; every operation on it yields Poison silently, so one mistake gives
// one diagnostic.
#ifndef CUTEC_FRONTEND_SEMAVALUE_H
#define CUTEC_FRONTEND_SEMAVALUE_H

#include "frontend/AST.h"
#include "frontend/TiledMma.h"
#include "ir/core/IR.h"
#include "ir/layout/LayoutValue.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cutec {

class SemaValue {
public:
  enum class Kind {
    Poison,     // an error was already reported
    None,       // the result of a call that returns nothing
    Int,        // IntExpr: static or symbolic over dynamic sizes
    Float,      // a float literal's value
    Bool,       // True, False, or a folded comparison
    Underscore, // `_`, a whole mode
    Tuple,      // (a, b, ...); elements may be run-time values
    Layout,     // a layout, tiler, swizzle or swizzled layout
    DType,      // an element type, e.g. f32
    String,     // a string literal, e.g. gemm's kind="mxf4nvf4"
    Helper,     // a `def` without decorator
    Kernel,     // a `@kernel def` (not callable)
    Builtin,    // a built-in function, by name
    Method,     // `receiver.name`, waiting for its call
    RunTime,    // an IR value: scalar or tensor
    TiledMma,   // make_tiled_mma's value, or its get_slice (frontend/TiledMma.h)
    Object,     // a built-in object (NamedBarrier, a pipeline, its state): a
                // class name and named fields, compile-time or run-time
  };

  SemaValue() = default;
  static SemaValue poison() { return SemaValue(Kind::Poison); }
  static SemaValue none() { return SemaValue(Kind::None); }
  static SemaValue integer(IntExpr v);
  static SemaValue floating(double v);
  static SemaValue boolean(bool v);
  static SemaValue underscore() { return SemaValue(Kind::Underscore); }
  static SemaValue tuple(std::vector<SemaValue> elements);
  /// An IntTuple becomes an Int or a Tuple (of Ints and Underscores); any
  /// other layout value stays a Layout.
  static SemaValue fromLayoutValue(LayoutValue v);
  static SemaValue fromIntTuple(const IntTuple &t);
  static SemaValue dtype(ir::DataType t);
  /// `text` lives in the AST.
  static SemaValue string(llvm::StringRef text);
  static SemaValue helper(const ast::FunctionDef &def);
  static SemaValue kernel(const ast::FunctionDef &def);
  static SemaValue builtin(llvm::StringRef name);
  static SemaValue method(SemaValue receiver, llvm::StringRef name);
  static SemaValue runTime(ir::Value *v);
  static SemaValue tiledMma(TiledMma mma);
  /// An object of the built-in class `className` (a static string): its
  /// methods are the built-in table's "className.method" rows.
  static SemaValue object(llvm::StringRef className, std::vector<std::string> fieldNames,
                          std::vector<SemaValue> fieldValues);

  Kind kind() const { return valueKind; }
  bool is(Kind k) const { return valueKind == k; }
  /// `_`, or CuTe DSL's spelling of it, None: a whole mode in a slice, a
  /// tiler or a profile.
  bool isWildcard() const { return valueKind == Kind::Underscore || valueKind == Kind::None; }
  bool isPoison() const { return valueKind == Kind::Poison; }

  const IntExpr &intValue() const { return integerValue; }
  double floatValue() const { return realValue; }
  bool boolValue() const { return flag; }
  ir::DataType dataType() const { return elementType; }
  const std::vector<SemaValue> &elements() const { return *children; }
  const LayoutValue &layout() const { return *layoutValue; }
  const ast::FunctionDef &function() const { return *def; }
  /// The builtin's or method's name, or the string's text.
  llvm::StringRef name() const { return label; }
  const SemaValue &receiver() const { return children->front(); }
  ir::Value *irValue() const { return value; }
  const TiledMma &tiledMma() const { return *mmaValue; }
  /// An object's class name (name()), field names and values (elements()).
  llvm::StringRef className() const { return label; }
  const std::vector<std::string> &fieldNames() const { return *names; }
  /// The field called `name`, or null.
  const SemaValue *field(llvm::StringRef name) const;
  /// A copy of the object with field `name` set to `value`.
  SemaValue withField(llvm::StringRef name, SemaValue value) const;
  /// The type of a run-time value.
  const ir::Type &type() const { return value->type(); }

  /// The value as a layout-function argument (an integer, tuple or `_`
  /// becomes an IntTuple), or nullopt if it has no such form (a run-time
  /// value, a float, a function...).
  std::optional<LayoutValue> toLayoutValue() const;

  /// Identity for SSA merging: the same compile-time value or the same IR
  /// value.
  bool sameAs(const SemaValue &other) const;

  /// For messages: "the integer 3", "a tuple", "a value of type f32",
  /// "a tensor<f16, gmem, (4):(1)>".
  std::string describe() const;

private:
  explicit SemaValue(Kind k) : valueKind(k) {}

  Kind valueKind = Kind::Poison;
  IntExpr integerValue;
  double realValue = 0;
  bool flag = false;
  ir::DataType elementType = ir::DataType::I32;
  std::shared_ptr<const std::vector<SemaValue>> children;
  std::shared_ptr<const LayoutValue> layoutValue;
  std::shared_ptr<const TiledMma> mmaValue;
  std::shared_ptr<const std::vector<std::string>> names; // an object's fields
  const ast::FunctionDef *def = nullptr;
  llvm::StringRef label; // static builtin names or AST storage (strings)
  ir::Value *value = nullptr;
};

} // namespace cutec

#endif // CUTEC_FRONTEND_SEMAVALUE_H
