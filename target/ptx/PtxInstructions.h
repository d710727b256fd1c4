//===- PtxInstructions.h - The table of PTX instructions cutec emits ------===//
//
// One table (PtxInstructions.def) says, for every machine op, how PTX spells
// it and how the emulation executes it, so the two back ends cannot drift
// apart: both print the same `ptx.inst` ops. Each row also names its
// PtxOpcode, which instruction selection uses, and its PtxFlag facts.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_PTXINSTRUCTIONS_H
#define CUTEC_TARGET_PTX_PTXINSTRUCTIONS_H

#include "llvm/ADT/ArrayRef.h"
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

/// Every instruction of PtxInstructions.def, in the table's order.
enum class PtxOpcode : unsigned {
#define PTX_INSTRUCTION(Id, Opcode, Mnemonic, Syntax, Results, Operands, Flags, Emulation) Id,
#include "target/ptx/PtxInstructions.def"
};

/// What an instruction does besides computing its results (the flags column
/// of PtxInstructions.def), from the PTX ISA's semantics.
enum class PtxFlag : unsigned {
  None = 0,
  /// It may wait for other threads: a barrier, a warp or warpgroup
  /// collective, an mbarrier or cluster wait. A kernel with one runs its
  /// threads as fibers (KernelDescriptor::usesBarriers). Waits for the
  /// thread's own asynchronous operations (cp.async.bulk.wait_group,
  /// tcgen05.wait::ld) are not; mbarrier arrivals are (PtxInstructions.def
  /// says why).
  MayBlock = 1u << 0,
  /// It completes after the thread goes on: TMA copies, tcgen05.mma, .cp,
  /// .commit, .ld and .st, wgmma.mma_async, cluster launch control's
  /// try_cancel.
  Async = 1u << 1,
  /// It reads global, shared, tensor or parameter memory (an mbarrier, too).
  ReadsMemory = 1u << 2,
  /// It writes global, shared or tensor memory (an mbarrier, too).
  WritesMemory = 1u << 3,
  /// The threads of a warp or warpgroup execute it together (.sync.aligned,
  /// shfl.sync, elect.sync); CTA and cluster barriers are not.
  Collective = 1u << 4,
};

constexpr PtxFlag operator|(PtxFlag a, PtxFlag b) { return PtxFlag(unsigned(a) | unsigned(b)); }

struct PtxInstruction {
  PtxOpcode id;
  llvm::StringRef opcode;
  llvm::StringRef mnemonic;
  PtxSyntax syntax;
  unsigned numResults;
  unsigned numOperands;
  PtxFlag flags;
  llvm::StringRef emulation;

  /// Whether the instruction has `flag` (one of PtxFlag's bits).
  bool has(PtxFlag flag) const { return (unsigned(flags) & unsigned(flag)) != 0; }
};

/// Whether the syntax is a wgmma.mma_async's (A in shared memory or in
/// registers): its last operands are the accumulator, tied to its results.
inline bool isWgmmaSyntax(PtxSyntax s) {
  return s == PtxSyntax::Wgmma || s == PtxSyntax::WgmmaRegisterA;
}

/// The row of `opcode`.
const PtxInstruction &ptxInstruction(PtxOpcode opcode);

/// The instruction named `opcode` (its opcode column), for text that comes
/// in (machine IR, tests); null if cutec does not know it.
const PtxInstruction *lookupPtxInstruction(llvm::StringRef opcode);

/// All rows, in PtxOpcode order.
llvm::ArrayRef<PtxInstruction> allPtxInstructions();

} // namespace cutec::ptx

#endif
