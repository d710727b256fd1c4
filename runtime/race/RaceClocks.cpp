// The vector clocks of the data-race detector; see RaceClocks.h.
#include "runtime/race/RaceClocks.h"

#include <algorithm>

namespace cutec::rt {

void joinClock(VectorClock &into, const uint32_t *from, uint32_t size) {
  if (into.size() < size)
    into.resize(size, 0);
  uint32_t *to = into.data();
  for (uint32_t i = 0; i < size; ++i)
    to[i] = std::max(to[i], from[i]);
}

void RaceClocks::reset(uint32_t ctas, uint32_t ctaThreads) {
  uint32_t threads = ctas * ctaThreads;
  // The previous cluster's clocks stay: every clock of this one starts above
  // all of them, so they say nothing about its threads, and the rows need
  // no clearing (the quadratic part of a reset).
  uint32_t floor = 0;
  if (threads == threadCount) {
    for (uint32_t t = 0; t < threads; ++t)
      floor = std::max(floor, row(t)[t]);
  } else {
    clocks.assign(size_t(threads) * threads, 0);
  }
  threadCount = threads;
  perCta = ctaThreads;
  for (uint32_t t = 0; t < threads; ++t)
    row(t)[t] = floor + 1;
  lastMeeting.assign(threads, 0);
  mbarriers.clear();
  barriers.assign(16 * 16, VectorClock{});
  clusterArrivals.clear();
  clusterCompleted.clear();
  readSets.clear();
  freeReadSets.clear();
}

uint32_t RaceClocks::firstUnordered(const VectorClock &reads, uint32_t later) const {
  const uint32_t *known = row(later);
  for (uint32_t u = 0; u < reads.size(); ++u)
    if (u != later && reads[u] > known[u])
      return u;
  return threadCount;
}

void RaceClocks::release(uint32_t t, VectorClock &into) {
  joinClock(into, row(t), threadCount);
  tick(t);
}

void RaceClocks::acquire(uint32_t t, const VectorClock &from) {
  lastMeeting[t] = 0;
  uint32_t *to = row(t);
  for (uint32_t u = 0; u < from.size() && u < threadCount; ++u)
    to[u] = std::max(to[u], from[u]);
}

void RaceClocks::meet(std::span<const uint32_t> members) {
  uint32_t previous = lastMeeting[members.front()];
  bool sameMeeting = previous != 0;
  for (uint32_t t : members)
    sameMeeting = sameMeeting && lastMeeting[t] == previous;
  ++meetings;
  for (uint32_t t : members)
    lastMeeting[t] = meetings;
  if (sameMeeting) {
    // Equal rows but for the members' own entries, each the largest.
    for (uint32_t t : members)
      for (uint32_t u : members)
        row(t)[u] = row(u)[u];
    return;
  }
  scratch.assign(threadCount, 0);
  for (uint32_t t : members)
    joinClock(scratch, row(t), threadCount);
  for (uint32_t t : members)
    std::copy(scratch.begin(), scratch.end(), row(t));
}

uint32_t RaceClocks::newReadSet() {
  if (!freeReadSets.empty()) {
    uint32_t i = freeReadSets.back();
    freeReadSets.pop_back();
    readSets[i].assign(threadCount, 0);
    return i;
  }
  readSets.emplace_back(threadCount, 0);
  return uint32_t(readSets.size() - 1);
}

} // namespace cutec::rt
