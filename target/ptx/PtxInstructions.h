//===- PtxInstructions.h - The table of PTX instructions cutec emits ------===//
//
// One table (PtxInstructions.def) says, for every machine op, how PTX spells
// it and how the emulation executes it, so the two back ends cannot drift
// apart: both print the same `ptx.inst` ops.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_PTXINSTRUCTIONS_H
#define CUTEC_TARGET_PTX_PTXINSTRUCTIONS_H

#include "llvm/ADT/StringRef.h"

namespace cutec::ptx {

/// How the operands of an instruction are written in PTX.
enum class PtxSyntax {
  Plain,     // op r0, a, b, c;
  Immediate, // op r0, imm;
  Special,   // op r0, %tid.x;
  Param,     // op r0, [name];
  Load,      // op r0, [a+off];
  Store,     // op [a+off], b;
  Unpack2,   // op {r0, r1}, a;
  Pack2,     // op r0, {a, b};
  Symbol,    // op r0, name;      (a parameter's or shared variable's address)
  LoadArg,   // op r0, [a], b, ...;
  Bare,      // op;
  Operands,  // op a, b;
  Address,   // op [a];
  Mma,       // op [a0], a1, a2, a3, a4;
  MmaBlockScaled, // op [a0], a1, a2, a3, [a4], [a5], a6;
  MmaTmemA,  // op [a0], [a1], a2, a3, a4;
  WaitLoop,  // L: op p, [a], b; @!p bra L;   (a polling loop on a fresh p)
  TensorLoad, // op [a1], [a0, {a3, ...}], [a2];
  TensorLoadMulticast, // op [a1], [a0, {a4, ...}], [a2], a3;
  TensorStore, // op [a0, {a2, ...}], [a1];
  BareImmediate, // op imm;
  LoadVector, // op {r0, r1, ...}, [a+off];
  StoreVector, // op [a0+off], {a1, a2, ...};
  LoadVectorImm,  // op {r0, r1, ...}, [a0], imm;
  StoreVectorImm, // op [a0], imm, {a1, a2, ...};
  Immediates, // op i0, i1, ...;   (the "imms" attribute)
  Elect,      // op _|r0, i0;      (i0: the member mask)
  AddressPair,    // op [a0], [a1];
  SinkAddress,    // op _, [a0];     (a result PTX requires to be the sink)
  GuardedVector4, // @a0 op {r0, r1, r2, _}, a1;   (the fourth element unused)
  Wgmma,          // mov r_i, a_{i+3}; ...  op {r0, ...}, a0, a1, a2, i0, ...;
                  // (the accumulator is read and written: its new registers
                  // get the old values first)
  WgmmaRegisterA, // mov r_i, a_{i+6}; ...  op {r0, ...}, {a0, a1, a2, a3}, a4, a5, i0, ...;
};

struct PtxInstruction {
  llvm::StringRef opcode;
  llvm::StringRef mnemonic;
  PtxSyntax syntax;
  unsigned numResults;
  unsigned numOperands;
  llvm::StringRef emulation;
};

/// Whether the syntax is a wgmma.mma_async's (A in shared memory or in
/// registers): its last operands are the accumulator, tied to its results.
inline bool isWgmmaSyntax(PtxSyntax s) {
  return s == PtxSyntax::Wgmma || s == PtxSyntax::WgmmaRegisterA;
}

/// Whether the instruction may suspend its thread (a barrier, a warp
/// collective, an mbarrier wait): kernels with one run their threads as
/// fibers (KernelDescriptor::usesBarriers).
bool mayBlock(const PtxInstruction &inst);

/// The instruction for a machine IR opcode; null if cutec does not know it.
const PtxInstruction *lookupPtxInstruction(llvm::StringRef opcode);

} // namespace cutec::ptx

#endif
