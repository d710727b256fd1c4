// The data movement of wgmma.mma_async with A and B in shared memory (or A
// in the warpgroup's registers): the
// descriptors decoded (runtime/tensorcore/GmmaDescriptor.h), the operands gathered
// (runtime/tensorcore/MmaOperandGather.h), the warpgroup's accumulator registers
// assembled into D and back (runtime/tensorcore/Wgmma.h's fragment), and the numbers
// computed by wgmmaAccumulate (runtime/tensorcore/WgmmaAccumulate.h). The CTA runner
// calls it once the four warps have issued the instruction.
#pragma once

#include "runtime/tensorcore/MmaOperandGather.h"
#include "runtime/tensorcore/Wgmma.h"

#include <cstdint>

namespace cutec::rt {

/// Threads in a warpgroup.
inline constexpr uint32_t kWarpgroupThreads = 128;

/// Executes one wgmma.mma_async: `d[t]` points to the accumulator registers
/// of thread t of the warpgroup (wgmmaAccumulatorRegisters(shape) of them),
/// read when `scaleD` and written with the result. With shape.aInRegisters
/// `a[t]` points to thread t's kWgmmaARegisters registers of A and `aDesc`
/// is not read; otherwise `a` is not.
MmaProblem executeWgmma(const WgmmaShape &shape, uint64_t aDesc, uint64_t bDesc, bool scaleD,
                        const SharedView &shared, uint32_t *const *d,
                        const uint32_t *const *a = nullptr);

} // namespace cutec::rt
