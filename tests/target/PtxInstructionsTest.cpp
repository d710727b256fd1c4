// The PTX instruction table: each PtxOpcode indexes its own row and is its
// opcode in CamelCase, and the flags column agrees with what the emulation
// statements and mnemonics say (so the table cannot drift silently).
#include "target/ptx/MachineBuilder.h"
#include "target/ptx/PtxInstructions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

namespace cutec::ptx {
namespace {

using enum PtxFlag;

/// "ld.shared::cluster.u8" -> "LdSharedClusterU8": each run of letters and
/// digits with its first letter upper-case.
std::string camelCase(llvm::StringRef opcode) {
  std::string id;
  bool startsPiece = true;
  for (char c : opcode) {
    if (!llvm::isAlnum(c)) {
      startsPiece = true;
      continue;
    }
    id += startsPiece ? llvm::toUpper(c) : c;
    startsPiece = false;
  }
  return id;
}

/// The identifiers of the rows, as the .def spells them.
const std::vector<llvm::StringRef> &identifiers() {
  static const std::vector<llvm::StringRef> ids = {
#define PTX_INSTRUCTION(Id, Opcode, Mnemonic, Syntax, Results, Operands, Flags, Emulation) #Id,
#include "target/ptx/PtxInstructions.def"
  };
  return ids;
}

/// How the emulation printer decided, before the flags column, that an
/// instruction may suspend its thread: its statement calls one of these
/// (runtime/engine/Thread.h and the warp collectives, whose names start with
/// warpSync; "barrierArrive" also matches mbarrierArrive).
bool callsABlockingFunction(llvm::StringRef emulation) {
  for (llvm::StringRef call :
       {"warpSync", "barrierSync", "barrierArrive", "mbarrierWait", "clusterWait", "wgmma"})
    if (emulation.contains(call))
      return true;
  return false;
}

TEST(PtxInstructions, OpcodeIndexesItsRow) {
  llvm::ArrayRef<PtxInstruction> all = allPtxInstructions();
  ASSERT_EQ(all.size(), identifiers().size());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(unsigned(all[i].id), i) << all[i].opcode.str();
    EXPECT_EQ(&ptxInstruction(all[i].id), &all[i]);
    EXPECT_EQ(lookupPtxInstruction(all[i].opcode), &all[i]) << all[i].opcode.str();
    EXPECT_EQ(identifiers()[i], camelCase(all[i].opcode)) << all[i].opcode.str();
  }
  EXPECT_EQ(ptxInstruction(PtxOpcode::MovB32).opcode, "mov.b32");
  EXPECT_EQ(ptxInstruction(PtxOpcode::LdSharedClusterV4U32).opcode, "ld.shared::cluster.v4.u32");
  EXPECT_EQ(ptxInstruction(PtxOpcode::Tcgen05Ld16x32bx2X4Pack16b).opcode,
            "tcgen05.ld.16x32bx2.x4.pack::16b");
  EXPECT_EQ(ptxInstruction(PtxOpcode::WgmmaM64n256k32S32U8S8SatfiniteRs).opcode,
            "wgmma.m64n256k32.s32.u8.s8.satfinite.rs");
  EXPECT_EQ(ptxInstruction(PtxOpcode::AtomSharedMaxU32).opcode, "atom.shared.max.u32");
}

TEST(PtxInstructions, OpcodeNamedFindsEverySpelling) {
  for (const PtxInstruction &inst : allPtxInstructions())
    EXPECT_EQ(opcodeNamed(inst.opcode), inst.id) << inst.opcode.str();
  EXPECT_EQ(opcodeNamed("shfl.sync." + llvm::Twine("bfly") + ".b32"), PtxOpcode::ShflSyncBflyB32);
}

// A spelling isel composes that the table lacks is a bug in cutec, not in
// the kernel: the compiler stops with the spelling rather than guess.
TEST(PtxInstructionsDeathTest, OpcodeNamedStopsAtAnUnknownSpelling) {
  EXPECT_DEATH(opcodeNamed("shfl.sync.sideways.b32"),
               "isel spelled an unknown PTX instruction 'shfl.sync.sideways.b32'");
}

TEST(PtxInstructions, MayBlockIsWhatTheEmulationCalls) {
  for (const PtxInstruction &inst : allPtxInstructions())
    EXPECT_EQ(inst.has(MayBlock), callsABlockingFunction(inst.emulation)) << inst.opcode.str();
}

TEST(PtxInstructions, FlagsAgreeWithTheSyntax) {
  for (const PtxInstruction &inst : allPtxInstructions()) {
    llvm::StringRef m = inst.mnemonic;
    // .sync.aligned, shfl.sync, elect.sync and bar.warp.sync are the warp's
    // and warpgroup's collectives, and every collective is spelled so.
    bool collectiveSpelling = m.contains(".sync.aligned") || m.starts_with("shfl.sync") ||
                              m.starts_with("elect.sync") || m.starts_with("bar.warp.sync");
    EXPECT_EQ(inst.has(Collective), collectiveSpelling) << inst.opcode.str();
    if (inst.has(Collective) && !m.starts_with("tcgen05.wait")) {
      EXPECT_TRUE(inst.has(MayBlock)) << inst.opcode.str();
    }
    bool readModifyWrite = m.starts_with("atom.") || m.starts_with("red.");
    if (m.starts_with("ld.") || readModifyWrite) {
      EXPECT_TRUE(inst.has(ReadsMemory)) << inst.opcode.str();
    }
    if (m.starts_with("st.") || readModifyWrite) {
      EXPECT_TRUE(inst.has(WritesMemory)) << inst.opcode.str();
    }
    // The instructions the PTX ISA calls asynchronous.
    bool asynchronous = llvm::any_of(
        std::initializer_list<llvm::StringRef>{
            "cp.async.bulk.tensor", "wgmma.mma_async", "clusterlaunchcontrol.try_cancel",
            "tcgen05.mma", "tcgen05.cp", "tcgen05.commit", "tcgen05.ld", "tcgen05.st"},
        [&](llvm::StringRef prefix) { return m.starts_with(prefix); });
    EXPECT_EQ(inst.has(Async), asynchronous) << inst.opcode.str();
    // Arithmetic and moves between registers (no call on the thread `t`)
    // have no flags.
    if (inst.syntax == PtxSyntax::Plain && !inst.emulation.contains("t.") &&
        !inst.emulation.contains("(t,")) {
      EXPECT_EQ(unsigned(inst.flags), 0u) << inst.opcode.str();
    }
  }
}

TEST(PtxInstructions, SpotChecksPerFlag) {
  auto flags = [](PtxOpcode op) { return ptxInstruction(op).flags; };
  EXPECT_EQ(flags(PtxOpcode::AddS32), None);
  EXPECT_EQ(flags(PtxOpcode::ShflSyncIdxB32), MayBlock | Collective);
  EXPECT_EQ(flags(PtxOpcode::BarSync), MayBlock);
  EXPECT_EQ(flags(PtxOpcode::MbarrierWaitParity), MayBlock | ReadsMemory);
  EXPECT_EQ(flags(PtxOpcode::MbarrierArriveSharedCtaB64), MayBlock | ReadsMemory | WritesMemory);
  EXPECT_EQ(flags(PtxOpcode::BarrierClusterArriveReleaseAligned), None);
  EXPECT_EQ(flags(PtxOpcode::BarrierClusterWaitAcquireAligned), MayBlock);
  EXPECT_EQ(flags(PtxOpcode::CpAsyncBulkTensor2d), Async | ReadsMemory | WritesMemory);
  EXPECT_EQ(flags(PtxOpcode::CpAsyncBulkTensor3dStore), Async | ReadsMemory | WritesMemory);
  EXPECT_EQ(flags(PtxOpcode::CpAsyncBulkWaitGroup), None);
  EXPECT_EQ(flags(PtxOpcode::Tcgen05MmaF16), Async | ReadsMemory | WritesMemory);
  EXPECT_EQ(flags(PtxOpcode::Tcgen05Commit), Async | WritesMemory);
  EXPECT_EQ(flags(PtxOpcode::Tcgen05WaitLd), Collective);
  EXPECT_EQ(flags(PtxOpcode::Tcgen05Ld32x32bX8), MayBlock | Async | Collective | ReadsMemory);
  EXPECT_EQ(flags(PtxOpcode::Tcgen05St16x256bX2Unpack16b),
            MayBlock | Async | Collective | WritesMemory);
  EXPECT_EQ(flags(PtxOpcode::WgmmaM64n64k16F32F16F16), MayBlock | Async | Collective | ReadsMemory);
  EXPECT_EQ(flags(PtxOpcode::WgmmaWaitGroup), MayBlock | Collective);
  EXPECT_EQ(flags(PtxOpcode::LdParamU32), ReadsMemory);
  EXPECT_EQ(flags(PtxOpcode::StSharedV4B32), WritesMemory);
  EXPECT_EQ(flags(PtxOpcode::LdmatrixX4Trans), MayBlock | Collective | ReadsMemory);
  EXPECT_EQ(flags(PtxOpcode::AtomGlobalCasB32), ReadsMemory | WritesMemory);
  EXPECT_EQ(flags(PtxOpcode::RedSharedAddF32), ReadsMemory | WritesMemory);
  EXPECT_EQ(flags(PtxOpcode::ClusterlaunchcontrolTryCancel), Async | WritesMemory);
}

} // namespace
} // namespace cutec::ptx
