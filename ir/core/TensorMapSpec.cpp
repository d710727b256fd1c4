//===- TensorMapSpec.cpp - What a TMA tensor map describes ----------------===//
#include "ir/core/TensorMapSpec.h"

#include "hardware/TmaSwizzle.h"

namespace cutec::ir {

unsigned TensorMapSpec::cudaDataType() const {
  // CU_TENSOR_MAP_DATA_TYPE_{UINT8, UINT16, UINT32, INT32, UINT64, INT64,
  // FLOAT16, FLOAT32, FLOAT64, BFLOAT16, ...} = 0, 1, 2, ...
  switch (element) {
  case DataType::F16:
    return 6;
  case DataType::BF16:
    return 9;
  case DataType::F32:
    return 7;
  case DataType::I32:
    return 3;
  case DataType::I64:
    return 5;
  default:
    break;
  }
  switch (bitWidth(element)) {
  case 16:
    return 1;
  case 32:
    return 2;
  case 64:
    return 4;
  default:
    return 0;
  }
}

unsigned TensorMapSpec::cudaSwizzle() const {
  return unsigned(hw::tmaSwizzleOfSpan(swizzleBytes).value_or(hw::TmaSwizzle::None));
}

template <typename T> static std::string list(const std::vector<T> &values) {
  std::string s = "(";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      s += ",";
    if constexpr (std::is_same_v<T, IntExpr>)
      s += values[i].str();
    else
      s += std::to_string(values[i]);
  }
  return s + ")";
}

std::string TensorMapSpec::str() const {
  return "tensormap<" + name(element).str() + ", dims " + list(globalDim) + ", strides " +
         list(globalStride) + ", box " + list(box) + ", swizzle " +
         (swizzleBytes ? std::to_string(swizzleBytes) + "B" : std::string("none")) + ">";
}

bool TensorMapSpec::operator==(const TensorMapSpec &o) const {
  return source == o.source && element == o.element && globalDim == o.globalDim &&
         globalStride == o.globalStride && box == o.box &&
         swizzleBytes == o.swizzleBytes;
}

} // namespace cutec::ir
