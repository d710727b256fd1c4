// TMEM storage, the column allocator and the pending-write bookkeeping.
#include "runtime/tensorcore/Tmem.h"

#include "runtime/base/DiagnosticText.h"

#include <algorithm>

namespace cutec::rt {
namespace {

bool overlaps(uint32_t a, uint32_t aCount, uint32_t b, uint32_t bCount) {
  return a < b + bCount && b < a + aCount;
}

} // namespace

std::string TmemLanes::text() const {
  std::string ranges;
  uint32_t pieces = 0, first = 0, last = 0;
  for (uint32_t lane = 0; lane < 128;) {
    if (!has(lane)) {
      ++lane;
      continue;
    }
    uint32_t end = lane;
    while (end + 1 < 128 && has(end + 1))
      ++end;
    ranges += (ranges.empty() ? "" : ",") + std::to_string(lane) + "-" + std::to_string(end);
    first = pieces == 0 ? lane : first;
    last = end;
    ++pieces;
    lane = end + 1;
  }
  if (pieces == 1)
    return "lanes [" + std::to_string(first) + "," + std::to_string(last + 1) + ")";
  return "lanes " + ranges;
}

void TensorMemory::reset() {
  live.clear();
  freed.clear();
  pending.clear();
  relinquished = false;
}

std::string TensorMemory::allocationText(const Allocation &a) {
  return "[" + std::to_string(a.column) + "," + std::to_string(a.column + a.columns) +
         ") by warp " + std::to_string(a.warp) + " at " + quoted(a.what);
}

std::string TensorMemory::allocate(uint32_t columns, uint32_t warp, const char *what,
                                   uint32_t &column) {
  if (columns < 32 || columns > kColumns || (columns & (columns - 1)))
    return "tcgen05.alloc of " + std::to_string(columns) +
           " columns: the count must be a power of two from 32 to 512";
  if (relinquished)
    return "tcgen05.alloc after this CTA executed tcgen05.relinquish_alloc_permit, which "
           "gives up the right to allocate";
  if (cells.empty())
    cells.assign(size_t(kLanes) * kColumns, kUnwritten);
  for (uint32_t start = 0; start + columns <= kColumns; start += columns) {
    bool isFree = std::none_of(live.begin(), live.end(), [&](const Allocation &a) {
      return overlaps(a.column, a.columns, start, columns);
    });
    if (!isFree)
      continue;
    column = start;
    live.push_back({start, columns, warp, what, 0, nullptr});
    std::sort(live.begin(), live.end(),
              [](const Allocation &a, const Allocation &b) { return a.column < b.column; });
    for (uint32_t lane = 0; lane < kLanes; ++lane)
      std::fill_n(&cell(lane, start), columns, kUnwritten);
    return "";
  }
  uint32_t used = 0;
  std::string owners;
  for (const Allocation &a : live) {
    used += a.columns;
    owners += (owners.empty() ? "" : ", ") + allocationText(a);
  }
  return "tcgen05.alloc of " + std::to_string(columns) +
         " columns finds no free block: " + std::to_string(used) +
         " of the CTA's 512 TMEM columns are allocated (" + owners +
         "); on the GPU the warp would wait here until another warp deallocates, and hang if "
         "none does";
}

std::string TensorMemory::deallocate(uint32_t taddr, uint32_t columns, uint32_t warp,
                                     const char *what) {
  uint32_t lane = taddr >> 16, column = taddr & 0xFFFF;
  if (lane != 0)
    return "tcgen05.dealloc address " + hex(taddr) + " has lane " + std::to_string(lane) +
           "; the address tcgen05.alloc wrote has lane 0";
  auto it = std::find_if(live.begin(), live.end(),
                         [&](const Allocation &a) { return a.column == column; });
  if (it == live.end()) {
    auto old = std::find_if(freed.rbegin(), freed.rend(),
                            [&](const Allocation &a) { return a.column == column; });
    if (old != freed.rend())
      return "double tcgen05.dealloc: TMEM columns " + allocationText(*old) +
             " were already deallocated by warp " + std::to_string(old->freedByWarp) + " at " +
             quoted(old->freedWhat);
    return "tcgen05.dealloc at TMEM column " + std::to_string(column) +
           ", where no live allocation starts";
  }
  if (it->columns != columns)
    return "tcgen05.dealloc of " + std::to_string(columns) + " columns, but the allocation " +
           allocationText(*it) + " has " + std::to_string(it->columns) +
           " (dealloc must give the allocated count)";
  for (const PendingWrite &p : pending)
    if (overlaps(p.column, p.columns, it->column, it->columns))
      return "tcgen05.dealloc of columns " + allocationText(*it) + " that " + quoted(p.what) +
             (p.readOnly ? " still reads" : " still writes") +
             ": no thread has waited for its completion";
  Allocation gone = *it;
  gone.freedByWarp = warp;
  gone.freedWhat = what;
  freed.push_back(gone);
  live.erase(it);
  return "";
}

std::string TensorMemory::relinquish() {
  relinquished = true;
  return "";
}

std::string TensorMemory::checkColumns(uint32_t column, uint32_t count,
                                       const std::string &operand) const {
  for (const Allocation &a : live)
    if (column >= a.column && column + count <= a.column + a.columns)
      return "";
  std::string owners;
  for (const Allocation &a : live)
    owners += (owners.empty() ? "" : ", ") + allocationText(a);
  return operand + " occupies TMEM columns [" + std::to_string(column) + "," +
         std::to_string(column + count) + "), which do not lie in one live allocation (" +
         (owners.empty() ? std::string("none is live") : "live: " + owners) + ")";
}

uint64_t TensorMemory::addPendingWrite(const TmemLanes &lanes, uint32_t column, uint32_t columns,
                                       const char *what, uint32_t issuer, bool readOnly) {
  PendingWrite p;
  p.serial = nextSerial++;
  p.lanes = lanes;
  p.column = column;
  p.columns = columns;
  p.what = what;
  p.issuer = issuer;
  p.readOnly = readOnly;
  pending.push_back(p);
  return p.serial;
}

void TensorMemory::commit(uint32_t issuer, uint32_t bar, uint64_t phase, uint64_t through) {
  for (PendingWrite &p : pending) {
    if (p.issuer != issuer || p.serial > through)
      continue;
    if (!p.committed) {
      p.committed = true;
      p.bar = bar;
      p.phase = phase;
    }
    p.commits.emplace_back(bar, phase);
  }
}

uint64_t TensorMemory::completedThrough(uint32_t bar, uint64_t phasesDone) const {
  uint64_t last = 0;
  for (const PendingWrite &p : pending)
    for (auto [commitBar, commitPhase] : p.commits)
      if (commitBar == bar && commitPhase < phasesDone)
        last = std::max(last, p.serial);
  return last;
}

uint64_t TensorMemory::observeCompletion(uint32_t bar, uint64_t phasesDone) {
  uint64_t last = completedThrough(bar, phasesDone);
  if (last != 0)
    std::erase_if(pending, [&](const PendingWrite &p) { return p.serial <= last; });
  return last;
}

const TensorMemory::PendingWrite *TensorMemory::pendingWrite(const TmemLanes &lanes,
                                                             uint32_t column, uint32_t columns,
                                                             bool orRead) const {
  for (const PendingWrite &p : pending)
    if ((orRead || !p.readOnly) && p.lanes.overlaps(lanes) &&
        overlaps(p.column, p.columns, column, columns))
      return &p;
  return nullptr;
}

} // namespace cutec::rt
