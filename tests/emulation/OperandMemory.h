//===- OperandMemory.h - A block-scaled problem's buffers, for a launch by hand ===//
//
// The tests that launch an emulated kernel themselves (to give it a
// misaligned address, say) register the problem's buffers with the
// runtime's memory map and pass their addresses as parameters.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TESTS_EMULATION_OPERANDMEMORY_H
#define CUTEC_TESTS_EMULATION_OPERANDMEMORY_H

#include "runtime/Emulation.h"

#include <cstddef>
#include <cstdint>

namespace cutec::test {

/// The address of `ptr` as a kernel parameter.
inline uint64_t addressOf(const void *ptr) { return uint64_t(reinterpret_cast<uintptr_t>(ptr)); }

/// Registers `p`'s A, B, SFA and SFB and the `cBytes` bytes at `c` with
/// `memory`; false if one was refused.
template <typename Problem>
bool addOperandMemory(rt::MemoryMap &memory, const Problem &p, const void *c, size_t cBytes) {
  return memory.add(p.a.data(), p.a.size(), "buffer") &&
         memory.add(p.b.data(), p.b.size(), "buffer") &&
         memory.add(p.sfa.data(), p.sfa.size(), "buffer") &&
         memory.add(p.sfb.data(), p.sfb.size(), "buffer") && memory.add(c, cBytes, "buffer");
}

} // namespace cutec::test

#endif
