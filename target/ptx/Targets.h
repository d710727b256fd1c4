//===- Targets.h - What each --arch offers the compiler -------------------===//
//
// One row per target cutec compiles for. The facts come from the PTX ISA and
// were checked against ptxas 13 (tests/lit/examples/targets.test):
//
// - sm_100a (B200) has everything cutec emits.
// - sm_103a (B300) lacks tcgen05.mma kind::i8.
// - sm_100f is the family target: its code runs on sm_100 and sm_103 GPUs,
//   so it has what sm_100a and sm_103a share, and ptxas accepts only the
//   family spelling of the block-scaled MMA (.block16/.block32, not
//   .scale_vec::NX, which are their aliases).
// - sm_120a and sm_121a (consumer Blackwell, GeForce and DGX Spark) have
//   the fp4 conversions but no tensor memory, hence no tcgen05 and no CTA
//   pairs.
// - sm_90a (Hopper) has neither the fp4/ue8m0 conversions nor tcgen05; it
//   alone has the warpgroup MMA (wgmma), and it lacks the 256-bit global
//   stores (st.global.v8.b32) of sm_100 and later.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TARGET_PTX_TARGETS_H
#define CUTEC_TARGET_PTX_TARGETS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace cutec {

struct TargetFeatures {
  llvm::StringRef arch;
  /// cvt.rn.f16x2.e2m1x2 and cvt.rn.bf16x2.ue8m0x2; without them fp4 and
  /// ue8m0 decode with integer operations.
  bool hasFp4AndUe8m0Conversions = false;
  /// Tensor memory, the tcgen05 instructions and the cta_group::2 forms.
  bool hasTcgen05 = false;
  /// Hopper's warpgroup MMA (wgmma), which only sm_90a has.
  bool hasWgmma = false;
  /// clusterlaunchcontrol.try_cancel / query_cancel (sm_100 on, consumer
  /// Blackwell included).
  bool hasClusterLaunchControl = false;
  /// 256-bit global stores, st.global.v8.b32 (sm_100 on, PTX ISA 8.8).
  bool hasWideGlobalStores = false;
  /// tcgen05.mma.kind::i8.
  bool hasMmaKindI8 = false;
  /// The block-scaled MMA spelled .scale_vec::NX (else .block16/.block32).
  bool hasScaleVecSpelling = false;
  /// Said after "which <arch> does not have" when a tcgen05 instruction
  /// (whyNoTcgen05) or kind::i8 (whyNoMmaKindI8) is refused.
  llvm::StringRef whyNoTcgen05 = "";
  llvm::StringRef whyNoMmaKindI8 = "";
};

/// Every target, in the order `--help` lists them.
llvm::ArrayRef<TargetFeatures> targetFeatureTable();

/// The row of `arch`, or null if cutec does not target it.
const TargetFeatures *findTargetFeatures(llvm::StringRef arch);

/// Whether cutec targets `arch`.
inline bool isSupportedArch(llvm::StringRef arch) { return findTargetFeatures(arch) != nullptr; }

/// "sm_100a, sm_103a, ... and sm_90a": the targets, for messages.
std::string supportedArchList();

/// How far apart, in bits, the two codes of an e2m1 pair are on `target`:
/// 4 (the two codes of a byte, which cvt.rn.f16x2.e2m1x2 decodes at once)
/// where the target has the fp4 conversions, else 16 (code k and code k + 4
/// of a word, which share every shift and mask as the two halves of an f16
/// pair). A pair's low code is then at a multiple of 8, or below 16 in its
/// 32-bit word.
int64_t narrowPairDistance(const TargetFeatures &target);

} // namespace cutec

#endif
