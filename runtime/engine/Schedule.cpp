// The choices of one schedule (see Schedule.h), drawn from a splitmix64
// stream: the same seed and cluster give the same choices on any machine.
#include "runtime/engine/Schedule.h"

#include <algorithm>
#include <numeric>

namespace cutec::rt {
namespace {

uint64_t splitmix64(uint64_t &x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Fisher-Yates with `below(n)` drawing from [0, n).
template <typename Below> void shuffle(std::vector<uint32_t> &v, Below &&below) {
  for (size_t i = v.size(); i > 1; --i)
    std::swap(v[i - 1], v[below(uint32_t(i))]);
}

} // namespace

uint64_t Schedule::next() { return splitmix64(state); }
uint64_t Schedule::nextLatency() { return splitmix64(latencyState); }

void Schedule::reset(uint64_t seed, uint64_t clusterIndex, uint32_t ctas, uint32_t warps) {
  ranks.resize(ctas);
  std::iota(ranks.begin(), ranks.end(), 0u);
  threads.clear();
  warpsPerCta = warps;
  if (seed == 0) {
    policy = Policy::Fixed;
    return;
  }
  uint64_t mix = seed;
  state = splitmix64(mix) ^ (clusterIndex * 0xD1B54A32D192ED03ull);
  policy = seed % 2 ? Policy::Shuffle : Policy::Priority;
  // Each schedule also draws how eagerly it preempts and moves loads, and
  // (from the latency stream) how often asynchronous arrivals and TMA
  // stores complete late, so that a set of schedules spans gentle and
  // aggressive ones. The order of the draws is part of each seed.
  struct Percents {
    uint32_t Schedule::*field;
    uint32_t choices[3];
  };
  static constexpr Percents kInterleaving[] = {{&Schedule::preemptPercent, {5, 20, 50}},
                                               {&Schedule::stallPercent, {0, 10, 30}},
                                               {&Schedule::delayPercent, {0, 50, 80}},
                                               {&Schedule::earlyPercent, {0, 5, 25}}};
  static constexpr Percents kLatency[] = {{&Schedule::arrivalDelayPercent, {0, 50, 90}},
                                          {&Schedule::holdPercent, {0, 50, 80}},
                                          {&Schedule::deliverPercent, {5, 10, 30}},
                                          {&Schedule::storePercent, {0, 5, 25}}};
  for (const Percents &p : kInterleaving)
    this->*p.field = p.choices[below(3)];
  latencyState = state ^ 0x6A09E667F3BCC909ull;
  for (const Percents &p : kLatency)
    this->*p.field = p.choices[latencyBelow(3)];
  steps = 0;
  changePoints.clear();
  priority.clear();
  if (policy != Policy::Priority)
    return;
  // PCT: distinct random priorities, and d = 1..3 change points spread over
  // a horizon of 2^6 .. 2^13 scheduling points.
  uint32_t count = ctas * warps;
  std::vector<uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  shuffle(order, [&](uint32_t n) { return below(n); });
  priority.assign(count, 0);
  for (uint32_t i = 0; i < count; ++i)
    priority[order[i]] = int64_t(i) + 1;
  lowest = 0;
  uint64_t horizon = uint64_t(1) << (6 + below(8));
  for (uint32_t d = 1 + below(3); d > 0; --d)
    changePoints.push_back(1 + next() % horizon);
}

const std::vector<uint32_t> &Schedule::rankOrder() {
  if (!fixed())
    shuffle(ranks, [&](uint32_t n) { return below(n); });
  return ranks;
}

const std::vector<uint32_t> &Schedule::threadOrder(uint32_t rank, uint32_t count) {
  threads.resize(count);
  std::iota(threads.begin(), threads.end(), 0u);
  if (policy == Policy::Shuffle) {
    // Stalled warps sit this round out.
    stalled.assign((count + 31) / 32, false);
    for (size_t w = 0; w < stalled.size(); ++w)
      stalled[w] = chance(stallPercent);
    std::erase_if(threads, [&](uint32_t i) { return stalled[i / 32]; });
    shuffle(threads, [&](uint32_t n) { return below(n); });
  } else if (policy == Policy::Priority) {
    // Warps by falling priority, the lanes of each in order.
    const int64_t *p = priority.data() + size_t(rank) * warpsPerCta;
    std::stable_sort(threads.begin(), threads.end(),
                     [&](uint32_t a, uint32_t b) { return p[a / 32] > p[b / 32]; });
  }
  return threads;
}

bool Schedule::preempt(uint32_t rank, uint32_t warp) {
  if (policy == Policy::Shuffle)
    return chance(preemptPercent);
  if (policy != Policy::Priority)
    return false;
  ++steps;
  if (std::find(changePoints.begin(), changePoints.end(), steps) == changePoints.end())
    return false;
  priority[size_t(rank) * warpsPerCta + warp] = --lowest;
  return true;
}

} // namespace cutec::rt
