// The check of one plain access against what the race detector remembers of
// its location; see RaceCell.h.
#include "runtime/race/RaceCell.h"

namespace cutec::rt {
namespace {

/// Records a read by `t` at `now`: a single epoch while the reads are
/// ordered, a read set once two are not.
void recordRead(RaceCell &cell, RaceClocks &clocks, uint32_t t, uint32_t now, const char *what) {
  cell.readWhat = what;
  if (cell.reader == RaceCell::kReadSet) {
    clocks.readSet(cell.readClock)[t] = now;
    return;
  }
  if (cell.reader != 0 && cell.reader != t + 1 &&
      !clocks.before(cell.reader - 1, cell.readClock, t)) {
    uint32_t set = clocks.newReadSet();
    clocks.readSet(set)[cell.reader - 1] = cell.readClock;
    clocks.readSet(set)[t] = now;
    cell.reader = RaceCell::kReadSet;
    cell.readClock = set;
    return;
  }
  cell.reader = t + 1;
  cell.readClock = now;
}

} // namespace

std::optional<RacePrior> checkRace(RaceCell &cell, RaceClocks &clocks, uint32_t t,
                                   RaceAccess access, const char *what, bool sameValue) {
  if (cell.writer != 0) {
    uint32_t w = cell.writer - 1;
    bool bothAtomic = access == RaceAccess::Atomic && cell.writeAtomic;
    bool warpWideStore = access == RaceAccess::Write && !cell.writeAtomic && sameValue &&
                         cell.writeWhat == what && clocks.sameWarp(w, t);
    if (!bothAtomic && !warpWideStore && !clocks.before(w, cell.writeClock, t))
      return RacePrior{true, cell.writeAtomic, false, w, cell.writeWhat};
  }
  uint32_t now = clocks.now(t);
  if (access == RaceAccess::Read) {
    recordRead(cell, clocks, t, now, what);
    return std::nullopt;
  }
  if (cell.reader == RaceCell::kReadSet) {
    uint32_t u = clocks.firstUnordered(clocks.readSet(cell.readClock), t);
    if (u < clocks.size())
      return RacePrior{false, false, true, u, cell.readWhat};
    clocks.freeReadSet(cell.readClock);
  } else if (cell.reader != 0 && !clocks.before(cell.reader - 1, cell.readClock, t)) {
    return RacePrior{false, false, false, cell.reader - 1, cell.readWhat};
  }
  cell.reader = 0;
  cell.readWhat = nullptr;
  cell.writer = t + 1;
  cell.writeClock = now;
  cell.writeWhat = what;
  cell.writeAtomic = access == RaceAccess::Atomic;
  return std::nullopt;
}

} // namespace cutec::rt
