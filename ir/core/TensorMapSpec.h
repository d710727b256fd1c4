//===- TensorMapSpec.h - What a TMA tensor map describes ------------------===//
//
// A kernel that copies tiles with TMA receives, per (tensor, box, swizzle),
// a 128-byte tensor map that the host encodes with cuTensorMapEncodeTiled
// (or the emulator's twin). The compiler derives its arguments from the
// tensor's layout and the shared-memory tile; this is that derivation, in
// TMA's own dimension order (dimension 0 is the contiguous one). Extents and
// strides count elements of the tensor and may name the kernel's dynamic
// sizes; the host evaluates them and converts them to the driver's units.
// 4-bit data moves as bytes (TMA's u8 type): the host halves dimension 0,
// the box's dimension 0 and the strides, and refuses sizes that make any of
// them odd.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_TENSORMAPSPEC_H
#define CUTEC_IR_CORE_TENSORMAPSPEC_H

#include "ir/core/DataType.h"
#include "ir/layout/IntExpr.h"

#include <string>
#include <vector>

namespace cutec::ir {

struct TensorMapSpec {
  /// The kernel's tensor parameter the map describes.
  std::string source;
  /// The tensor's element type.
  DataType element = DataType::U8;
  /// Extents of each TMA dimension, in elements.
  std::vector<IntExpr> globalDim;
  /// Strides of dimensions 1..rank-1 in elements (dimension 0 has stride 1).
  std::vector<IntExpr> globalStride;
  /// The box: elements of each dimension copied per load.
  std::vector<int64_t> box;
  /// 0 (none), 32, 64 or 128: the swizzle of the shared-memory image.
  int swizzleBytes = 0;

  size_t rank() const { return box.size(); }
  /// Whether TMA moves the data as bytes holding two elements each.
  bool packsNibbles() const { return bitWidth(element) == 4; }
  /// CUtensorMapDataType of `element` (cuda.h numbering).
  unsigned cudaDataType() const;
  /// CUtensorMapSwizzle of `swizzleBytes` (cuda.h numbering).
  unsigned cudaSwizzle() const;
  /// tensormap<f4e2m1, dims (K,M,L), strides (K,K*M), box (64,128,1), swizzle 128B>
  std::string str() const;
  bool operator==(const TensorMapSpec &o) const;
};

} // namespace cutec::ir

#endif
