// Encoding and decoding the emulation's tensor maps, with the validity rules
// of cuTensorMapEncodeTiled (CUDA driver API documentation).
//
// The emulation's encoding of the 16 words:
//   [0]      kTensorMapMagic
//   [1]      global address
//   [2]      type | rank << 8 | interleave << 16 | swizzle << 24 | l2 << 32 | oob << 40
//   [3..7]   globalDim[0..4]
//   [8..11]  globalStrides[0..3] (bytes; the strides of dimensions 1..4)
//   [12]     boxDim[d] - 1 in byte d
//   [13]     elementStrides[d] - 1 in byte d
//   [14..15] zero
#include "runtime/memory/TensorMap.h"

#include "runtime/base/DiagnosticText.h"

#include <cstring>

namespace cutec::rt {
namespace {

constexpr uint64_t kTensorMapMagic = 0x31764d5443657475; // "uteCTMv1"

bool isFloat(TmaDataType type) {
  switch (type) {
  case TmaDataType::Float16:
  case TmaDataType::Float32:
  case TmaDataType::Float64:
  case TmaDataType::Bfloat16:
  case TmaDataType::Float32Ftz:
  case TmaDataType::Tfloat32:
  case TmaDataType::Tfloat32Ftz:
    return true;
  default:
    return false;
  }
}

std::string indexed(const char *array, uint32_t i, uint64_t value) {
  return std::string(array) + "[" + std::to_string(i) + "] = " + std::to_string(value);
}

std::string validate(const TensorMap &map, TmaDataType type, uint32_t rank,
                     const void *globalAddress, const uint64_t *globalDim,
                     const uint64_t *globalStrides, const uint32_t *boxDim,
                     const uint32_t *elementStrides, TmaInterleave interleave, TmaSwizzle swizzle,
                     TmaL2Promotion l2Promotion, TmaOobFill oobFill) {
  if (reinterpret_cast<uintptr_t>(&map) % 64)
    return "the tensor map's address is not 64-byte aligned";
  auto typeCode = uint32_t(type);
  if (typeCode >= 13 && typeCode <= 15)
    return "tensorDataType " + std::to_string(typeCode) +
           " (a packed 16U4/16U6 type) is valid for the driver but not modelled by the "
           "emulation; load packed fp4 as Uint8 (two e2m1 per byte)";
  if (typeCode > 15)
    return "tensorDataType " + std::to_string(typeCode) + " is not a CUtensorMapDataType";
  if (rank < 1 || rank > 5)
    return "tensorRank " + std::to_string(rank) + " is outside 1..5";
  if (uint32_t(interleave) > 2)
    return "interleave " + std::to_string(uint32_t(interleave)) +
           " is not a CUtensorMapInterleave";
  if (uint32_t(swizzle) > 6)
    return "swizzle " + std::to_string(uint32_t(swizzle)) + " is not a CUtensorMapSwizzle";
  if (uint32_t(l2Promotion) > 3)
    return "l2Promotion " + std::to_string(uint32_t(l2Promotion)) +
           " is not a CUtensorMapL2promotion";
  if (uint32_t(oobFill) > 1)
    return "oobFill " + std::to_string(uint32_t(oobFill)) + " is not a CUtensorMapFloatOOBfill";
  if (!globalDim || (rank > 1 && !globalStrides) || !boxDim || !elementStrides)
    return "a null globalDim, globalStrides, boxDim or elementStrides array";
  if (interleave != TmaInterleave::None && rank < 3)
    return "an interleaved layout needs tensorRank >= 3, not " + std::to_string(rank);
  uint64_t address = reinterpret_cast<uintptr_t>(globalAddress);
  uint64_t addressAlign = interleave == TmaInterleave::B32 ? 32 : 16;
  if (address % addressAlign)
    return "globalAddress " + hex(address) + " is not " + std::to_string(addressAlign) +
           "-byte aligned";
  for (uint32_t i = 0; i < rank; ++i)
    if (globalDim[i] == 0 || globalDim[i] > (uint64_t(1) << 32))
      return indexed("globalDim", i, globalDim[i]) + " is outside [1, 2^32]";
  uint64_t strideAlign = interleave == TmaInterleave::B32 ? 32 : 16;
  for (uint32_t i = 0; i + 1 < rank; ++i) {
    if (globalStrides[i] % strideAlign)
      return indexed("globalStrides", i, globalStrides[i]) + " is not a multiple of " +
             std::to_string(strideAlign) + " bytes";
    if (globalStrides[i] >= (uint64_t(1) << 40))
      return indexed("globalStrides", i, globalStrides[i]) + " is not below 2^40";
  }
  uint32_t elementBytes = tmaElementBytes(type);
  for (uint32_t i = 0; i < rank; ++i)
    if (boxDim[i] == 0 || boxDim[i] > 256)
      return indexed("boxDim", i, boxDim[i]) + " is outside [1, 256]";
  uint64_t innerBytes = uint64_t(boxDim[0]) * elementBytes;
  if (interleave == TmaInterleave::None && innerBytes % 16)
    return "the box's inner extent boxDim[0] * " + std::to_string(elementBytes) + " = " +
           std::to_string(innerBytes) + " bytes is not a multiple of 16";
  for (uint32_t i = 0; i < rank; ++i)
    if (elementStrides[i] == 0 || elementStrides[i] > 8)
      return indexed("elementStrides", i, elementStrides[i]) + " is outside [1, 8]";
  if (interleave == TmaInterleave::B32 && swizzle != TmaSwizzle::B32)
    return "interleave 32B requires swizzle 32B";
  if (interleave == TmaInterleave::None && swizzle != TmaSwizzle::None) {
    uint32_t span = uint32_t(swizzle) >= 3 ? 128 : tmaSwizzleSpan(swizzle);
    if (innerBytes > span)
      return "the box's inner extent boxDim[0] * " + std::to_string(elementBytes) + " = " +
             std::to_string(innerBytes) + " bytes exceeds the " + std::to_string(span) +
             "-byte swizzle span";
  }
  if (oobFill == TmaOobFill::NanRequestZeroFma && !isFloat(type))
    return "oobFill NAN_REQUEST_ZERO_FMA needs a floating-point tensorDataType, not " +
           std::to_string(typeCode);
  // Valid for the driver; what the emulation does not model.
  if (interleave != TmaInterleave::None)
    return "interleaved layouts are valid for the driver but not modelled by the emulation";
  if (uint32_t(swizzle) > 3)
    return "swizzle " + std::to_string(uint32_t(swizzle)) +
           " (a 128B_ATOM variant) is valid for the driver but not modelled by the emulation";
  return "";
}

} // namespace

uint32_t tmaElementBytes(TmaDataType type) {
  switch (type) {
  case TmaDataType::Uint8:
    return 1;
  case TmaDataType::Uint16:
  case TmaDataType::Float16:
  case TmaDataType::Bfloat16:
    return 2;
  case TmaDataType::Uint32:
  case TmaDataType::Int32:
  case TmaDataType::Float32:
  case TmaDataType::Float32Ftz:
  case TmaDataType::Tfloat32:
  case TmaDataType::Tfloat32Ftz:
    return 4;
  case TmaDataType::Uint64:
  case TmaDataType::Int64:
  case TmaDataType::Float64:
    return 8;
  }
  return 0;
}

uint32_t TensorMapInfo::boxBytes() const {
  uint32_t bytes = elementBytes();
  for (uint32_t d = 0; d < rank; ++d)
    bytes *= boxElements(d);
  return bytes;
}

uint32_t TensorMapInfo::sharedRowPitch() const {
  return swizzle == TmaSwizzle::None ? boxRowBytes() : tmaSwizzleSpan(swizzle);
}

uint32_t TensorMapInfo::sharedBoxBytes() const {
  return boxBytes() / boxRowBytes() * sharedRowPitch();
}

std::string encodeTensorMapTiled(TensorMap &map, TmaDataType type, uint32_t rank,
                                 const void *globalAddress, const uint64_t *globalDim,
                                 const uint64_t *globalStrides, const uint32_t *boxDim,
                                 const uint32_t *elementStrides, TmaInterleave interleave,
                                 TmaSwizzle swizzle, TmaL2Promotion l2Promotion,
                                 TmaOobFill oobFill) {
  std::string problem = validate(map, type, rank, globalAddress, globalDim, globalStrides, boxDim,
                                 elementStrides, interleave, swizzle, l2Promotion, oobFill);
  if (!problem.empty())
    return "cuTensorMapEncodeTiled: " + problem;
  TensorMap encoded{};
  encoded.opaque[0] = kTensorMapMagic;
  encoded.opaque[1] = reinterpret_cast<uintptr_t>(globalAddress);
  encoded.opaque[2] = uint64_t(type) | uint64_t(rank) << 8 | uint64_t(interleave) << 16 |
                      uint64_t(swizzle) << 24 | uint64_t(l2Promotion) << 32 |
                      uint64_t(oobFill) << 40;
  for (uint32_t d = 0; d < rank; ++d) {
    encoded.opaque[3 + d] = globalDim[d];
    if (d + 1 < rank)
      encoded.opaque[8 + d] = globalStrides[d];
    encoded.opaque[12] |= uint64_t(boxDim[d] - 1) << (8 * d);
    encoded.opaque[13] |= uint64_t(elementStrides[d] - 1) << (8 * d);
  }
  map = encoded;
  return "";
}

bool decodeTensorMap(const TensorMap &map, TensorMapInfo &info) {
  if (map.opaque[0] != kTensorMapMagic)
    return false;
  uint64_t fields = map.opaque[2];
  info.type = TmaDataType(fields & 0xFF);
  info.rank = uint32_t(fields >> 8 & 0xFF);
  info.swizzle = TmaSwizzle(fields >> 24 & 0xFF);
  info.oobFill = TmaOobFill(fields >> 40 & 0xFF);
  if (info.rank < 1 || info.rank > 5 || tmaElementBytes(info.type) == 0 ||
      uint32_t(info.swizzle) > 3)
    return false;
  info.globalAddress = map.opaque[1];
  for (uint32_t d = 0; d < 5; ++d) {
    bool used = d < info.rank;
    info.globalDim[d] = used ? map.opaque[3 + d] : 1;
    info.globalStride[d] = d == 0 ? info.elementBytes() : used ? map.opaque[8 + d - 1] : 0;
    info.boxDim[d] = used ? uint32_t(map.opaque[12] >> (8 * d) & 0xFF) + 1 : 1;
    // Without interleave the hardware ignores dimension 0's element stride.
    info.elementStride[d] = used && d > 0 ? uint32_t(map.opaque[13] >> (8 * d) & 0xFF) + 1 : 1;
  }
  return true;
}

} // namespace cutec::rt
