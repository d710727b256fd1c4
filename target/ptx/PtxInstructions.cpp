//===- PtxInstructions.cpp - The table of PTX instructions cutec emits ----===//
#include "target/ptx/PtxInstructions.h"

#include "llvm/ADT/StringMap.h"

namespace cutec::ptx {

const PtxInstruction *lookupPtxInstruction(llvm::StringRef opcode) {
  static const PtxInstruction table[] = {
#define PTX_INSTRUCTION(Opcode, Mnemonic, Syntax, Results, Operands, Emulation)                   \
  {Opcode, Mnemonic, PtxSyntax::Syntax, Results, Operands, Emulation},
#include "target/ptx/PtxInstructions.def"
  };
  static const llvm::StringMap<const PtxInstruction *> index = [] {
    llvm::StringMap<const PtxInstruction *> m;
    for (const PtxInstruction &inst : table)
      m[inst.opcode] = &inst;
    return m;
  }();
  auto it = index.find(opcode);
  return it == index.end() ? nullptr : it->second;
}

bool mayBlock(const PtxInstruction &inst) {
  // The Thread calls that can suspend the calling thread (runtime/engine/Thread.h;
  // bar.arrive waits for the rest of its warp); warp collectives, tcgen05's
  // included, have warpSync in their names, the warpgroup's wgmma.
  for (llvm::StringRef call :
       {"warpSync", "barrierSync", "barrierArrive", "mbarrierWait", "clusterWait", "wgmma"})
    if (inst.emulation.contains(call))
      return true;
  return false;
}

} // namespace cutec::ptx
