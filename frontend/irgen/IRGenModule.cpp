// IRGenModule at the top level: constants and helpers in source order, then
// each kernel: its parameter types (which introduce the dynamic sizes), its
// @kernel decorator, its body, and the verifier.
#include "frontend/irgen/IRGen.h"

#include "ir/core/KernelArguments.h"
#include "ir/core/Verifier.h"

namespace cutec {

std::unique_ptr<ir::Module> IRGenModule::run(const ast::Module &module) {
  Frame moduleFrame{&ctx.globals};
  ctx.frame = &moduleFrame;
  std::vector<const ast::FunctionDef *> kernels;
  for (const ast::StmtPtr &stmt : module.getBody()) {
    const auto *def = llvm::dyn_cast<ast::FunctionDef>(stmt.get());
    if (def && !def->getDecorators().empty()) {
      // Kernels are built after the whole top level is known, so that their
      // bodies see every constant and helper, as Python's would at call time.
      auto previous = ctx.globals.find(def->getName());
      if (previous != ctx.globals.end() && previous->second.is(SemaValue::Kind::Kernel)) {
        // The name is the PTX entry point: it must be unique.
        error(def->getNameRange().Start,
              "a kernel named '" + def->getName() + "' is already defined", {def->getNameRange()});
        ctx.diags.note(previous->second.function().getNameRange().Start, "the first definition");
        continue;
      }
      kernels.push_back(def);
      ctx.globals[def->getName()] = SemaValue::kernel(*def);
      continue;
    }
    defineTopLevel(*stmt);
  }
  auto result = std::make_unique<ir::Module>();
  for (const ast::FunctionDef *def : kernels) {
    auto kernel = std::make_unique<ir::Operation>(ir::OpKind::Kernel, def->getLoc());
    kernel->set(ir::attr::name, def->getName().str());
    Scope locals;
    Frame kernelFrame{&locals};
    ctx.frame = &kernelFrame;
    ctx.dynamicSizeArgs.clear();
    ctx.runTimeExtents.clear();
    ctx.sharedBytes = 0;
    ctx.sharedAlign = 16;
    ctx.tmemColumns = 0;
    ctx.clusterCtas = 1;
    ctx.blockThreads = 0;
    ctx.clusterShape = {1, 1, 1};
    ctx.kernelCtaGroup = 0;
    [[maybe_unused]] unsigned errorsBefore = ctx.diags.errorCount();
    // The body is analysed even when a parameter type failed (that
    // parameter is poison), so its own mistakes are reported too.
    buildKernelSignature(*def, *kernel);
    ir::Builder kernelBuilder(kernel->regions().front()->front());
    ctx.builder = &kernelBuilder;
    gen.stmts().startKernelBody();
    gen.stmts().execBlock(def->getBody());
    kernelBuilder.create(ir::OpKind::Return, def->getLoc());
    ctx.builder = nullptr;
    if (ctx.sharedBytes > 0) {
      kernel->set(ir::attr::sharedBytes, ctx.sharedBytes);
      kernel->set(ir::attr::sharedAlign, ctx.sharedAlign);
    }
#ifndef NDEBUG
    if (ctx.diags.errorCount() == errorsBefore)
      verifyKernel(*kernel);
#endif
    result->kernels().push_back(std::move(kernel));
    ctx.frame = &moduleFrame;
  }
  ctx.frame = nullptr;
  if (ctx.diags.hasErrors())
    return nullptr;
  return result;
}

void IRGenModule::defineTopLevel(const ast::Stmt &stmt) {
  if (const auto *def = llvm::dyn_cast<ast::FunctionDef>(&stmt))
    return defineHelper(*def);
  if (llvm::isa<ast::AssignStmt, ast::PassStmt>(stmt))
    return gen.stmts().exec(stmt);
  if (const auto *expr = llvm::dyn_cast<ast::ExprStmt>(&stmt))
    if (llvm::isa<ast::StringLiteralExpr>(expr->getExpr()))
      return; // a docstring
  error(stmt, "only constant definitions and functions are allowed at the top level");
}

void IRGenModule::defineHelper(const ast::FunctionDef &def) {
  std::vector<std::optional<SemaValue>> defaults;
  llvm::StringSet<> names;
  for (const auto &param : def.getParams()) {
    if (!names.insert(param->getName()).second)
      error(*param, "duplicate parameter '" + param->getName() + "'");
    std::optional<SemaValue> value;
    if (const ast::Expr *d = param->getDefault())
      value = gen.exprs().eval(*d);
    defaults.push_back(std::move(value));
  }
  ctx.helperDefaults[&def] = std::move(defaults);
  ctx.globals[def.getName()] = SemaValue::helper(def);
}

std::optional<ir::Type> IRGenModule::evalParamType(const ast::Param &param) {
  const ast::Expr *annotation = param.getAnnotation();
  if (!annotation) {
    error(param, "kernel parameter '" + param.getName() +
                     "' needs a type: Tensor[element type, layout], i32, u32 or f32");
    return std::nullopt;
  }
  // A scalar: `n: i32`, `alpha: f32`, `alpha: cutlass.Float32`.
  if (llvm::isa<ast::NameExpr, ast::AttributeExpr>(annotation)) {
    std::optional<SemaValue> dtype = lookupNamed(*annotation);
    if (dtype && dtype->isPoison())
      return std::nullopt;
    if (dtype && dtype->is(SemaValue::Kind::DType) && ir::isScalarParameterType(dtype->dataType()))
      return ir::Type::scalar(dtype->dataType());
    if (dtype && dtype->is(SemaValue::Kind::DType)) {
      error(*annotation, "a scalar kernel parameter is i32, u32 or f32, not " +
                             ir::name(dtype->dataType()) +
                             " (pass narrower values in a tensor, or convert in the kernel)");
      return std::nullopt;
    }
  }
  const auto *subscript = llvm::dyn_cast<ast::SubscriptExpr>(annotation);
  const auto *base = subscript ? llvm::dyn_cast<ast::NameExpr>(&subscript->getBase()) : nullptr;
  if (!base || base->getName() != "Tensor") {
    error(*annotation, "the type of a kernel parameter must be Tensor[element type, layout], "
                       "i32, u32 or f32");
    return std::nullopt;
  }
  if (subscript->getIndices().size() != 2) {
    error(*subscript, "Tensor[...] takes an element type and a layout");
    return std::nullopt;
  }
  const ast::Expr &dtypeExpr = *subscript->getIndices()[0];
  const auto *dtypeName = llvm::dyn_cast<ast::NameExpr>(&dtypeExpr);
  std::optional<SemaValue> dtype = lookupNamed(dtypeExpr);
  std::optional<ir::DataType> element;
  if (dtype && dtype->isPoison())
    ; // reported
  else if (dtype && dtype->is(SemaValue::Kind::DType) && ir::isOpaque(dtype->dataType()))
    error(dtypeExpr, ir::name(dtype->dataType()) + " holds cluster launch control responses, "
                     "which live in shared memory: no kernel parameter has that type");
  else if (dtype && dtype->is(SemaValue::Kind::DType))
    element = dtype->dataType();
  else if (dtypeName && !dtype)
    error(dtypeExpr, "unknown element type '" + dtypeName->getName() + "'");
  else
    error(dtypeExpr, "expected an element type such as f16");
  SemaValue layout = gen.exprs().eval(*subscript->getIndices()[1]);
  if (!element || layout.isPoison())
    return std::nullopt;
  const ast::Expr &layoutExpr = *subscript->getIndices()[1];
  std::optional<LayoutValue> value = layout.toLayoutValue();
  if (value && value->get<IntTuple>()) // a plain shape: compact, column-major
    value = LayoutValue(makeLayout(*value->get<IntTuple>()));
  if (!value || !value->get<Layout>()) {
    error(layoutExpr, "expected a layout for the tensor, found " + layout.describe());
    return std::nullopt;
  }
  return ir::Type::tensor(*element, ir::MemorySpace::Global, *value->get<Layout>());
}

void IRGenModule::buildKernelSignature(const ast::FunctionDef &def, ir::Operation &kernel) {
  std::vector<std::string> dynamicSizes;
  std::vector<std::optional<ir::Type>> types;
  ctx.frame->dynamicSizes = &dynamicSizes;
  for (const auto &param : def.getParams()) {
    if (param->getDefault())
      error(*param->getDefault(), "kernel parameters cannot have default values");
    types.push_back(evalParamType(*param));
  }
  ctx.frame->dynamicSizes = nullptr;
  std::vector<std::string> tensors;
  for (size_t i = 0; i < types.size(); ++i)
    if (types[i] && types[i]->isTensor())
      tensors.push_back(def.getParams()[i]->getName().str());
  evalKernelDecorator(def, kernel, dynamicSizes, tensors);

  ir::Block &body = kernel.addRegion().addBlock();
  llvm::StringSet<> names;
  for (size_t i = 0; i < types.size(); ++i) {
    const ast::Param &param = *def.getParams()[i];
    if (!names.insert(param.getName()).second)
      error(param, "duplicate parameter '" + param.getName() + "'");
    else if (llvm::is_contained(dynamicSizes, param.getName()))
      error(param, "parameter '" + param.getName() +
                       "' has the name of a dynamic size of the parameter types");
    if (!types[i]) {
      (*ctx.frame->locals)[param.getName()] = SemaValue::poison();
      continue;
    }
    ir::Value *arg = body.addArgument(*types[i], param.getName());
    (*ctx.frame->locals)[param.getName()] = SemaValue::runTime(arg);
  }
  std::vector<IntTuple> symbols;
  for (const std::string &size : dynamicSizes) {
    ctx.dynamicSizeArgs[size] = body.addArgument(ir::Type::scalar(ir::DataType::I32), size);
    symbols.push_back(IntExpr::symbol(size));
  }
  kernel.set(ir::attr::dynamicSizes, IntTuple::tuple(std::move(symbols)));
}

// block= and grid= as (x,y,z) IntTuples; block static, grid over the dynamic
// sizes.
void IRGenModule::evalKernelDecorator(const ast::FunctionDef &def, ir::Operation &kernel,
                                      llvm::ArrayRef<std::string> dynamicSizes,
                                      llvm::ArrayRef<std::string> tensors) {
  const ast::ExprList &decorators = def.getDecorators();
  if (decorators.size() != 1) {
    error(*decorators[1], "a kernel takes exactly one decorator, @kernel(block=..., grid=...)");
    return;
  }
  const ast::Expr &decorator = *decorators.front();
  const auto *call = llvm::dyn_cast<ast::CallExpr>(&decorator);
  const auto *callee = llvm::dyn_cast<ast::NameExpr>(call ? &call->getCallee() : &decorator);
  if (!callee || callee->getName() != "kernel") {
    error(decorator, "unknown decorator: kernels are declared with @kernel(block=..., grid=...)");
    return;
  }
  if (!call) {
    error(decorator, "missing block= and grid= in @kernel");
    return;
  }
  if (!call->getArgs().empty()) {
    error(*call->getArgs().front(), "@kernel takes keyword arguments only: block=..., grid=...");
    return;
  }
  auto shape3 = [&](llvm::StringRef key, const ast::Expr &expr) {
    ctx.evaluatingGrid = key == "grid";
    SemaValue v = gen.exprs().eval(expr);
    ctx.evaluatingGrid = false;
    if (v.isPoison())
      return;
    std::vector<SemaValue> dims =
        v.is(SemaValue::Kind::Tuple) ? v.elements() : std::vector<SemaValue>{v};
    if (dims.empty() || dims.size() > 3) {
      error(expr, key + " must be an integer or a tuple of one to three integers");
      return;
    }
    std::vector<IntTuple> extents;
    for (const SemaValue &d : dims) {
      if (d.isPoison())
        return;
      if (!d.is(SemaValue::Kind::Int)) {
        error(expr, key + " must be an integer or a tuple of integers, not " + d.describe());
        return;
      }
      if (key != "grid" && !d.intValue().isStatic()) {
        error(expr, key + " must be static, not " + d.intValue().str());
        return;
      }
      if (d.intValue().isStatic() && d.intValue().staticValue() <= 0) {
        error(expr, key + " extents must be positive, not " + d.intValue().str());
        return;
      }
      extents.push_back(d.intValue());
    }
    extents.resize(3, IntTuple(1));
    if (key == "block") {
      ctx.blockThreads = 1;
      for (const IntTuple &e : extents)
        ctx.blockThreads *= e.leaf().staticValue();
    }
    if (key == "cluster") {
      // At most 16 CTAs form a cluster (8 portably; more needs an opt-in).
      ctx.clusterCtas = 1;
      for (size_t d = 0; d < 3; ++d) {
        ctx.clusterShape[d] = extents[d].leaf().staticValue();
        ctx.clusterCtas *= ctx.clusterShape[d];
      }
      if (ctx.clusterCtas > 16) {
        error(expr, "a cluster has at most 16 CTAs, not " + llvm::Twine(ctx.clusterCtas));
        return;
      }
    }
    kernel.setAttr(key.str(), IntTuple::tuple(std::move(extents)));
  };
  llvm::StringSet<> seen;
  for (const ast::KeywordArg &kw : call->getKeywords()) {
    if (kw.name != "block" && kw.name != "grid" && kw.name != "cluster" && kw.name != "assume") {
      error(kw.nameRange.Start, "unknown @kernel argument '" + kw.name + "'", {kw.nameRange});
      continue;
    }
    if (!seen.insert(kw.name).second) {
      error(kw.nameRange.Start, "duplicate @kernel argument '" + kw.name + "'", {kw.nameRange});
      continue;
    }
    if (kw.name == "assume")
      evalAssumptions(*kw.value, kernel, dynamicSizes, tensors);
    else
      shape3(kw.name, *kw.value);
  }
  for (llvm::StringRef key : {"block", "grid"})
    if (!seen.contains(key))
      error(decorator, "missing " + key + "= in @kernel");
}

void IRGenModule::verifyKernel(const ir::Operation &kernel) {
  for (const ir::VerifierIssue &issue : ir::verify(kernel))
    error(issue.loc, "internal error: the generated IR does not verify: " + issue.message);
}

} // namespace cutec
