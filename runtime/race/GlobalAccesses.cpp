// The race detector's record of global memory; see GlobalAccesses.h.
#include "runtime/race/GlobalAccesses.h"

namespace cutec::rt {

GlobalAccesses::GlobalAccesses(const MemoryMap &globals)
    : globals(globals), buffers(globals.buffers().size()) {}

RaceCell *GlobalAccesses::cells(uint64_t address, uint64_t width,
                                const MemoryMap::Buffer *&buffer) {
  buffer = globals.find(address, width);
  size_t i = size_t(buffer - globals.buffers().data());
  RaceCell *cells = buffers[i].load(std::memory_order_acquire);
  if (cells)
    return cells;
  std::lock_guard lock(allocation);
  cells = buffers[i].load(std::memory_order_relaxed);
  if (!cells) {
    owned.push_back(std::make_unique<RaceCell[]>(buffer->size));
    cells = owned.back().get();
    buffers[i].store(cells, std::memory_order_release);
  }
  return cells;
}

std::optional<RacePrior> claimGlobalCell(RaceCell &cell, uint64_t cluster, RaceAccess access,
                                         bool &check, uint64_t &otherCluster) {
  check = false;
  auto me = uint32_t(cluster + 1);
  std::atomic_ref<uint32_t> owner(cell.owner);
  uint32_t seen = owner.load(std::memory_order_acquire);
  for (;;) {
    if (seen == me) {
      check = true;
      return std::nullopt;
    }
    if (seen == 0) {
      if (owner.compare_exchange_weak(seen, me, std::memory_order_acq_rel)) {
        check = true;
        return std::nullopt;
      }
      continue;
    }
    if (seen == RaceCell::kManyClusters) {
      if (access == RaceAccess::Read)
        return std::nullopt;
      otherCluster = UINT64_MAX; // several
      return RacePrior{false, false, true, cell.reader - 1, cell.readWhat};
    }
    otherCluster = seen - 1;
    if (cell.writer != 0) {
      if (access == RaceAccess::Atomic && cell.writeAtomic)
        return std::nullopt;
      return RacePrior{true, cell.writeAtomic, false, cell.writer - 1, cell.writeWhat};
    }
    if (access != RaceAccess::Read)
      return RacePrior{false, false, cell.reader == RaceCell::kReadSet, cell.reader - 1,
                       cell.readWhat};
    if (owner.compare_exchange_weak(seen, RaceCell::kManyClusters, std::memory_order_acq_rel))
      return std::nullopt;
  }
}

} // namespace cutec::rt
