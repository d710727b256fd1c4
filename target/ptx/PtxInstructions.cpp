//===- PtxInstructions.cpp - The table of PTX instructions cutec emits ----===//
#include "target/ptx/PtxInstructions.h"

#include "llvm/ADT/StringMap.h"

namespace cutec::ptx {
namespace {

using enum PtxFlag;

/// The rows in PtxOpcode order: a PtxOpcode is its row's index.
constexpr PtxInstruction kInstructions[] = {
#define PTX_INSTRUCTION(Id, Opcode, Mnemonic, Syntax, Results, Operands, Flags, Emulation)         \
  {PtxOpcode::Id, Opcode, Mnemonic, PtxSyntax::Syntax, Results, Operands, Flags, Emulation},
#include "target/ptx/PtxInstructions.def"
};

} // namespace

const PtxInstruction &ptxInstruction(PtxOpcode opcode) { return kInstructions[unsigned(opcode)]; }

llvm::ArrayRef<PtxInstruction> allPtxInstructions() { return kInstructions; }

const PtxInstruction *lookupPtxInstruction(llvm::StringRef opcode) {
  static const llvm::StringMap<const PtxInstruction *> index = [] {
    llvm::StringMap<const PtxInstruction *> m;
    for (const PtxInstruction &inst : kInstructions)
      m[inst.opcode] = &inst;
    return m;
  }();
  auto it = index.find(opcode);
  return it == index.end() ? nullptr : it->second;
}

} // namespace cutec::ptx
