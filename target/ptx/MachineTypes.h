//===- MachineTypes.h - Register classes of machine IR values -------------===//
//
// In machine IR a value's element type only decides its register class: the
// PTX declaration and name prefix, and the C++ type that holds its raw bits
// in the emulation. Narrow floats travel packed in b8/b16/b32 registers.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_MACHINETYPES_H
#define CUTEC_TARGET_PTX_MACHINETYPES_H

#include "ir/core/DataType.h"

namespace cutec::ptx {

enum class RegisterClass { Pred, B8, B16, B32, F32, B64, B128 };

struct RegisterClassInfo {
  llvm::StringRef ptxType;   // .pred, .b8, .b16, .b32, .f32, .b64, .b128
  llvm::StringRef prefix;    // %p, %rc, %rs, %r, %f, %rd, %rq
  llvm::StringRef cxxType;   // bool, uint8_t, ..., uint64_t, cutec::rt::B128
  llvm::StringRef movOpcode; // register copy: mov.pred, mov.b16 ...
};

RegisterClass registerClass(ir::DataType t);
const RegisterClassInfo &info(RegisterClass rc);
/// All classes, in declaration order.
constexpr RegisterClass kAllRegisterClasses[] = {
    RegisterClass::Pred, RegisterClass::B8,  RegisterClass::B16, RegisterClass::B32,
    RegisterClass::F32,  RegisterClass::B64, RegisterClass::B128};

} // namespace cutec::ptx

#endif
