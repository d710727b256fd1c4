// The stacks of one worker's fibers: one mapping, carved into equal stacks
// with an inaccessible guard page below each, so that a fiber overflowing its
// stack faults at once instead of overwriting its neighbour. Allocated once
// per worker and reused by every CTA it runs; pages are committed only when
// touched.
#pragma once

#include "runtime/base/Result.h"

#include <cstddef>
#include <span>

namespace cutec::rt {

class FiberStacks {
public:
  FiberStacks() = default;
  FiberStacks(const FiberStacks &) = delete;
  FiberStacks &operator=(const FiberStacks &) = delete;
  ~FiberStacks();

  /// Makes room for at least `count` stacks of at least `bytes` each (keeping
  /// the current mapping when it is big enough).
  Status reserve(size_t count, size_t bytes);

  std::span<std::byte> stack(size_t index) const;

private:
  std::byte *mapping = nullptr;
  size_t mappingBytes = 0;
  size_t count = 0;
  size_t stride = 0; // guard page + stack
  size_t guardBytes = 0;
};

} // namespace cutec::rt
