//===- MachineTypes.cpp - Register classes of machine IR values -----------===//
#include "target/ptx/MachineTypes.h"

namespace cutec::ptx {

RegisterClass registerClass(ir::DataType t) {
  if (t == ir::DataType::Bool)
    return RegisterClass::Pred;
  if (t == ir::DataType::F32)
    return RegisterClass::F32;
  unsigned bits = ir::bitWidth(t);
  if (bits <= 8)
    return RegisterClass::B8;
  if (bits <= 16)
    return RegisterClass::B16;
  if (bits <= 32)
    return RegisterClass::B32;
  if (bits <= 64)
    return RegisterClass::B64;
  return RegisterClass::B128;
}

const RegisterClassInfo &info(RegisterClass rc) {
  static const RegisterClassInfo infos[] = {
      {".pred", "%p", "bool", "mov.pred"},       {".b8", "%rc", "uint8_t", "mov.b8"},
      {".b16", "%rs", "uint16_t", "mov.b16"},    {".b32", "%r", "uint32_t", "mov.b32"},
      {".f32", "%f", "float", "mov.f32"},        {".b64", "%rd", "uint64_t", "mov.b64"},
      {".b128", "%rq", "cutec::rt::B128", "mov.b128"},
  };
  return infos[unsigned(rc)];
}

} // namespace cutec::ptx
