//===- DataType.h - Element types of the kernel language ------------------===//
//
// The scalar element types a kernel can name (f4e2m1 ... u128, bool), with the
// facts the compiler needs about each: width in bits, float or integer,
// signedness, and the PTX type it travels in.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_DATATYPE_H
#define CUTEC_IR_CORE_DATATYPE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <vector>

namespace cutec::ir {

enum class DataType : unsigned char {
#define CUTEC_DATATYPE(Enum, Name, Bits, Class) Enum,
#include "ir/core/DataTypes.def"
};

/// Opaque: bits with no arithmetic, loads or conversions (u128, which holds
/// a cluster launch control response).
enum class DataTypeClass { Bool, SignedInt, UnsignedInt, Float, Opaque };

llvm::StringRef name(DataType t);
unsigned bitWidth(DataType t);
DataTypeClass typeClass(DataType t);
inline bool isFloat(DataType t) { return typeClass(t) == DataTypeClass::Float; }
inline bool isInteger(DataType t) {
  return typeClass(t) == DataTypeClass::SignedInt || typeClass(t) == DataTypeClass::UnsignedInt;
}
/// The narrow formats (<= 8 bits, float) that exist only in memory and are
/// converted before arithmetic.
inline bool isStorageOnlyFloat(DataType t) { return isFloat(t) && bitWidth(t) <= 8; }
inline bool isOpaque(DataType t) { return typeClass(t) == DataTypeClass::Opaque; }
std::optional<DataType> parseDataType(llvm::StringRef name);
/// The spellings of every element type, in DataTypes.def order.
std::vector<llvm::StringRef> dataTypeNames();

} // namespace cutec::ir

#endif
