//===- Type.h - Types of IR values ----------------------------------------===//
//
// A value is a scalar of some element type, a tensor (element type, memory
// space and layout: a view of memory or a register fragment), a compile-time
// layout, or a TMA tensor map (a kernel parameter the host encodes). Tensor
// layouts may have dynamic leaves named after the kernel's run-time sizes. A
// shared-memory tensor may carry a swizzle, which applies to its byte offsets
// from the start of its allocation, as CuTe's swizzled smem layouts do
// (printed `S<3,4,3> o 0 o L`).
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_TYPE_H
#define CUTEC_IR_CORE_TYPE_H

#include "ir/core/DataType.h"
#include "ir/core/TensorMapSpec.h"
#include "ir/layout/Layout.h"
#include "ir/layout/Swizzle.h"

#include <memory>

namespace cutec::ir {

/// Where a tensor's elements are. `Coordinate` holds no memory: its tensors
/// are views of an identity tensor (make_identity_tensor), whose element at
/// offset o is o itself, one tensor per coordinate mode. `ClusterShared`
/// is the shared memory of a CTA of the cluster reached through mapa
/// (distributed shared memory): a view of it names its CTA's rank.
enum class MemorySpace : unsigned char {
  Global,
  Shared,
  Tensor,
  Register,
  Coordinate,
  ClusterShared
};
llvm::StringRef name(MemorySpace space);

class Type {
public:
  enum class Kind : unsigned char { None, Scalar, Tensor, Layout, TensorMap };

  Type() = default;
  static Type scalar(DataType element);
  static Type tensor(DataType element, MemorySpace space, cutec::Layout layout,
                     Swizzle swizzle = {});
  static Type layout();
  static Type tensorMap(TensorMapSpec spec);

  Kind kind() const { return typeKind; }
  bool isScalar() const { return typeKind == Kind::Scalar; }
  bool isTensor() const { return typeKind == Kind::Tensor; }
  bool isLayout() const { return typeKind == Kind::Layout; }
  bool isTensorMap() const { return typeKind == Kind::TensorMap; }
  DataType element() const { return elementType; }
  MemorySpace memorySpace() const { return space; }
  const cutec::Layout &tensorLayout() const { return *layoutPtr; }
  /// The byte-address swizzle of a shared-memory tensor (identity if none).
  const Swizzle &tensorSwizzle() const { return swizzle; }
  const TensorMapSpec &tensorMapSpec() const { return *mapSpec; }

  bool operator==(const Type &other) const;
  bool operator!=(const Type &other) const { return !(*this == other); }
  /// i32, tensor<f4e2m1, gmem, (M,K,L):(K,1,K*M)>, layout.
  std::string str() const;

private:
  Kind typeKind = Kind::None;
  DataType elementType = DataType::I32;
  MemorySpace space = MemorySpace::Register;
  std::shared_ptr<const cutec::Layout> layoutPtr;
  Swizzle swizzle;
  std::shared_ptr<const TensorMapSpec> mapSpec;
};

} // namespace cutec::ir

#endif
