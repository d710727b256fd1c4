// The data movement of tcgen05.mma and tcgen05.cp: operands read from shared
// memory through their descriptors, scale factors and accumulators read from
// and written to TMEM. The CTA runner calls these when an instruction is
// issued and keeps the asynchronous bookkeeping itself (runtime/tensorcore/Tmem.h).
//
// Numerics of tcgen05.mma (the ISA does not fix the tensor core's internal
// order): each product a*b (times its two scale factors) is formed exactly
// and rounded once to f32 (exact unless it leaves f32's range); the
// accumulator starts from D (enable-input-d) or 0 and adds the products in
// increasing k with f32 round-to-nearest-even additions; an f16 D is
// converted to f32 first and rounded back (RN) at the end. kind::i8 sums
// exactly and wraps to s32, or clamps when the descriptor saturates. That is
// Tcgen05Numerics::F32Steps, the default; Tcgen05Numerics::Hopper applies
// the H100's measured wgmma arithmetic instead (runtime/numerics/Tcgen05Numerics.h).
#pragma once

#include "runtime/tensorcore/MmaOperandGather.h"
#include "runtime/tensorcore/Tcgen05.h"
#include "runtime/numerics/Tcgen05Numerics.h"
#include "runtime/tensorcore/Tmem.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cutec::rt {

struct MmaOperands {
  Tcgen05Kind kind = Tcgen05Kind::F16;
  bool blockScaled = false;
  Tcgen05ScaleVec scaleVec = Tcgen05ScaleVec::X1;
  uint32_t dTmem = 0, sfaTmem = 0, sfbTmem = 0;
  uint64_t aDesc = 0, bDesc = 0;
  /// A from tensor memory (the `[a-tmem]` form) at aTmem instead of aDesc.
  bool aFromTmem = false;
  uint32_t aTmem = 0;
  uint32_t idesc = 0;
  bool enableInputD = false;
  /// Where B is read when not from the shared memory A is read from (the
  /// peer's half of B in a cta_group::2 MMA); null: the same.
  const SharedView *bShared = nullptr;
};

/// The operands every tcgen05.mma form has.
inline MmaOperands mmaOperands(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc, uint32_t idesc,
                               bool enableInputD, Tcgen05Kind kind) {
  MmaOperands op;
  op.kind = kind;
  op.dTmem = dTmem;
  op.aDesc = aDesc;
  op.bDesc = bDesc;
  op.idesc = idesc;
  op.enableInputD = enableInputD;
  return op;
}

/// The operands of a .block_scale form.
inline MmaOperands blockScaledMmaOperands(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc,
                                          uint32_t idesc, uint32_t sfaTmem, uint32_t sfbTmem,
                                          bool enableInputD, Tcgen05Kind kind,
                                          Tcgen05ScaleVec vec) {
  MmaOperands op = mmaOperands(dTmem, aDesc, bDesc, idesc, enableInputD, kind);
  op.blockScaled = true;
  op.scaleVec = vec;
  op.sfaTmem = sfaTmem;
  op.sfbTmem = sfbTmem;
  return op;
}

/// The TMEM region an instruction wrote.
struct TmemRegion {
  TmemLanes lanes;
  uint32_t column = 0, columns = 0;
};

/// Executes tcgen05.mma.cta_group::1 on `tmem` with the floating-point
/// arithmetic `numerics`.
MmaProblem executeTcgen05Mma(const MmaOperands &op, Tcgen05Numerics numerics,
                             const SharedView &shared, TensorMemory &tmem, TmemRegion &written);

/// Executes tcgen05.cp.cta_group::1.<shape> [taddr], desc on `tmem`.
MmaProblem executeTcgen05Cp(uint32_t taddr, uint64_t desc, Tcgen05CpShape shape,
                                const SharedView &shared, TensorMemory &tmem, TmemRegion &written);

} // namespace cutec::rt
