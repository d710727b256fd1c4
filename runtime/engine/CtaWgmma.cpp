// The CTA's warpgroup MMA side (sm_90a): the warpgroup meeting of the four
// wgmma instructions, wgmma-groups, and the checks of the PTX ISA's rules
// that the emulator can see.
//
// Every wgmma instruction is a warpgroup meeting: the lanes of each warp meet
// as at any warp-collective (lanes that diverge or exit are reported there),
// then the warp waits until all four warps of its warpgroup have met at the
// same instruction with the same operands. The last warp to arrive performs
// it while the others are suspended, so the 128 threads' accumulator
// pointers are all valid then. wgmma.mma_async reads shared memory and writes
// the registers at that point (eagerly: see docs/emulator.md "Warpgroup MMA"
// for what this model can and cannot see). Everything happens at fixed points
// of the fixed schedule, so results do not depend on the worker count.
#include "runtime/engine/CtaRunner.h"

#include "runtime/base/DiagnosticText.h"
#include "runtime/tensorcore/WgmmaMma.h"
#include "hardware/ThreadHierarchy.h"


namespace cutec::rt {
namespace {

/// Whether two lanes' operands are the same instruction's (the accumulator
/// registers are each thread's own).
bool sameForm(const WgmmaLane &x, const WgmmaLane &y) {
  if (x.op != y.op)
    return false;
  switch (x.op) {
  case WgmmaLane::Op::Wait:
    return x.pending == y.pending;
  case WgmmaLane::Op::Mma:
    return x.shape == y.shape && x.aDesc == y.aDesc && x.bDesc == y.bDesc && x.scaleD == y.scaleD;
  default:
    return true;
  }
}

/// "wgmma.wait_group 1", "wgmma.mma_async.m64n64k16.f32.f16.f16 (A
/// descriptor 0x..., B descriptor 0x..., scale-d 1)"
std::string formText(const WgmmaLane &lane) {
  switch (lane.op) {
  case WgmmaLane::Op::Fence:
    return "wgmma.fence";
  case WgmmaLane::Op::Commit:
    return "wgmma.commit_group";
  case WgmmaLane::Op::Wait:
    return "wgmma.wait_group " + std::to_string(lane.pending);
  case WgmmaLane::Op::Mma:
    break;
  }
  return "wgmma.mma_async." + wgmmaShapeText(lane.shape) + " (A descriptor " + hex(lane.aDesc) +
         ", B descriptor " + hex(lane.bDesc) + ", scale-d " + (lane.scaleD ? "1" : "0") + ")";
}

/// "warps 4,5" / "warp 6" for the bits of warpgroup g.
std::string warpsText(uint32_t g, uint32_t bits) {
  std::string list;
  for (uint32_t i = 0; i < hw::kWarpsPerWarpgroup; ++i)
    if (bits >> i & 1)
      list += (list.empty() ? "" : ",") + std::to_string(g * hw::kWarpsPerWarpgroup + i);
  return (bits & (bits - 1) ? "warps " : "warp ") + list;
}

/// A wgmma.mma_async's operands but A's.
WgmmaLane mmaLane(const WgmmaShape &shape, uint32_t *d, uint64_t bDesc, bool scaleD) {
  WgmmaLane lane;
  lane.op = WgmmaLane::Op::Mma;
  lane.shape = shape;
  lane.d = d;
  lane.bDesc = bDesc;
  lane.scaleD = scaleD;
  return lane;
}

} // namespace

void CtaRunner::wgmmaCollective(Thread &t, WgmmaLane &lane, const char *what) {
  requireCooperative(t, what);
  const uint32_t g = t.warpid / hw::kWarpsPerWarpgroup, firstWarp = g * hw::kWarpsPerWarpgroup;
  if (firstWarp + hw::kWarpsPerWarpgroup > warps.size() || warps[firstWarp + 3].lanes != hw::kFullWarpMask)
    fail(t, what, [&] {
      return "wgmma instructions are executed by a whole warpgroup of 128 threads, but "
             "warpgroup " +
             std::to_string(g) + " of this CTA of " + std::to_string(threads.size()) +
             " threads has only threads [" + std::to_string(128 * g) + "," +
             std::to_string(threads.size()) + ")";
    });
  if (lane.op == WgmmaLane::Op::Mma && !lane.d)
    fail(t, what, [] { return "wgmma.mma_async without accumulator registers (d is null)"; });
  if (lane.op == WgmmaLane::Op::Mma && lane.shape.aInRegisters != (lane.a != nullptr))
    fail(t, what, [&] {
      return lane.a ? "wgmma.mma_async with registers of A but a form that reads A's descriptor"
                    : "wgmma.mma_async with A from registers but no registers of A (a is null)";
    });
  // The warpgroup's generation cannot move before this warp arrives.
  const uint64_t seen = warpgroups[g].generation;
  t.warpSync(hw::kFullWarpMask, &lane, what,
             [this, &t, what](const WarpCollective &w) { wgmmaArriveWarp(t, w, what); });
  Slot &s = slots[t.index];
  while (warpgroups[g].generation == seen) {
    s.state = State::AtWarpgroup;
    s.what = what;
    block(t);
  }
  ++t.effects;
}

void CtaRunner::wgmmaArriveWarp(Thread &t, const WarpCollective &w, const char *what) {
  const auto *first = static_cast<const WgmmaLane *>(w.laneData[0]);
  for (uint32_t l = 1; l < 32; ++l)
    if (!sameForm(*static_cast<const WgmmaLane *>(w.laneData[l]), *first))
      fail(t, what, [&] {
        return "lanes 0 and " + std::to_string(l) + " of warp " + std::to_string(w.warpid) +
               " pass different operands to a .sync.aligned wgmma instruction: " +
               formText(*first) + " and " +
               formText(*static_cast<const WgmmaLane *>(w.laneData[l]));
      });
  const uint32_t index = w.warpid / hw::kWarpsPerWarpgroup, bit = 1u << w.warpid % hw::kWarpsPerWarpgroup;
  Warpgroup &g = warpgroups[index];
  if (g.arrived == 0) {
    g.form = *first;
    g.what = what;
    g.firstWarp = w.warpid;
  } else if (!sameForm(g.form, *first) || !sameInstruction(g.what, what)) {
    fail(t, what, [&] {
      return "the warps of warpgroup " + std::to_string(index) +
             " execute different wgmma instructions (.aligned: all four execute the same one): " +
             warpsText(index, g.arrived) + " wait at " + quoted(g.what) + " (" +
             formText(g.form) + "), warp " + std::to_string(w.warpid) + " came to " +
             quoted(what) + " (" + formText(*first) + ")";
    });
  }
  for (uint32_t l = 0; l < 32; ++l) {
    const auto *lane = static_cast<WgmmaLane *>(w.laneData[l]);
    g.d[32 * (w.warpid % hw::kWarpsPerWarpgroup) + l] = lane->d;
    g.a[32 * (w.warpid % hw::kWarpsPerWarpgroup) + l] = lane->a;
  }
  g.arrived |= bit;
  if (g.arrived != (1u << hw::kWarpsPerWarpgroup) - 1)
    return;
  wgmmaPerform(t, g, what);
  g.arrived = 0;
  g.d = {};
  g.a = {};
  ++g.generation;
  for (uint32_t i = 0; i < hw::kWarpsPerWarpgroup * 32; ++i) {
    Slot &s = slots[index * 128 + i];
    if (s.state == State::AtWarpgroup)
      s.state = State::Runnable;
  }
}

void CtaRunner::wgmmaPerform(Thread &t, Warpgroup &g, const char *what) {
  switch (g.form.op) {
  case WgmmaLane::Op::Fence:
    g.fenced = true;
    return;
  case WgmmaLane::Op::Commit:
    g.committed.push_back({g.uncommitted, g.firstUncommitted});
    g.uncommitted = 0;
    g.firstUncommitted = nullptr;
    return;
  case WgmmaLane::Op::Wait:
    if (g.committed.size() > g.form.pending)
      g.committed.erase(g.committed.begin(),
                        g.committed.end() - std::ptrdiff_t(g.form.pending));
    g.fenced = false;
    g.lastWait = what;
    g.retired = g.issued - g.uncommitted;
    for (const Warpgroup::Group &group : g.committed)
      g.retired -= group.count;
    retireWgmmaReads(g);
    return;
  case WgmmaLane::Op::Mma:
    break;
  }
  if (!g.fenced)
    fail(t, what, [&] {
      if (!g.lastWait)
        return std::string("no wgmma.fence of the warpgroup precedes its first wgmma.mma_async "
                           "(the PTX ISA requires one; without it the behaviour is undefined)");
      return "no wgmma.fence of the warpgroup since its wgmma.wait_group at " +
             quoted(g.lastWait) +
             ": after a wait the threads may access the accumulator registers, and the PTX ISA "
             "requires a wgmma.fence between such accesses and the next wgmma.mma_async";
    });
  std::vector<uint32_t> units;
  {
    SharedView view = sharedView();
    view.unitsRead = &units;
    MmaProblem problem = executeWgmma(g.form.shape, g.form.aDesc, g.form.bDesc, g.form.scaleD,
                                      view, g.d.data(), g.a.data());
    if (problem) {
      std::vector<uint32_t>().swap(units); // frees it: the frame is abandoned
      failTcgen05(t, what, problem);
    }
  }
  checkOperandsFenced(t, units, what);
  ++g.issued;
  noteWgmmaReads(g, std::move(units), what);
  if (g.uncommitted++ == 0)
    g.firstUncommitted = what;
}

void CtaRunner::checkWgmmaAtExit(Thread &t) {
  const uint32_t index = t.warpid / hw::kWarpsPerWarpgroup;
  if (index >= warpgroups.size())
    return;
  const Warpgroup &g = warpgroups[index];
  uint32_t pending = g.uncommitted;
  const char *oldest = g.firstUncommitted;
  for (auto it = g.committed.rbegin(); it != g.committed.rend(); ++it)
    if (it->count) {
      pending += it->count;
      oldest = it->first;
    }
  if (pending == 0)
    return;
  fail(t, oldest, [&] {
    return "the thread exits while " + std::to_string(pending) +
           " wgmma.mma_async of its warpgroup (this one the oldest) are pending: " +
           (g.uncommitted ? std::to_string(g.uncommitted) + " not committed" : std::string()) +
           (g.uncommitted && pending > g.uncommitted ? ", " : "") +
           (pending > g.uncommitted ? std::to_string(pending - g.uncommitted) +
                                          " in committed groups no wgmma.wait_group retired"
                                    : std::string()) +
           "; wait for them (wgmma.commit_group, then wgmma.wait_group 0) before the thread "
           "exits";
  });
}

std::string CtaRunner::warpgroupText(uint32_t index) const {
  const Warpgroup &g = warpgroups[index];
  std::string text = "warpgroup " + std::to_string(index) + ": " +
                     warpsText(index, g.arrived) + " arrived at " + quoted(g.what);
  for (uint32_t i = 0; i < hw::kWarpsPerWarpgroup; ++i) {
    uint32_t w = index * hw::kWarpsPerWarpgroup + i;
    if (g.arrived >> i & 1)
      continue;
    text += "; warp " + std::to_string(w) + (liveLanes[w] == 0 ? " has exited" : " not yet");
  }
  return text;
}

// Thread's entry points.

void Thread::wgmmaFence(const char *what) {
  WgmmaLane lane;
  lane.op = WgmmaLane::Op::Fence;
  cta->wgmmaCollective(*this, lane, what);
}

void Thread::wgmmaCommitGroup(const char *what) {
  WgmmaLane lane;
  lane.op = WgmmaLane::Op::Commit;
  cta->wgmmaCollective(*this, lane, what);
  cta->schedulingPoint(*this);
}

void Thread::wgmmaWaitGroup(uint32_t pending, const char *what) {
  WgmmaLane lane;
  lane.op = WgmmaLane::Op::Wait;
  lane.pending = pending;
  cta->wgmmaCollective(*this, lane, what);
  cta->schedulingPoint(*this);
}

void Thread::wgmmaMmaAsync(const WgmmaShape &shape, uint32_t *d, uint64_t aDesc, uint64_t bDesc,
                           bool scaleD, const char *what) {
  WgmmaLane lane = mmaLane(shape, d, bDesc, scaleD);
  lane.aDesc = aDesc;
  cta->wgmmaCollective(*this, lane, what);
}

void Thread::wgmmaMmaAsync(const WgmmaShape &shape, uint32_t *d, const uint32_t *a, uint64_t bDesc,
                           bool scaleD, const char *what) {
  WgmmaLane lane = mmaLane(shape, d, bDesc, scaleD);
  lane.a = a;
  cta->wgmmaCollective(*this, lane, what);
}

} // namespace cutec::rt
