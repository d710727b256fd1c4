//===- DataType.cpp - Element types of the kernel language ----------------===//
#include "ir/core/DataType.h"

namespace cutec::ir {

namespace {
struct Info {
  llvm::StringRef name;
  unsigned bits;
  DataTypeClass cls;
};
const Info infos[] = {
#define CUTEC_DATATYPE(Enum, Name, Bits, Class) {Name, Bits, DataTypeClass::Class},
#include "ir/core/DataTypes.def"
};
} // namespace

llvm::StringRef name(DataType t) { return infos[unsigned(t)].name; }
unsigned bitWidth(DataType t) { return infos[unsigned(t)].bits; }
DataTypeClass typeClass(DataType t) { return infos[unsigned(t)].cls; }

std::optional<DataType> parseDataType(llvm::StringRef spelling) {
  for (unsigned i = 0; i < std::size(infos); ++i)
    if (infos[i].name == spelling)
      return DataType(i);
  return std::nullopt;
}

std::vector<llvm::StringRef> dataTypeNames() {
  std::vector<llvm::StringRef> names;
  for (const Info &info : infos)
    names.push_back(info.name);
  return names;
}

} // namespace cutec::ir
