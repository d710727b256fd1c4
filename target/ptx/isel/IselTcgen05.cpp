//===- IselTcgen05.cpp - isel of Blackwell's tensor memory and tcgen05 ----===//
#include "target/ptx/isel/IselTcgen05.h"

#include "hardware/UmmaDescriptor.h"
#include "target/ptx/MachineBuilder.h"
#include "target/ptx/isel/IselCluster.h"

namespace cutec {

using ir::OpKind;

bool isTcgen05Op(OpKind kind) {
  switch (kind) {
  case OpKind::TmemAlloc:
  case OpKind::TmemDealloc:
  case OpKind::TmemRelinquish:
  case OpKind::TmemTensor:
  case OpKind::Umma:
  case OpKind::UmmaBlockScaled:
  case OpKind::Tcgen05Cp:
  case OpKind::UmmaCommit:
  case OpKind::TmemLoadWords:
  case OpKind::TmemStoreWords:
  case OpKind::Tcgen05FenceBefore:
  case OpKind::Tcgen05FenceAfter:
  case OpKind::Tcgen05WaitLd:
  case OpKind::Tcgen05WaitSt:
    return true;
  default:
    return false;
  }
}

std::string tcgen05Unsupported(const ir::Operation &op, llvm::StringRef opName,
                               const TargetFeatures &target) {
  if (!target.hasTcgen05)
    return (opName + " is a tcgen05 instruction, which " + target.arch + " does not have" +
            target.whyNoTcgen05 + "; compile for --arch=sm_100a")
        .str();
  const std::string *kind = op.get(ir::attr::kind);
  if (op.kind() == OpKind::Umma && kind && *kind == "i8" && !target.hasMmaKindI8)
    return ("s8/u8 operands need tcgen05.mma.kind::i8, which " + target.arch + " does not have" +
            target.whyNoMmaKindI8 + "; compile for --arch=sm_100a")
        .str();
  return "";
}

using ir::DataType;
using ptx::emitInst;
using ptx::emitValue;
using ptx::PtxOpcode;

ir::Value *matrixDescriptor(ir::Builder &b, llvm::SMLoc loc, ir::Value *address,
                            int64_t constantBits) {
  ir::Value *wide = emitValue(b, loc, PtxOpcode::CvtU64U32, DataType::U64, {address});
  ir::Value *units =
      emitValue(b, loc, PtxOpcode::ShrS64, DataType::U64,
                {wide, ptx::emitImmediate(b, loc, DataType::U32, hw::kDescriptorUnitShift)});
  ir::Value *start = emitValue(
      b, loc, PtxOpcode::AndB64, DataType::U64,
      {units, ptx::emitImmediate(b, loc, DataType::U64, hw::umma_smem::kStartAddress.max())});
  const uint64_t advance = hw::umma_smem::kStartAddress.mask() & uint64_t(constantBits);
  ir::Value *desc = emitValue(
      b, loc, PtxOpcode::OrB64, DataType::U64,
      {start, ptx::emitImmediate(b, loc, DataType::U64, int64_t(constantBits - advance))});
  if (!advance)
    return desc;
  return emitValue(b, loc, PtxOpcode::AddS64, DataType::U64,
                   {desc, ptx::emitImmediate(b, loc, DataType::U64, int64_t(advance))});
}

/// The block-scaled kind as `target` spells it: .block32 stands for
/// .scale_vec::1X (mxf8f6f4) and .scale_vec::2X (mxf4, mxf4nvf4), .block16
/// for .scale_vec::4X.
static std::string blockScaledKind(llvm::StringRef kind, const TargetFeatures &target) {
  if (target.hasScaleVecSpelling)
    return kind.str();
  auto [prefix, vector] = kind.split(".scale_vec::");
  if (vector.empty())
    return kind.str();
  return (prefix + (vector == "4X" ? ".block16" : ".block32")).str();
}

/// The opcode of a tcgen05.ld/st form, which the shape's text spells:
/// "tcgen05.ld.16x256b.x2.pack::16b".
static PtxOpcode tmemCopyOpcode(const ir::Operation &op, llvm::StringRef prefix,
                                llvm::StringRef packing) {
  return ptx::opcodeNamed(prefix + *op.get(ir::attr::shape) + ".x" +
                          llvm::Twine(*op.get(ir::attr::num)) + packing);
}

/// 16x32bx2 puts the upper half-warp's cells immHalfSplitoff columns on:
/// cutec places the halves side by side, one half's columns apart.
static void setHalfSplitOffset(const ir::Operation &op, ir::Operation &inst, bool pack) {
  if (*op.get(ir::attr::shape) == "16x32bx2")
    inst.set(ir::attr::imm, *op.get(ir::attr::num) * (pack ? 2 : 1));
}

ir::Value *selectTcgen05(ir::Builder &b, const ir::Operation &op, llvm::ArrayRef<ir::Value *> in,
                         const TargetFeatures &target) {
  llvm::SMLoc loc = op.loc();
  // The cta_group::2 forms have the opcodes of the cta_group::1 ones + ".cg2".
  const bool pair = op.get(ir::attr::ctaGroup) != nullptr;
  const char *pairSuffix = pair ? ".cg2" : "";
  switch (op.kind()) {
  case OpKind::TmemTensor:
    return in[0];
  case OpKind::Umma: {
    // tcgen05.mma [d], a-desc, b-desc, idesc, enable-input-d; or [a-tmem]
    // in place of a-desc when A is in tensor memory.
    const bool *tmemA = op.get(ir::attr::aTmem);
    bool aInTmem = tmemA && *tmemA;
    ir::Value *a = aInTmem ? in[1] : matrixDescriptor(b, loc, in[1], *op.get(ir::attr::aDesc));
    ir::Value *bd = matrixDescriptor(b, loc, in[2], *op.get(ir::attr::bDesc));
    ir::Value *idesc = ptx::emitImmediate(b, loc, DataType::U32, *op.get(ir::attr::idesc));
    // The kind's text spells the opcode: tcgen05.mma.f16.tmem_a.
    emitInst(b, loc,
             ptx::opcodeNamed("tcgen05.mma." + *op.get(ir::attr::kind) +
                              (aInTmem ? ".tmem_a" : "") + pairSuffix),
             {}, {in[0], a, bd, idesc, in[3]});
    return nullptr;
  }
  case OpKind::UmmaBlockScaled: {
    // tcgen05.mma [d], a-desc, b-desc, idesc, [sfa], [sfb], enable-input-d.
    ir::Value *a = matrixDescriptor(b, loc, in[1], *op.get(ir::attr::aDesc));
    ir::Value *bd = matrixDescriptor(b, loc, in[2], *op.get(ir::attr::bDesc));
    ir::Value *idesc = ptx::emitImmediate(b, loc, DataType::U32, *op.get(ir::attr::idesc));
    emitInst(b, loc,
             ptx::opcodeNamed("tcgen05.mma." +
                              blockScaledKind(*op.get(ir::attr::kind), target) +
                              pairSuffix),
             {}, {in[0], a, bd, idesc, in[4], in[5], in[3]});
    return nullptr;
  }
  case OpKind::Tcgen05Cp: {
    // tcgen05.cp [taddr], s-desc.
    ir::Value *desc = matrixDescriptor(b, loc, in[1], *op.get(ir::attr::desc));
    emitInst(b, loc,
             ptx::opcodeNamed("tcgen05.cp." + *op.get(ir::attr::shape) + pairSuffix), {},
             {in[0], desc});
    return nullptr;
  }
  case OpKind::UmmaCommit:
    if (!pair)
      emitInst(b, loc, PtxOpcode::Tcgen05Commit, {}, in);
    else // arrives on the mbarrier at this offset in both CTAs of the pair
      emitInst(b, loc, PtxOpcode::Tcgen05CommitCg2, {}, {in[0], pairMask(b, op)});
    return nullptr;
  case OpKind::TmemLoadWords: {
    std::vector<DataType> words(op.results().size(), DataType::U32);
    bool pack = *op.get(ir::attr::pack);
    PtxOpcode opcode = tmemCopyOpcode(op, "tcgen05.ld.", pack ? ".pack::16b" : "");
    ir::Operation &ld = emitInst(b, loc, opcode, words, in);
    setHalfSplitOffset(op, ld, pack);
    if (*op.get(ir::attr::wait))
      emitInst(b, loc, PtxOpcode::Tcgen05WaitLd, {});
    return ld.result(0);
  }
  case OpKind::TmemStoreWords: {
    bool unpack = *op.get(ir::attr::pack);
    PtxOpcode opcode = tmemCopyOpcode(op, "tcgen05.st.", unpack ? ".unpack::16b" : "");
    setHalfSplitOffset(op, emitInst(b, loc, opcode, {}, in), unpack);
    if (*op.get(ir::attr::wait))
      emitInst(b, loc, PtxOpcode::Tcgen05WaitSt, {});
    return nullptr;
  }
  case OpKind::Tcgen05WaitLd:
    emitInst(b, loc, PtxOpcode::Tcgen05WaitLd, {});
    return nullptr;
  case OpKind::Tcgen05WaitSt:
    emitInst(b, loc, PtxOpcode::Tcgen05WaitSt, {});
    return nullptr;
  case OpKind::Tcgen05FenceBefore:
    emitInst(b, loc, PtxOpcode::Tcgen05FenceBeforeThreadSync, {});
    return nullptr;
  case OpKind::Tcgen05FenceAfter:
    emitInst(b, loc, PtxOpcode::Tcgen05FenceAfterThreadSync, {});
    return nullptr;
  case OpKind::TmemAlloc:
    ptx::emitInst(b, op.loc(), pair ? PtxOpcode::Tcgen05AllocCg2 : PtxOpcode::Tcgen05Alloc, {}, in);
    return nullptr;
  case OpKind::TmemDealloc:
    ptx::emitInst(b, op.loc(), pair ? PtxOpcode::Tcgen05DeallocCg2 : PtxOpcode::Tcgen05Dealloc, {},
                  in);
    return nullptr;
  case OpKind::TmemRelinquish:
    ptx::emitInst(b, op.loc(),
                  pair ? PtxOpcode::Tcgen05RelinquishAllocPermitCg2
                       : PtxOpcode::Tcgen05RelinquishAllocPermit,
                  {});
    return nullptr;
  default:
    return nullptr;
  }
}

} // namespace cutec
