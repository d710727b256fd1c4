// Running CTAs: thread setup, the fiber scheduler and the scheduling points
// (barriers, warp-collectives, polling, exit, failure).
#include "runtime/engine/CtaRunner.h"

#include "runtime/engine/Cluster.h"
#include "runtime/base/DiagnosticText.h"

#include <algorithm>

namespace cutec::rt {
namespace {

/// Unwritten shared memory reads as all-ones: NaN in every float format and
/// -1 as an integer, so a kernel that forgets to write it shows it.
constexpr std::byte kSharedFill{0xFF};

} // namespace

Status CtaRunner::prepare() {
  const LaunchConfig &config = launch.config;
  auto threadCount = uint32_t(config.block.volume());
  threads.resize(threadCount);
  slots.resize(threadCount);
  warps.resize((threadCount + 31) / 32);
  liveLanes.resize(warps.size());
  bulkGroups.resize(threadCount);
  uint32_t staticBytes = (launch.kernel.staticSharedBytes + 15) / 16 * 16;
  shared.resize(size_t(staticBytes) + config.dynamicSharedBytes);
  sharedNames.reset(launch.kernel, kSharedWindowBase + staticBytes);
  for (uint32_t i = 0; i < threadCount; ++i) {
    Thread &t = threads[i];
    t.cta = this;
    t.globals = &launch.globals;
    t.sharedBytes = shared.data();
    t.sharedSize = uint32_t(shared.size());
    t.dynamicSharedOffset = staticBytes;
    t.pendingAsyncCopies = &pendingAsync;
    t.genericWrites = &genericWrites;
    if (config.raceCheck) {
      t.raceClocks = &cluster.raceClocks();
      t.raceThread = rank * threadCount + i; // its dense number (RaceClocks.h)
    }
    t.index = i;
    t.tid = unflatten(i, config.block);
    t.ntid = config.block;
    t.nctaid = config.grid;
    t.laneid = i % 32;
    t.warpid = i / 32;
  }
  for (uint32_t w = 0; w < warps.size(); ++w) {
    uint32_t lanes = std::min(32u, threadCount - w * 32);
    warps[w].lanes = lanes == 32 ? ~0u : (1u << lanes) - 1;
  }
  return stacks.reserve(launch.kernel.usesBarriers ? threadCount : 1, config.fiberStackBytes);
}

void CtaRunner::start(uint64_t clusterIndex, Dim3 id) {
  cta = clusterIndex;
  ctaid = id;
  failed = false;
  const Dim3 &dims = cluster.dims();
  Dim3 clusterid{id.x / dims.x, id.y / dims.y, id.z / dims.z};
  Dim3 nclusterid{launch.config.grid.x / dims.x, launch.config.grid.y / dims.y,
                  launch.config.grid.z / dims.z};
  for (Thread &t : threads) {
    t.ctaid = ctaid;
    t.cluster_ctaid = unflatten(rank, dims);
    t.cluster_nctaid = dims;
    t.clusterid = clusterid;
    t.nclusterid = nclusterid;
    t.cluster_ctarank = rank;
    t.cluster_nctarank = uint32_t(dims.volume());
  }
  std::fill(shared.begin(), shared.end(), kSharedFill);
  genericWrites.reset(shared.size(), launch.config.raceCheck);
  mbarriers.reset(&sharedNames);
  clcFailureObserved = false;
  tmem.reset();
  tmemInFlight.clear();
  forgetTcgen05Reads(0);
  dropWgmmaReads();
  dropAsyncCopies(); // those of a CTA that failed
  dropBulkStores();
  for (Slot &s : slots)
    s.pollsMbarrier = false;
  if (launch.kernel.usesBarriers) {
    startCooperative();
    return;
  }
  liveThreads = 0;
  prepareFiber(sequentialFiber, stacks.stack(0), &sequentialEntry, this);
  switchFiber(scheduler, sequentialFiber);
}

void CtaRunner::sequentialEntry(void *runner) {
  auto &self = *static_cast<CtaRunner *>(runner);
  for (Thread &t : self.threads) {
    if (self.launch.shouldStop(self.cta))
      break;
    self.current = t.index;
    self.launch.kernel.body(t, self.launch.params);
  }
  if (!self.launch.shouldStop(self.cta))
    self.finish();
  leaveFiber(self.sequentialFiber, self.scheduler);
}

void CtaRunner::finish() {
  if (reportUnfinishedCopies() || finishBulkStores() || reportTmemLeaks())
    return;
  if (std::string rounds = registers.unfinishedRounds(); !rounds.empty()) {
    launch.reportError(cta, ctaName() + ": the CTA ended in the middle of a setmaxnreg: " + rounds);
    failed = true;
  }
}

void CtaRunner::startCooperative() {
  for (uint32_t w = 0; w < warps.size(); ++w) {
    warps[w] = Warp{warps[w].lanes};
    liveLanes[w] = warps[w].lanes;
  }
  barriers.reset(liveLanes);
  warpgroups.assign((warps.size() + 3) / 4, Warpgroup{});
  registers.reset(uint32_t(warps.size()), launch.kernel.registersPerThread);
  for (Thread &t : threads) {
    Slot &s = slots[t.index];
    s.state = State::Runnable;
    prepareFiber(s.fiber, stacks.stack(t.index), &threadEntry, &t);
  }
  liveThreads = uint32_t(threads.size());
}

bool CtaRunner::runRound() {
  Schedule &schedule = cluster.schedule();
  if (schedule.fixed()) {
    for (uint32_t i = 0; i < slots.size(); ++i)
      if (!runSlot(i))
        return false;
    return true;
  }
  for (uint32_t i : schedule.threadOrder(rank, uint32_t(slots.size())))
    if (!runSlot(i))
      return false;
  return true;
}

bool CtaRunner::runSlot(uint32_t index) {
  Slot &s = slots[index];
  if (s.state != State::Runnable && s.state != State::Polling)
    return true;
  if (launch.shouldStop(cta))
    return false;
  s.state = State::Runnable;
  current = index;
  cluster.setRunning(this);
  switchFiber(scheduler, s.fiber);
  return !cluster.anyFailed();
}

void CtaRunner::schedulingPoint(Thread &t) {
  Schedule &schedule = cluster.schedule();
  if (schedule.fixed() || !launch.kernel.usesBarriers)
    return;
  if (schedule.landEarly())
    landAnyCopy(t);
  cluster.deliverAnyArrival(t);
  writeAnyBulkStore(t);
  if (schedule.preempt(rank, t.warpid)) {
    slots[t.index].state = State::Runnable;
    block(t);
  }
}

void CtaRunner::threadEntry(void *thread) {
  auto &t = *static_cast<Thread *>(thread);
  t.cta->launch.kernel.body(t, t.cta->launch.params);
  t.cta->exitThread(t);
}

void CtaRunner::exitThread(Thread &t) {
  checkWgmmaAtExit(t);
  cluster.deliverArrivalsOf(t, t, /*commits=*/true);
  Slot &s = slots[t.index];
  s.state = State::Exited;
  liveLanes[t.warpid] &= ~(1u << t.laneid);
  --liveThreads;
  ++t.effects;
  uint32_t completed = barriers.recheck();
  if (t.raceClocks)
    raceBarriersCompleted(completed);
  release(completed);
  releaseArrivals(t.warpid);
  cluster.threadExited(t);
  leaveFiber(s.fiber, scheduler);
}

void CtaRunner::requireCooperative(const Thread &t, const char *what) {
  if (!launch.kernel.usesBarriers)
    fail(t, what, [] {
      return "the kernel's descriptor says usesBarriers = false, so its threads run one after "
             "another and cannot wait for each other; kernels with barriers, warp-collectives "
             "or polling loops must set it";
    });
}

void CtaRunner::barrier(Thread &t, uint32_t id, uint32_t count, const char *what, bool wait) {
  requireCooperative(t, what);
  if (id >= NamedBarriers::kCount)
    fail(t, what, [&] {
      return "barrier " + std::to_string(id) + " does not exist (a CTA has barriers 0-15)";
    });
  if (count % 32)
    fail(t, what, [&] {
      return "barrier thread count " + std::to_string(count) +
             " is not a multiple of the warp size (32)";
    });
  if (!wait && count == 0)
    fail(t, what, [] { return "bar.arrive needs a thread count"; });
  if (count > warps.size() * 32)
    fail(t, what, [&] {
      return "barrier " + std::to_string(id) + " expects " + std::to_string(count) +
             " threads but the CTA has " + std::to_string(warps.size()) +
             " warps: it can never complete";
    });
  bool completed = arriveOrFail(t, id, count, what);
  ++t.effects;
  Slot &s = slots[t.index];
  s.barrierId = uint8_t(id);
  s.what = what;
  if (wait)
    s.state = State::AtBarrier;
  else if (barriers.lanePending(id, t.warpid, t.laneid))
    s.state = State::AtBarrierArrival;
  wgmmaOrderBarrier(t, id, completed);
  if (t.raceClocks) {
    raceBarrierArrive(t, id);
    // Every lane waits for its warp's arrival, so the warp's lanes meet.
    if (!barriers.lanePending(id, t.warpid, t.laneid)) {
      raceWarpMeet(t.warpid, liveLanes[t.warpid]);
      raceWarpTick(t.warpid, liveLanes[t.warpid]);
    }
    raceBarriersCompleted(completed ? 1u << id : 0);
  }
  release(completed ? 1u << id : 0);
  releaseArrivals(t.warpid);
  if (s.state != State::Runnable)
    block(t);
}

bool CtaRunner::arriveOrFail(Thread &t, uint32_t id, uint32_t count, const char *what) {
  {
    Result<bool> completed = barriers.arrive(id, count, t.warpid, t.laneid, what);
    if (completed)
      return completed.value();
    recordFailure(t, what, completed.error());
  } // the error's text is freed before the stack is abandoned
  abandonRunning();
}

void CtaRunner::release(uint32_t ids) {
  if (!ids)
    return;
  for (Slot &s : slots)
    if (s.state == State::AtBarrier && (ids >> s.barrierId & 1))
      s.state = State::Runnable;
}

void CtaRunner::releaseArrivals(uint32_t warp) {
  for (uint32_t lane = 0; lane < 32 && warp * 32 + lane < slots.size(); ++lane) {
    Slot &s = slots[warp * 32 + lane];
    if (s.state == State::AtBarrierArrival && !barriers.lanePending(s.barrierId, warp, lane))
      s.state = State::Runnable;
  }
}

void CtaRunner::warpSync(Thread &t, uint32_t memberMask, void *laneData, const char *what,
                         Thread::CollectiveCall call, void *fn) {
  requireCooperative(t, what);
  Warp &w = warps[t.warpid];
  uint32_t bit = 1u << t.laneid;
  if (!(memberMask & bit))
    fail(t, what, [&] {
      return "lane " + std::to_string(t.laneid) + " is not in its own membermask " +
             hex(memberMask);
    });
  if (memberMask & ~w.lanes)
    fail(t, what, [&] {
      return "membermask " + hex(memberMask) + " names lanes " + laneRanges(memberMask & ~w.lanes) +
             ", which warp " + std::to_string(t.warpid) + " does not have";
    });
  if (w.arrived == 0) {
    w.memberMask = memberMask;
    w.what = what;
  } else if (memberMask != w.memberMask || !sameInstruction(what, w.what)) {
    fail(t, what, [&] {
      return "lanes of warp " + std::to_string(t.warpid) +
             " diverged at a .sync.aligned warp-collective: lanes " + laneRanges(w.arrived) +
             " wait at " + quoted(w.what) + " (membermask " + hex(w.memberMask) + "), lane " +
             std::to_string(t.laneid) + " came to " + quoted(what) + " (membermask " +
             hex(memberMask) + ")";
    });
  }
  w.laneData[t.laneid] = laneData;
  w.arrived |= bit;
  ++t.effects;
  if (w.arrived != w.memberMask) {
    Slot &s = slots[t.index];
    s.state = State::AtWarpSync;
    s.what = what;
    block(t);
    return;
  }
  if (t.raceClocks)
    raceWarpMeet(t.warpid, memberMask);
  call(fn, WarpCollective{t.warpid, memberMask, w.laneData});
  if (t.raceClocks)
    raceWarpTick(t.warpid, memberMask);
  w.arrived = 0;
  w.laneData = {};
  for (uint32_t lane = 0; lane < 32; ++lane)
    if ((memberMask & ~bit) >> lane & 1)
      slots[t.warpid * 32 + lane].state = State::Runnable;
}

void CtaRunner::yieldThread(Thread &t, const char *what) {
  requireCooperative(t, what);
  Slot &s = slots[t.index];
  s.state = State::Polling;
  s.what = what;
  block(t);
}

void CtaRunner::setmaxnreg(Thread &t, bool inc, uint32_t count, const char *what) {
  t.warpSync(warps[t.warpid].lanes, nullptr, what, [&](const WarpCollective &w) {
    failIf(t, what, registers.execute(w.warpid, inc, count, what));
    if (!inc)
      releaseRegisterWaiters();
  });
  Slot &s = slots[t.index];
  while (!registers.grant(t.warpid)) {
    s.state = State::AtRegisters;
    s.what = what;
    block(t);
  }
  ++t.effects;
}

void CtaRunner::releaseRegisterWaiters() {
  for (Slot &s : slots)
    if (s.state == State::AtRegisters)
      s.state = State::Runnable;
}

void CtaRunner::recordFailure(const Thread &t, const char *what, std::string_view problem) {
  CtaRunner &own = *t.cta;
  std::string message = own.threadName(t) + ": ";
  if (what)
    message += std::string(what) + ": ";
  message += problem;
  launch.reportError(own.cta, std::move(message));
  own.failed = true;
}

void CtaRunner::abandonRunning() { cluster.running().leaveRunning(); }

void CtaRunner::leaveRunning() {
  FiberContext &running = launch.kernel.usesBarriers ? slots[current].fiber : sequentialFiber;
  leaveFiber(running, scheduler);
}

uint32_t CtaRunner::clusterThreadId(const Thread &t) { return t.clusterThreadId(); }

std::string CtaRunner::rankText() const {
  return cluster.size() > 1 ? " of CTA rank " + std::to_string(rank) : "";
}

std::string CtaRunner::issuerText(uint32_t clusterThread, bool alwaysNameCta) const {
  const CtaRunner &owner = cluster.member(clusterThread >> 10);
  const Thread &t = owner.threads[clusterThread & 1023];
  bool nameCta = cluster.size() > 1 && (alwaysNameCta || &owner != this);
  std::string text = nameCta ? "CTA " + dim3Text(owner.ctaid) + " " : "";
  return text + "thread " + dim3Text(t.tid) + ", warp " + std::to_string(t.warpid) + " lane " +
         std::to_string(t.laneid);
}

uint64_t CtaRunner::totalEffects() const {
  uint64_t sum = 0;
  for (const Thread &t : threads)
    sum += t.effects;
  return sum;
}

bool CtaRunner::anyCanRun() const {
  for (const Slot &s : slots)
    if (s.state == State::Runnable || s.state == State::Polling)
      return true;
  return false;
}

std::string CtaRunner::ctaName() const {
  return "kernel '" + std::string(launch.kernel.name) + "', CTA " + dim3Text(ctaid);
}

std::string CtaRunner::threadName(const Thread &t) const {
  return ctaName() + ", thread " + dim3Text(t.tid) + " (warp " + std::to_string(t.warpid) +
         ", lane " + std::to_string(t.laneid) + ")";
}

} // namespace cutec::rt
