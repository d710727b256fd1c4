// tcgen05.ld and tcgen05.st in flight. The PTX ISA makes both asynchronous:
// a tcgen05.ld has read its TMEM only once its warp has executed
// tcgen05.wait::ld, a tcgen05.st has written it only after tcgen05.wait::st.
// The emulator moves the data when the instruction executes, but keeps its
// region *in flight* until its warp waits: an MMA or tcgen05.cp that writes
// a region a load may still read (TMEM released before tcgen05.wait::ld), one
// that reads or writes a region a store may still write (TMEM handed to the
// MMA before tcgen05.wait::st), another warp's tcgen05.ld or st over it, and
// a dealloc of its columns are reported. A warp's own loads and stores are
// not checked against each other.
#include "runtime/engine/CtaRunner.h"

#include "runtime/base/DiagnosticText.h"

#include <algorithm>

namespace cutec::rt {
namespace {

/// When an MMA or tcgen05.cp writes what a load in flight reads, the load
/// may also have come too early: an epilogue that reads the accumulator
/// before the MMA's commit has arrived. Names that missing wait.
std::string earlyLoadText(bool inFlightIsStore, uint32_t warp, bool write) {
  if (inFlightIsStore || !write)
    return "";
  return "; or, if warp " + std::to_string(warp) +
         " meant to read what this writes, it read too early: it must first wait "
         "(mbarrier_wait) on the mbarrier phase that this instruction's tcgen05.commit "
         "(umma_commit) arrives on";
}

} // namespace

void CtaRunner::noteTmemLdSt(const Thread &t, bool store, const TmemLanes &lanes, uint32_t column,
                             uint32_t columns, const char *what) {
  tmemInFlight.push_back({t.warpid, store, lanes, column, columns, what});
}

void CtaRunner::tcgen05WaitLdSt(const Thread &t, bool store) {
  // wait::ld/st is .sync.aligned: the warp's operations are complete once
  // all its lanes have executed it, not at the first one.
  std::erase_if(tmemInFlight, [&](TmemLdSt &a) {
    if (a.warp != t.warpid || a.store != store)
      return false;
    a.waited |= 1u << t.laneid;
    return (a.waited & liveLanes[t.warpid]) == liveLanes[t.warpid];
  });
}

const CtaRunner::TmemLdSt *CtaRunner::tmemLdStInFlight(const TmemLanes &lanes, uint32_t column,
                                                       uint32_t columns, bool write,
                                                       uint32_t exceptWarp) const {
  auto hit = std::find_if(tmemInFlight.begin(), tmemInFlight.end(), [&](const TmemLdSt &a) {
    return a.warp != exceptWarp && (write || a.store) && a.lanes.overlaps(lanes) &&
           a.column < column + columns && column < a.column + a.columns;
  });
  return hit == tmemInFlight.end() ? nullptr : &*hit;
}

void CtaRunner::checkTmemLdSt(Thread &t, const TmemLanes &lanes, uint32_t column,
                              uint32_t columns, bool write, uint32_t exceptWarp,
                              const char *access, const char *what,
                              std::initializer_list<std::vector<uint32_t> *> frame) {
  const TmemLdSt *a = tmemInFlight.empty()
                          ? nullptr
                          : tmemLdStInFlight(lanes, column, columns, write, exceptWarp);
  if (!a)
    return;
  for (std::vector<uint32_t> *v : frame)
    std::vector<uint32_t>().swap(*v);
  fail(t, what, [&] {
    const char *wait = a->store ? "tcgen05.wait::st" : "tcgen05.wait::ld";
    // A pair instruction checks the peer's TMEM too: name its CTA then.
    std::string cta = t.cta == this ? "" : "CTA rank " + std::to_string(rank) + " ";
    return std::string(access) + " TMEM " + lanes.text() + " columns [" + std::to_string(column) +
           "," + std::to_string(column + columns) + "), which '" + (a->what ? a->what : "?") +
           "' (" + cta + "warp " + std::to_string(a->warp) + "; " +
           (a->store ? "writes" : "reads") + " TMEM " + a->lanes.text() + " columns [" +
           std::to_string(a->column) + "," + std::to_string(a->column + a->columns) +
           ")) may still be " + (a->store ? "writing" : "reading") + ": warp " +
           std::to_string(a->warp) + " has not executed " + wait +
           " since, and must before the TMEM is " +
           (a->store ? "read or written by others" : "reused") +
           earlyLoadText(a->store, a->warp, write);
  });
}

} // namespace cutec::rt
