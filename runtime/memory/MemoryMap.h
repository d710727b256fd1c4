// The global buffers of a launch: every `ld.global`/`st.global` of the
// emulated kernel must fall inside one of them, or the launch stops with a
// diagnostic naming the nearest buffer. Addresses are real host addresses, so
// kernel parameters carry the buffers' host pointers unchanged.
#pragma once

#include "runtime/base/Result.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cutec::rt {

class MemoryMap {
public:
  struct Buffer {
    uint64_t base;
    uint64_t size;
    std::string name;

    uint64_t end() const { return base + size; }
  };

  /// Registers [base, base + size) under `name`. Buffers must not overlap.
  Status add(const void *base, size_t size, std::string name);

  /// The buffer holding all of [address, address + width), or null.
  const Buffer *find(uint64_t address, uint64_t width) const;

  /// Why [address, address + width) is in no buffer, relative to the nearest
  /// one: "it starts 4 bytes past the end of buffer 'a' (...)".
  std::string describeMiss(uint64_t address, uint64_t width) const;

  /// The buffers sorted by base address.
  std::span<const Buffer> buffers() const { return sorted; }

private:
  /// Few buffers per launch: a sorted array searched by bisection is fastest.
  std::vector<Buffer> sorted;
};

} // namespace cutec::rt
