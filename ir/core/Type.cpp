//===- Type.cpp - Types of IR values --------------------------------------===//
#include "ir/core/Type.h"

namespace cutec::ir {

llvm::StringRef name(MemorySpace space) {
  switch (space) {
  case MemorySpace::Global:
    return "gmem";
  case MemorySpace::Shared:
    return "smem";
  case MemorySpace::Tensor:
    return "tmem";
  case MemorySpace::Register:
    return "rmem";
  case MemorySpace::Coordinate:
    return "coord";
  case MemorySpace::ClusterShared:
    return "dsmem";
  }
  return "?";
}

Type Type::scalar(DataType element) {
  Type t;
  t.typeKind = Kind::Scalar;
  t.elementType = element;
  return t;
}

Type Type::tensor(DataType element, MemorySpace space, cutec::Layout layout, Swizzle swizzle) {
  Type t;
  t.typeKind = Kind::Tensor;
  t.elementType = element;
  t.space = space;
  t.layoutPtr = std::make_shared<const cutec::Layout>(std::move(layout));
  t.swizzle = swizzle;
  return t;
}

Type Type::tensorMap(TensorMapSpec spec) {
  Type t;
  t.typeKind = Kind::TensorMap;
  t.elementType = spec.element;
  t.mapSpec = std::make_shared<const TensorMapSpec>(std::move(spec));
  return t;
}

Type Type::layout() {
  Type t;
  t.typeKind = Kind::Layout;
  return t;
}

bool Type::operator==(const Type &other) const {
  if (typeKind != other.typeKind)
    return false;
  switch (typeKind) {
  case Kind::None:
  case Kind::Layout:
    return true;
  case Kind::Scalar:
    return elementType == other.elementType;
  case Kind::Tensor:
    return elementType == other.elementType && space == other.space &&
           *layoutPtr == *other.layoutPtr && swizzle == other.swizzle;
  case Kind::TensorMap:
    return *mapSpec == *other.mapSpec;
  }
  return false;
}

std::string Type::str() const {
  switch (typeKind) {
  case Kind::None:
    return "none";
  case Kind::Scalar:
    return name(elementType).str();
  case Kind::Layout:
    return "layout";
  case Kind::Tensor:
    return "tensor<" + name(elementType).str() + ", " + name(space).str() + ", " +
           (swizzle.isIdentity() ? "" : swizzle.str() + " o 0 o ") + layoutPtr->str() + ">";
  case Kind::TensorMap:
    return mapSpec->str();
  }
  return "?";
}

} // namespace cutec::ir
