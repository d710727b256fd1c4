// TMA tensor maps for the emulation: the host-side encoding of a tiled
// tensor map (what cuTensorMapEncodeTiled does for the driver) and its
// decoding by cp.async.bulk.tensor (runtime/memory/Tma.h).
//
// The enums carry cuda.h's numeric values (CUtensorMapDataType, ...), so the
// compiler prints one number for both the driver and the emulation. The
// 128-byte TensorMap is the kernel parameter (`.param .align 64 .b8
// tmap[128]`); what the emulation keeps inside is its own encoding (see
// TensorMap.cpp), checked by a magic word when a copy decodes it.
#pragma once

#include "hardware/TmaSwizzle.h"

#include <cstdint>
#include <string>

namespace cutec::rt {

enum class TmaDataType : uint32_t {
  Uint8 = 0,
  Uint16,
  Uint32,
  Int32,
  Uint64,
  Int64,
  Float16,
  Float32,
  Float64,
  Bfloat16,
  Float32Ftz,
  Tfloat32,
  Tfloat32Ftz
};
enum class TmaInterleave : uint32_t { None = 0, B16, B32 };
using hw::TmaSwizzle;
enum class TmaL2Promotion : uint32_t { None = 0, B64, B128, B256 };
enum class TmaOobFill : uint32_t { None = 0, NanRequestZeroFma };

/// The 128-byte, 64-byte-aligned kernel parameter, like CUtensorMap.
struct alignas(64) TensorMap {
  uint64_t opaque[16];
};
static_assert(sizeof(TensorMap) == 128);

/// cuTensorMapEncodeTiled for the emulation: the same parameters and the
/// same validity rules (the CUDA driver API documentation of
/// cuTensorMapEncodeTiled). Returns "" on success, else one line saying which
/// rule the arguments break, where the driver answers
/// CUDA_ERROR_INVALID_VALUE. Interleaved layouts are valid for the driver but
/// not modelled by the emulation; they are refused with a message that says
/// so. `map` is written only on success.
std::string encodeTensorMapTiled(TensorMap &map, TmaDataType type, uint32_t rank,
                                 const void *globalAddress, const uint64_t *globalDim,
                                 const uint64_t *globalStrides, const uint32_t *boxDim,
                                 const uint32_t *elementStrides, TmaInterleave interleave,
                                 TmaSwizzle swizzle, TmaL2Promotion l2Promotion,
                                 TmaOobFill oobFill);

/// Bytes per element of `type` (0 for a value outside the enum).
uint32_t tmaElementBytes(TmaDataType type);

/// A decoded tensor map: what a tile copy needs.
struct TensorMapInfo {
  TmaDataType type;
  uint32_t rank;
  uint64_t globalAddress;
  uint64_t globalDim[5];
  /// Byte strides of dimensions 0..4; dimension 0's is the element size.
  uint64_t globalStride[5];
  uint32_t boxDim[5];
  /// The traversal stride of each dimension; dimension 0's is always 1
  /// (the driver ignores elementStrides[0] without interleave).
  uint32_t elementStride[5];
  TmaSwizzle swizzle;
  TmaOobFill oobFill;

  uint32_t elementBytes() const { return tmaElementBytes(type); }
  /// Elements the box holds along dimension d: ceil(boxDim / elementStride).
  uint32_t boxElements(uint32_t d) const {
    return (boxDim[d] + elementStride[d] - 1) / elementStride[d];
  }
  /// Bytes of the box's elements: the transaction bytes of a load
  /// (padding between rows, below, is neither written nor counted).
  uint32_t boxBytes() const;
  /// Bytes of one box row, dimension 0's elements.
  uint32_t boxRowBytes() const { return boxElements(0) * elementBytes(); }
  /// Bytes from one box row to the next in shared memory: the row itself
  /// without swizzle; the swizzle span (32/64/128) with one, even when the
  /// row is narrower. The bytes between a narrow row's end and the next
  /// row are left untouched (measured on an H100, docs/emulator.md).
  uint32_t sharedRowPitch() const;
  /// Bytes the box spans in shared memory from its destination:
  /// boxBytes() / boxRowBytes() rows of sharedRowPitch() bytes.
  uint32_t sharedBoxBytes() const;
};

/// Decodes a map that encodeTensorMapTiled wrote; false for anything else.
bool decodeTensorMap(const TensorMap &map, TensorMapInfo &info);

using hw::tmaSwizzleAddress;
using hw::tmaSwizzleSpan;

} // namespace cutec::rt
