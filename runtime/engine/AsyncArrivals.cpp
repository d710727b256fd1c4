// mbarrier arrivals of asynchronous operations, delivered with a latency the
// schedule chooses (runtime/engine/Schedule.h): a tcgen05.commit arrives once the
// operations it tracks are complete, each CTA of a multicast commit on its
// own, and a remote mbarrier.arrive.shared::cluster reaches the other CTA's
// mbarrier some time after it is issued (PTX ISA: neither is ordered with
// the issuer's later instructions). Until then the mbarrier's phase lacks
// the arrival, and a commit's TMEM writes stay pending (runtime/tensorcore/Tmem.h).
//
// An arrival in flight is delivered, at the latest, when a thread waits on
// its mbarrier and finds the phase incomplete (unless the schedule holds it
// a few more polls), when its issuer arrives at the cluster barrier (whose
// release orders a remote arrival first) and when its issuer exits; at any
// scheduling point before that with a probability drawn per seed. An
// issuer's arrivals on one CTA land in issue order. The fixed schedule
// delivers every arrival when it is issued.
#include "runtime/engine/Cluster.h"

#include "runtime/base/DiagnosticText.h"

#include <algorithm>

namespace cutec::rt {

void ClusterRunner::sendArrival(Thread &t, const Arrival &a) {
  arrivals.push_back(a);
  if (!launch.kernel.usesBarriers || !choices.delayArrival())
    deliverArrival(t, arrivals.size() - 1);
}

void ClusterRunner::deliverArrival(Thread &t, size_t i) {
  const Arrival &a = arrivals[i];
  auto sameSource = [issuer = a.issuer, target = a.target](const Arrival &b) {
    return b.issuer == issuer && b.target == target;
  };
  size_t count = size_t(std::count_if(arrivals.begin(), arrivals.begin() + std::ptrdiff_t(i) + 1,
                                      sameSource));
  for (; count > 0; --count)
    landArrival(t, size_t(std::find_if(arrivals.begin(), arrivals.end(), sameSource) -
                          arrivals.begin()));
}

void ClusterRunner::landArrival(Thread &t, size_t i) {
  Arrival a = arrivals[i];
  arrivals.erase(arrivals.begin() + std::ptrdiff_t(i));
  CtaRunner &target = *a.target;
  bool commit = a.tracks[0].cta != nullptr;
  uint32_t issuer = CtaRunner::clusterThreadId(*a.issuer);
  uint64_t phase = 0;
  {
    std::string problem;
    if (issuer >> 10 != target.rank && target.liveThreads == 0)
      problem = "its arrival reaches CTA " + dim3Text(target.ctaid) + " (rank " +
                std::to_string(target.rank) +
                ") after all its threads have exited: its shared memory is gone";
    else
      problem = target.mbarriers.arrive(a.bar, 0, phase);
    if (!problem.empty()) {
      if (commit && a.multicast)
        problem = "tcgen05.commit to CTA rank " + std::to_string(target.rank) + ": " + problem;
      else if (commit)
        problem = "tcgen05.commit: " + problem;
      target.recordFailure(*a.issuer, a.what, problem);
      problem = {};
      target.abandonRunning();
    }
  }
  for (const CommitTracks &c : a.tracks)
    if (c.cta)
      c.cta->tmem.commit(issuer, clusterAddress(target, a.bar), phase,
                         c.through);
  t.noteProgress();
}

void ClusterRunner::deliverArrivalsTo(Thread &t, CtaRunner &target, uint32_t bar) {
  if (arrivals.empty() || choices.holdArrivals())
    return;
  for (size_t i = 0; i < arrivals.size();) {
    if (arrivals[i].target == &target && arrivals[i].bar == bar) {
      deliverArrival(t, i);
      i = 0; // earlier ones of the same issuer may have gone too
    } else {
      ++i;
    }
  }
}

void ClusterRunner::deliverArrivalsOf(Thread &t, const Thread &issuer, bool commits) {
  for (size_t i = 0; i < arrivals.size();) {
    if (arrivals[i].issuer == &issuer && (commits || !arrivals[i].tracks[0].cta)) {
      deliverArrival(t, i);
      i = 0;
    } else {
      ++i;
    }
  }
}

const ClusterRunner::Arrival *ClusterRunner::commitInFlight(const CtaRunner &cta, uint32_t issuer,
                                                            uint64_t serial) const {
  for (const Arrival &a : arrivals)
    if (CtaRunner::clusterThreadId(*a.issuer) == issuer)
      for (const CommitTracks &c : a.tracks)
        if (c.cta == &cta && c.through >= serial)
          return &a;
  return nullptr;
}

void ClusterRunner::deliverAnyArrival(Thread &t) {
  if (!arrivals.empty() && choices.deliverEarly())
    deliverArrival(t, choices.latencyBelow(uint32_t(arrivals.size())));
}

} // namespace cutec::rt
