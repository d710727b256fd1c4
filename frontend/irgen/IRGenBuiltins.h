// IRGenBuiltins: the IRGen domain (IRGen::builtins()) of calls of built-ins:
// the table-driven dispatch (frontend/Builtins.def), argument binding against a
// row's signature, intrinsics (one op per row), and the generic built-ins
// (layout functions, size, select, block_idx..., element-type constructors, and
// the tensor methods).
#ifndef CUTEC_FRONTEND_IRGEN_IRGENBUILTINS_H
#define CUTEC_FRONTEND_IRGEN_IRGENBUILTINS_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

/// The op that reads block_idx(), thread_idx() or grid_dim(); none for
/// other names.
std::optional<ir::OpKind> indexRegisterOp(llvm::StringRef builtin);
/// The value of a constant of Python's math module ("math.inf"), if it is one.
std::optional<double> mathConstant(llvm::StringRef spelling);

class IRGenBuiltins : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

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
  /// Python's float(x) of a compile-time number or string ('inf', 'nan').
  SemaValue callFloat(CallSite &site);
  /// CuTe DSL's const_expr and make_warp_uniform (IRGenCuteDsl.cpp).
  SemaValue constExpr(CallSite &site);
  /// Python's len of a tuple or string (IRGenPythonObjects.cpp).
  SemaValue callLen(CallSite &site);
  SemaValue makeWarpUniform(CallSite &site);
  SemaValue callSelect(CallSite &site);
  SemaValue callIndexTuple(CallSite &site);
  SemaValue callSmCount(CallSite &site);
  /// One dimension (0..2) of block_idx(), thread_idx() or grid_dim().
  SemaValue indexRegister(ir::OpKind kind, llvm::SMLoc loc, const llvm::Twine &what, int64_t dim);
  SemaValue callMethod(const SemaValue &method, CallSite &site);
  SemaValue callDType(ir::DataType type, CallSite &site);
  /// A tensor's layout stands for the tensor in layout functions.
  std::optional<LayoutValue> layoutArgument(const SemaValue &v);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENBUILTINS_H
