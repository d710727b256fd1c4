//===- KernelArguments.cpp - What each kernel parameter is ----------------===//
#include "ir/core/KernelArguments.h"

namespace cutec::ir {

std::vector<std::string> dynamicSizeNames(const Operation &kernel) {
  std::vector<std::string> names;
  const IntTuple *sizes = kernel.get(attr::dynamicSizes);
  if (!sizes)
    return names;
  std::vector<IntTuple> leaves;
  flattenInto(*sizes, leaves);
  for (const IntTuple &leaf : leaves)
    if (leaf.leaf().kind() == IntExpr::Kind::Symbol)
      names.push_back(leaf.leaf().dynamicNode()->name);
  return names;
}

ArgumentKind argumentKind(const Operation &kernel, const Value &arg) {
  if (arg.type().isTensorMap())
    return ArgumentKind::TensorMap;
  if (arg.type().isTensor())
    return ArgumentKind::Tensor;
  if (llvm::is_contained(dynamicSizeNames(kernel), arg.nameHint()))
    return ArgumentKind::DynamicSize;
  return ArgumentKind::Scalar;
}

std::vector<std::string> scalarParameterNames(const Operation &kernel) {
  std::vector<std::string> names;
  for (const auto &arg : kernel.regions()[0]->front().arguments())
    if (argumentKind(kernel, *arg) == ArgumentKind::Scalar)
      names.push_back(arg->nameHint());
  return names;
}

bool isScalarParameterType(DataType type) {
  return type == DataType::I32 || type == DataType::U32 || type == DataType::F32;
}

namespace {

struct ParameterSpelling {
  const char *cxx, *ptx;
};

/// A dynamic size is a uint32_t; a scalar is spelled after its type.
ParameterSpelling spelling(const Operation &kernel, const Value &arg) {
  if (argumentKind(kernel, arg) == ArgumentKind::DynamicSize)
    return {"uint32_t", "u32"};
  switch (arg.type().element()) {
  case DataType::I32:
    return {"int32_t", "s32"};
  case DataType::F32:
    return {"float", "f32"};
  default:
    return {"uint32_t", "u32"};
  }
}

} // namespace

const char *cxxParameterType(const Operation &kernel, const Value &arg) {
  return spelling(kernel, arg).cxx;
}

const char *ptxParameterType(const Operation &kernel, const Value &arg) {
  return spelling(kernel, arg).ptx;
}

} // namespace cutec::ir
