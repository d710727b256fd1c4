//===- RunNpyDtypes.cpp - Which .npy dtype holds which element type -------===//
#include "run/RunNpyDtypes.h"

#include "llvm/Support/ErrorHandling.h"

namespace cutec {

unsigned storageBits(ir::DataType type) {
  return type == ir::DataType::Bool ? 8 : ir::bitWidth(type);
}

llvm::ArrayRef<llvm::StringRef> npyDtypesFor(ir::DataType type) {
  using ir::DataType;
  static const llvm::StringRef bytes[] = {"|u1"};
  // NumPy has no bfloat16: its bits travel as uint16. f16 may be either.
  static const llvm::StringRef half[] = {"<f2", "<u2"}, bits16[] = {"<u2"};
  // tf32 lives in memory as an f32 whose low mantissa bits are ignored.
  static const llvm::StringRef f32[] = {"<f4"}, tf32[] = {"<f4", "<u4"};
  static const llvm::StringRef boolean[] = {"|b1", "|u1"};
  static const llvm::StringRef i8[] = {"|i1"}, i16[] = {"<i2"}, i32[] = {"<i4"}, i64[] = {"<i8"};
  static const llvm::StringRef u32[] = {"<u4"}, u64[] = {"<u8"};
  switch (type) {
  case DataType::F4E2M1:
  case DataType::F6E3M2:
  case DataType::F6E2M3:
  case DataType::F8E4M3:
  case DataType::F8E5M2:
  case DataType::UE4M3:
  case DataType::UE8M0:
  case DataType::U8:
    return bytes;
  case DataType::Bool:
    return boolean;
  case DataType::I8:
    return i8;
  case DataType::I16:
    return i16;
  case DataType::I32:
    return i32;
  case DataType::I64:
    return i64;
  case DataType::U16:
  case DataType::BF16:
    return bits16;
  case DataType::U32:
    return u32;
  case DataType::U64:
    return u64;
  case DataType::F16:
    return half;
  case DataType::TF32:
    return tf32;
  case DataType::F32:
    return f32;
  case DataType::U128: // no kernel parameter holds responses
    return {};
  }
  llvm_unreachable("unknown data type");
}

} // namespace cutec
