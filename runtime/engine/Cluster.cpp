// Running the CTAs of a cluster together: their scheduling rounds, the
// cluster-wide deadlock report, barrier.cluster and the pair collectives of
// cta_group::2.
#include "runtime/engine/Cluster.h"

#include "runtime/base/DiagnosticText.h"

#include <algorithm>

namespace cutec::rt {
std::string launchClusterDims(const KernelDescriptor &kernel, const LaunchConfig &config,
                              Dim3 &dims) {
  const Dim3 none{1, 1, 1};
  dims = config.cluster == none ? kernel.cluster : config.cluster;
  if (kernel.cluster != none && dims != kernel.cluster)
    return "the kernel was compiled for clusters of " + dim3Text(kernel.cluster) +
           " CTAs (.reqnctapercluster) but the launch asks for " + dim3Text(dims);
  if (dims.volume() == 0 || dims.volume() > kMaxClusterCtas)
    return "cluster " + dim3Text(dims) + " must have 1 to " + std::to_string(kMaxClusterCtas) +
           " CTAs";
  const Dim3 &grid = config.grid;
  if (grid.x % dims.x || grid.y % dims.y || grid.z % dims.z)
    return "grid " + dim3Text(grid) + " is not a whole number of clusters " + dim3Text(dims);
  return "";
}

ClusterRunner::ClusterRunner(LaunchState &launch) : launch(launch) {
  // checkConfig validated the shape already.
  std::string problem = launchClusterDims(launch.kernel, launch.config, clusterDims);
  (void)problem;
  auto count = uint32_t(clusterDims.volume());
  for (uint32_t rank = 0; rank < count; ++rank)
    members.push_back(std::make_unique<CtaRunner>(launch, *this, rank));
  runningCta = members.front().get();
  pairs.resize((count + 1) / 2);
  barrier.arrivedIn.assign(size_t(count) << 10, 0);
}

Status ClusterRunner::prepare() {
  for (auto &m : members)
    if (Status prepared = m->prepare(); !prepared)
      return prepared;
  return ok();
}

bool ClusterRunner::anyFailed() const {
  return std::any_of(members.begin(), members.end(), [](const auto &m) { return m->hasFailed(); });
}

Dim3 ClusterRunner::firstCtaOf(uint64_t clusterIndex) const {
  const Dim3 &grid = launch.config.grid;
  Dim3 per{grid.x / clusterDims.x, grid.y / clusterDims.y, grid.z / clusterDims.z};
  Dim3 cluster = unflatten(clusterIndex, per);
  return {cluster.x * clusterDims.x, cluster.y * clusterDims.y, cluster.z * clusterDims.z};
}

void ClusterRunner::run(uint64_t clusterIndex, uint64_t clusterSlot) {
  index = clusterIndex;
  slot = clusterSlot;
  Dim3 origin = firstCtaOf(clusterIndex);
  barrier = {0, 0, std::move(barrier.arrivedIn)};
  std::fill(barrier.arrivedIn.begin(), barrier.arrivedIn.end(), 0);
  for (Pair &p : pairs)
    p = Pair{};
  arrivals.clear();
  choices.reset(launch.config.scheduleSeed, clusterIndex, size(),
                uint32_t((launch.config.block.volume() + 31) / 32));
  if (launch.config.raceCheck)
    clocks.reset(size(), uint32_t(launch.config.block.volume()));
  for (auto &m : members) {
    Dim3 local = unflatten(m->clusterRank(), clusterDims);
    runningCta = m.get();
    m->start(clusterIndex, {origin.x + local.x, origin.y + local.y, origin.z + local.z});
    if (launch.shouldStop(clusterIndex) || m->hasFailed())
      return;
  }
  if (launch.kernel.usesBarriers)
    runCooperative();
}

void ClusterRunner::runCooperative() {
  std::vector<bool> done(members.size(), false);
  uint32_t idleRounds = 0;
  for (;;) {
    uint64_t effectsBefore = 0;
    for (const auto &m : members)
      effectsBefore += m->totalEffects();
    bool allDone = true;
    for (uint32_t r : choices.rankOrder()) {
      CtaRunner &m = *members[r];
      if (done[r])
        continue;
      if (!m.runRound())
        return;
      if (m.finished()) {
        done[r] = true;
        m.finish();
        if (m.hasFailed())
          return;
      } else {
        allDone = false;
      }
    }
    if (allDone)
      return;
    bool canRun =
        std::any_of(members.begin(), members.end(), [](const auto &m) { return m->anyCanRun(); });
    if (!canRun) {
      launch.reportError(index, deadlockReport("no thread can proceed"));
      return;
    }
    uint64_t effectsAfter = 0;
    for (const auto &m : members)
      effectsAfter += m->totalEffects();
    idleRounds = effectsAfter == effectsBefore ? idleRounds + 1 : 0;
    if (idleRounds >= launch.config.pollRoundLimit) {
      launch.reportError(index, deadlockReport("polling threads made no progress for " +
                                               std::to_string(idleRounds) +
                                               " rounds while no other thread could run"));
      return;
    }
  }
}

std::string ClusterRunner::deadlockReport(const std::string &why) const {
  if (members.size() == 1)
    return members.front()->deadlockReport(why);
  std::string text = "kernel '" + std::string(launch.kernel.name) + "', cluster " +
                     dim3Text(members.front()->ctaid) + " .. " + dim3Text(members.back()->ctaid) +
                     ": deadlock: " + why;
  if (barrier.arrivals)
    text += "\n  barrier.cluster: " + std::to_string(barrier.arrivals) + " of " +
            std::to_string(liveThreads()) + " live threads arrived in phase " +
            std::to_string(barrier.phase);
  for (const auto &m : members)
    text += "\n" +
            m->deadlockReport("CTA rank " + std::to_string(m->clusterRank()) + " of the cluster");
  return text;
}

uint32_t ClusterRunner::liveThreads() const {
  uint32_t live = 0;
  for (const auto &m : members)
    live += m->liveThreads;
  return live;
}

void ClusterRunner::threadExited(const Thread &t) {
  // An exited thread takes no part in the barrier any more.
  uint64_t &arrived = barrier.arrivedIn[CtaRunner::clusterThreadId(t)];
  if (arrived != 0 && arrived - 1 == barrier.phase)
    --barrier.arrivals;
  arrived = 0;
  completeBarrierIfDone();
}

void ClusterRunner::completeBarrierIfDone() {
  if (barrier.arrivals == 0 || barrier.arrivals != liveThreads())
    return;
  ++barrier.phase;
  barrier.arrivals = 0;
  if (launch.config.raceCheck) {
    joinClock(clocks.clusterCompleted, clocks.clusterArrivals.data(),
              uint32_t(clocks.clusterArrivals.size()));
    clocks.clusterArrivals.clear();
  }
}

void ClusterRunner::clusterArrive(Thread &t, const char *what, bool release) {
  if (release)
    deliverArrivalsOf(t, t, /*commits=*/false);
  uint64_t &arrived = barrier.arrivedIn[CtaRunner::clusterThreadId(t)];
  if (arrived != 0 && arrived - 1 == barrier.phase)
    t.failWith(what, [&] {
      return "barrier.cluster.arrive twice in phase " + std::to_string(barrier.phase) +
             " of the cluster barrier without a barrier.cluster.wait between";
    });
  arrived = barrier.phase + 1;
  ++barrier.arrivals;
  if (t.raceClocks && release)
    clocks.release(t.raceThread, clocks.clusterArrivals);
  t.noteProgress();
  completeBarrierIfDone();
}

bool ClusterRunner::clusterWaitDone(Thread &t, const char *what) {
  uint64_t &arrived = barrier.arrivedIn[CtaRunner::clusterThreadId(t)];
  if (arrived == 0)
    t.failWith(what, [] {
      return "barrier.cluster.wait without a barrier.cluster.arrive before it: the thread "
             "would wait for a phase it takes no part in";
    });
  if (arrived - 1 >= barrier.phase)
    return false;
  arrived = 0;
  if (t.raceClocks)
    clocks.acquire(t.raceThread, clocks.clusterCompleted);
  return true;
}

uint64_t ClusterRunner::pairArrive(Thread &t, uint32_t warp, const PairOperands &op,
                                   const char *what) {
  uint32_t rank = CtaRunner::clusterThreadId(t) >> 10;
  Pair &p = pairs[rank / 2];
  uint64_t generation = p.generation;
  p.arrived[rank % 2] = true;
  p.op[rank % 2] = op;
  p.warp[rank % 2] = warp;
  t.noteProgress();
  if (p.arrived[0] && p.arrived[1])
    performPair(t, p, rank / 2, what);
  return generation;
}

void ClusterRunner::performPair(Thread &t, Pair &p, uint32_t pairIndex, const char *what) {
  const PairOperands &mine = p.op[0], &theirs = p.op[1];
  if (mine.instruction != theirs.instruction || mine.columns != theirs.columns)
    t.failWith(what, [&] {
      return "the CTAs of pair " + std::to_string(pairIndex) +
             " meet at different cta_group::2 "
             "collectives: rank " +
             std::to_string(2 * pairIndex) + " at " + mine.instruction + " (" +
             std::to_string(mine.columns) + " columns), rank " + std::to_string(2 * pairIndex + 1) +
             " at " + theirs.instruction + " (" + std::to_string(theirs.columns) + " columns)";
    });
  CtaRunner &even = member(2 * pairIndex), &odd = member(2 * pairIndex + 1);
  even.tcgen05PairCollective(t, p.op[0], p.warp[0], odd, p.op[1], p.warp[1], what);
  p.arrived[0] = p.arrived[1] = false;
  ++p.generation;
}

} // namespace cutec::rt
