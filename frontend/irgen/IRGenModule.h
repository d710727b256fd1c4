// IRGenModule: the IRGen domain (IRGen::topLevel()) of the module's top level
// and kernel signatures: constants and helpers in source order, then each
// kernel's parameter types (which introduce the dynamic sizes), its @kernel
// decorator and assume=, its body and the verifier.
//
// Implemented in:
//   IRGenModule.cpp top level, kernel signatures, dynamic sizes
//   IRGenAssume.cpp assume= of @kernel
#ifndef CUTEC_FRONTEND_IRGEN_IRGENMODULE_H
#define CUTEC_FRONTEND_IRGEN_IRGENMODULE_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenModule : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  /// The kernels of `module` as kernel IR, or null after an error (buildIR).
  std::unique_ptr<ir::Module> run(const ast::Module &module);
  void defineTopLevel(const ast::Stmt &stmt);
  void defineHelper(const ast::FunctionDef &def);
  void buildKernelSignature(const ast::FunctionDef &def, ir::Operation &kernel);
  /// A kernel parameter's type: a global tensor or a scalar.
  std::optional<ir::Type> evalParamType(const ast::Param &param);
  /// `dynamicSizes` and `tensors` (the tensor parameters) are what assume=
  /// may state facts about.
  void evalKernelDecorator(const ast::FunctionDef &def, ir::Operation &kernel,
                           llvm::ArrayRef<std::string> dynamicSizes,
                           llvm::ArrayRef<std::string> tensors);
  void evalAssumptions(const ast::Expr &expr, ir::Operation &kernel,
                       llvm::ArrayRef<std::string> dynamicSizes,
                       llvm::ArrayRef<std::string> tensors);
  void verifyKernel(const ir::Operation &kernel);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENMODULE_H
