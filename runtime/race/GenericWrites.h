// Which thread last wrote each byte of a CTA's shared memory through the
// generic proxy (st.shared, st.shared::cluster, stmatrix, atomics, mbarrier
// operations), and whether it has executed fence.proxy.async since.
//
// The PTX memory model lets the async proxy (TMA stores, tcgen05.mma and
// tcgen05.cp, wgmma.mma_async) read such a byte only after a
// fence.proxy.async of the writing thread that follows the write (and a
// synchronisation from the writer to the issuing thread, which the barriers
// model). Each thread counts its fences (Thread::asyncProxyFences, from 1);
// a write records the writer's count, so it is unfenced while the count is
// unchanged. A write of the async proxy (a TMA load landing) makes the
// async proxy's own write the last one, and forgets the generic writes of
// the 16-byte units it covers.
//
// With the race check on (LaunchConfig::raceCheck), each byte also keeps
// the plain accesses the data-race detector compares with (RaceCell.h): the
// last write or atomic and the reads since, with their clocks. A landing
// TMA load forgets them too: its own ordering is the asynchronous
// bookkeeping's to check (CtaAsync.cpp).
#pragma once

#include "runtime/race/RaceCell.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cutec::rt {

class GenericWrites {
public:
  struct Write {
    const char *what = nullptr; // the instruction
    uint32_t writer = 0;        // the writer's CtaRunner::clusterThreadId
    uint32_t fences = 0;        // its fence count at the write; 0: no write
  };

  /// Forgets every write of a CTA of `bytes` bytes of shared memory, and
  /// keeps race cells if `races`.
  void reset(size_t bytes, bool races) {
    units.assign((bytes + 15) / 16, 0);
    writes.resize(units.size() * 16);
    cells.resize(races ? units.size() * 16 : 0);
  }

  /// A write of `width` bytes at shared offset `offset`. Shared accesses are
  /// naturally aligned and at most 16 bytes, so it lies in one unit.
  void note(uint32_t offset, uint32_t width, const Write &w) {
    startUnit(offset / 16);
    std::fill_n(writes.begin() + offset, width, w);
  }

  /// The race cell of the byte at shared offset `offset` (race check on).
  RaceCell &cell(uint32_t offset) {
    startUnit(offset / 16);
    return cells[offset];
  }

  /// The async proxy wrote the 16-byte unit at shared offset `offset`.
  void forgetUnit(uint32_t offset) { units[offset / 16] = 0; }

  /// The first byte of the 16-byte unit at `offset` whose last write
  /// `unfenced(write)` finds unfenced, and its write; null if none.
  template <typename Unfenced>
  const Write *unfencedIn(uint32_t offset, Unfenced &&unfenced, uint32_t &at) const {
    if (!units[offset / 16])
      return nullptr;
    for (uint32_t b = offset & ~15u; b < (offset & ~15u) + 16; ++b)
      if (writes[b].fences != 0 && unfenced(writes[b])) {
        at = b;
        return &writes[b];
      }
    return nullptr;
  }

private:
  void startUnit(uint32_t unit) {
    if (units[unit])
      return;
    units[unit] = 1;
    std::fill_n(writes.begin() + unit * 16, 16, Write{});
    if (!cells.empty())
      std::fill_n(cells.begin() + unit * 16, 16, RaceCell{});
  }

  /// Per 16-byte unit: whether `writes` holds its bytes' writes (else none
  /// was written since the CTA started or the async proxy last wrote it).
  std::vector<uint8_t> units;
  std::vector<Write> writes; // per byte
  std::vector<RaceCell> cells; // per byte, with the race check
};

} // namespace cutec::rt
