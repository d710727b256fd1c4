// Costs of the emulator's execution model, on one worker: launching a CTA,
// running a thread on the barrier-free fast path, and a bar.sync or a
// warp-collective round trip through the fiber scheduler. Figures are per
// item (CTA, thread, barrier, collective); nothing asserts them.
#include "runtime/Emulation.h"

#include <benchmark/benchmark.h>

namespace cutec::rt {
namespace {

struct Params {
  uint64_t out;
  uint32_t rounds;
};

void emptyBody(Thread &, const void *) {}

void storeBody(Thread &t, const void *params) {
  auto &p = *static_cast<const Params *>(params);
  uint32_t linear = t.ctaid.x * t.ntid.x + t.tid.x;
  t.storeGlobal<uint32_t>(p.out + uint64_t(linear) * 4, linear, "st.global.u32");
}

void barrierBody(Thread &t, const void *params) {
  auto &p = *static_cast<const Params *>(params);
  for (uint32_t i = 0; i < p.rounds; ++i)
    t.barrierSync(0, 0, "bar.sync 0");
}

void warpSyncBody(Thread &t, const void *params) {
  auto &p = *static_cast<const Params *>(params);
  uint32_t value = t.laneid;
  for (uint32_t i = 0; i < p.rounds; ++i)
    t.warpSync(0xFFFFFFFF, &value, "shfl.sync.bfly.b32", [](const WarpCollective &) {});
}

/// Runs `kernel` over `ctas` x `threads` on one worker per iteration and
/// reports the time per `itemsPerLaunch`.
void runLaunches(benchmark::State &state, const KernelDescriptor &kernel, uint32_t ctas,
                 uint32_t threads, uint32_t rounds, int64_t itemsPerLaunch) {
  std::vector<uint32_t> out(size_t(ctas) * threads);
  MemoryMap map;
  if (!map.add(out.data(), out.size() * 4, "out")) {
    state.SkipWithError("cannot register the buffer");
    return;
  }
  Params params{reinterpret_cast<uintptr_t>(out.data()), rounds};
  LaunchConfig config;
  config.grid = {ctas, 1, 1};
  config.block = {threads, 1, 1};
  config.workerThreads = 1;
  for (auto _ : state) {
    Status status = launch(kernel, config, &params, map);
    if (!status) {
      state.SkipWithError(status.error().c_str());
      return;
    }
  }
  // Seconds per item, printed with an SI prefix ("25n" is 25 ns).
  state.counters["per_item"] =
      benchmark::Counter(double(itemsPerLaunch), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
}

void launchOverheadPerCta(benchmark::State &state) {
  static const KernelDescriptor kernel{"empty", emptyBody, 0, false, 0};
  runLaunches(state, kernel, 4096, 1, 0, 4096);
}
BENCHMARK(launchOverheadPerCta);

void launchOverheadPerFiberCta(benchmark::State &state) {
  // A CTA of 128 fiber threads that exit at once: setting up the fibers.
  static const KernelDescriptor kernel{"empty_fibers", emptyBody, 0, true, 0};
  runLaunches(state, kernel, 512, 128, 0, 512);
}
BENCHMARK(launchOverheadPerFiberCta);

void fastPathPerThread(benchmark::State &state) {
  static const KernelDescriptor kernel{"store", storeBody, sizeof(Params), false, 0};
  runLaunches(state, kernel, 256, 256, 0, 256 * 256);
}
BENCHMARK(fastPathPerThread);

void barrierRoundTrip(benchmark::State &state) {
  // Per CTA-wide bar.sync of `threads` threads; divide by the thread count
  // for the cost per thread (two fiber switches each).
  static const KernelDescriptor kernel{"barriers", barrierBody, sizeof(Params), true, 0};
  auto threads = uint32_t(state.range(0));
  runLaunches(state, kernel, 1, threads, 1000, 1000);
}
BENCHMARK(barrierRoundTrip)->Arg(32)->Arg(128)->Arg(1024);

void warpCollectiveRoundTrip(benchmark::State &state) {
  static const KernelDescriptor kernel{"collectives", warpSyncBody, sizeof(Params), true, 0};
  runLaunches(state, kernel, 1, 128, 1000, 4 * 1000); // per warp-collective
}
BENCHMARK(warpCollectiveRoundTrip);

} // namespace
} // namespace cutec::rt

BENCHMARK_MAIN();
