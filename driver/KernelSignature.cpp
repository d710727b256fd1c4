//===- KernelSignature.cpp - What a launcher needs to know about a kernel -===//
#include "driver/KernelSignature.h"

#include "ir/core/DynamicSizes.h"
#include "ir/core/KernelArguments.h"
#include "ir/core/LaunchChecks.h"
#include "ir/core/TensorMapSpec.h"
#include "ir/layout/Layout.h"

namespace cutec {
namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

Value expression(const IntExpr &e) {
  if (e.isStatic())
    return e.staticValue();
  const IntExpr::Node &node = *e.dynamicNode();
  Array operands;
  for (const IntExpr &operand : node.operands)
    operands.push_back(expression(operand));
  auto withConstant = [&](const char *op) {
    Array form{op, node.coeff};
    for (Value &operand : operands)
      form.push_back(std::move(operand));
    return form;
  };
  switch (node.kind) {
  case IntExpr::Kind::Symbol:
    return node.name;
  case IntExpr::Kind::Add:
    return withConstant("add");
  case IntExpr::Kind::Mul:
    return withConstant("mul");
  case IntExpr::Kind::Div:
    return Array{"div", std::move(operands[0]), std::move(operands[1])};
  case IntExpr::Kind::CeilDiv:
    return Array{"ceil_div", std::move(operands[0]), std::move(operands[1])};
  case IntExpr::Kind::Mod:
    return Array{"mod", std::move(operands[0]), std::move(operands[1])};
  case IntExpr::Kind::Min:
    return Array{"min", std::move(operands[0]), std::move(operands[1])};
  case IntExpr::Kind::Const:
    break;
  }
  return e.staticValue();
}

/// The layout's top-level modes, each [extent, stride] when both are
/// single expressions, null when the mode is nested.
Array modes(const Layout &layout) {
  Array out;
  for (size_t i = 0; i < layout.rank(); ++i) {
    Layout mode = layout[i];
    if (mode.shape.isLeaf() && mode.stride.isLeaf())
      out.push_back(Array{expression(mode.shape.leaf()), expression(mode.stride.leaf())});
    else
      out.push_back(nullptr);
  }
  return out;
}

Array flatExpressions(const IntTuple *t, size_t minimum, int64_t fill) {
  Array out;
  if (t) {
    std::vector<IntTuple> leaves;
    flattenInto(*t, leaves);
    for (const IntTuple &leaf : leaves)
      out.push_back(expression(leaf.leaf()));
  }
  while (out.size() < minimum)
    out.push_back(fill);
  return out;
}

Object tensorMap(const ir::TensorMapSpec &spec) {
  Array dims, strides, box;
  for (const IntExpr &d : spec.globalDim)
    dims.push_back(expression(d));
  for (const IntExpr &s : spec.globalStride)
    strides.push_back(expression(s));
  for (int64_t b : spec.box)
    box.push_back(b);
  return Object{{"source", spec.source},
                {"dtype", ir::name(spec.element)},
                {"bits", ir::bitWidth(spec.element)},
                {"cuda_data_type", spec.cudaDataType()},
                {"cuda_swizzle", spec.cudaSwizzle()},
                {"packs_nibbles", spec.packsNibbles()},
                {"dims", std::move(dims)},
                {"strides", std::move(strides)},
                {"box", std::move(box)},
                {"text", spec.str()}};
}

Object parameter(const ir::Operation &kernel, const ir::Value &arg) {
  Object p{{"name", arg.nameHint()}, {"index", int64_t(arg.index())}};
  const ir::Type &type = arg.type();
  switch (ir::argumentKind(kernel, arg)) {
  case ir::ArgumentKind::Tensor: {
    const Layout &layout = type.tensorLayout();
    p["kind"] = "tensor";
    p["dtype"] = ir::name(type.element());
    p["bits"] = type.element() == ir::DataType::Bool ? 8 : ir::bitWidth(type.element());
    p["layout"] = layout.str();
    p["modes"] = modes(layout);
    p["cosize"] = expression(cosize(layout));
    break;
  }
  case ir::ArgumentKind::TensorMap:
    p["kind"] = "tensormap";
    p["map"] = tensorMap(type.tensorMapSpec());
    break;
  case ir::ArgumentKind::DynamicSize:
    p["kind"] = "size";
    p["dtype"] = ir::ptxParameterType(kernel, arg);
    break;
  case ir::ArgumentKind::Scalar:
    p["kind"] = "scalar";
    p["dtype"] = ir::name(type.element());
    break;
  }
  return p;
}

Object kernelObject(const ir::Operation &kernel) {
  const ir::Block &entry = kernel.regions()[0]->front();
  Array params, sizes, scalars, checks;
  for (const auto &arg : entry.arguments())
    params.push_back(parameter(kernel, *arg));
  for (const std::string &size : ir::dynamicSizeNames(kernel))
    sizes.push_back(size);
  for (const std::string &scalar : ir::scalarParameterNames(kernel))
    scalars.push_back(scalar);
  for (const ir::LaunchCheck &check : ir::launchChecks(kernel))
    checks.push_back(Object{{"param", check.field},
                            {"divisor", check.divisor},
                            {"is_address", check.isAddress}});
  Value cluster = nullptr;
  if (const IntTuple *c = kernel.get(ir::attr::cluster))
    cluster = flatExpressions(c, 3, 1);
  const int64_t *shared = kernel.get(ir::attr::sharedBytes);
  return Object{{"name", *kernel.get(ir::attr::name)},
                {"params", std::move(params)},
                {"sizes", std::move(sizes)},
                {"scalars", std::move(scalars)},
                {"grid", flatExpressions(kernel.get(ir::attr::grid), 3, 1)},
                {"block", flatExpressions(kernel.get(ir::attr::block), 3, 1)},
                {"cluster", std::move(cluster)},
                {"shared_bytes", shared ? *shared : 0},
                {"checks", std::move(checks)}};
}

} // namespace

llvm::json::Value describeKernels(const ir::Module &module) {
  Array kernels;
  for (const auto &kernel : module.kernels())
    kernels.push_back(kernelObject(*kernel));
  return Object{{"kernels", std::move(kernels)}};
}

} // namespace cutec
