// The data-race detector's record of global memory for one launch: a race
// cell (RaceCell.h) per byte of each buffer that the kernel's threads load
// or store with plain instructions or atomics, allocated at the buffer's
// first such access. A launch starts with all global memory ordered, so the
// record is the launch's own.
//
// The CTAs of different clusters are never ordered: each cell remembers the
// cluster whose threads accessed the byte (RaceCell::owner). Only that
// cluster's threads compare clocks there; another cluster's access races
// with a write (unless both are atomics), and a write races with another
// cluster's read. Bytes that several clusters only read need no clocks.
// Clusters run on several workers at once: a cell's claim and check happen
// under one of a set of locks chosen by the cell's address, so a cluster
// reading another's cell never sees it half written.
#pragma once

#include "runtime/memory/MemoryMap.h"
#include "runtime/race/RaceCell.h"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace cutec::rt {

class GlobalAccesses {
public:
  explicit GlobalAccesses(const MemoryMap &globals);

  /// The cells of the buffer holding [address, address + width) (which the
  /// caller has checked lies in one), and that buffer.
  RaceCell *cells(uint64_t address, uint64_t width, const MemoryMap::Buffer *&buffer);
  /// The lock to hold while claiming and checking `cell`.
  std::mutex &lockOf(const RaceCell &cell) {
    return stripes[(reinterpret_cast<uintptr_t>(&cell) / sizeof(RaceCell)) % stripes.size()];
  }

private:
  std::array<std::mutex, 64> stripes;
  const MemoryMap &globals;
  std::mutex allocation;
  std::vector<std::atomic<RaceCell *>> buffers; // per buffer of globals.buffers()
  std::vector<std::unique_ptr<RaceCell[]>> owned;
};

/// Claims `cell` for the cluster with linear index `cluster` before an
/// access; the earlier access of another cluster it races with, if any
/// (its `thread` is then the cell's dense thread in `*otherCluster`). False
/// in `check` when the access needs no check of clocks (a read of a byte
/// several clusters read, an atomic over another cluster's atomics).
std::optional<RacePrior> claimGlobalCell(RaceCell &cell, uint64_t cluster, RaceAccess access,
                                         bool &check, uint64_t &otherCluster);

} // namespace cutec::rt
