//===- PtxInstructions.cpp - The table of PTX instructions cutec emits ----===//
#include "target/ptx/PtxInstructions.h"

#include "llvm/ADT/StringMap.h"

namespace cutec::ptx {
namespace {

using enum PtxFlag;

// A string literal's StringRef, its length from its type: measuring the
// table's thousands of strings character by character at compile time
// exceeds Clang's constant-evaluation step limit.
#define PTX_STRING(Literal) llvm::StringRef(Literal, sizeof(Literal) - 1)

/// The rows in PtxOpcode order: a PtxOpcode is its row's index.
constexpr PtxInstruction kInstructions[] = {
#define PTX_INSTRUCTION(Id, Opcode, Mnemonic, Syntax, Results, Operands, Flags, Emulation)         \
  {                                                                                                \
      PtxOpcode::Id,                                                                               \
      PTX_STRING(Opcode),                                                                          \
      PTX_STRING(Mnemonic),                                                                        \
      PtxSyntax::Syntax,                                                                           \
      Results,                                                                                     \
      Operands,                                                                                    \
      Flags,                                                                                       \
      PTX_STRING(Emulation)},
#include "target/ptx/PtxInstructions.def"
};

#undef PTX_STRING

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
