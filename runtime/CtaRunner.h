// One worker's engine: runs CTAs one at a time, all threads of each.
//
// Kernels without barriers (KernelDescriptor::usesBarriers false) run their
// threads one after another to completion, on one fiber so that an error can
// abandon the body wherever it happens. Kernels with barriers run each thread
// as a fiber on its own stack, scheduled round-robin in linear thread order:
// a thread runs until it blocks (bar.sync, a warp-collective), polls
// (yieldThread) or exits, then the next one runs. The order is fixed, so a
// CTA always executes the same way.
//
// Deadlocks: when no live thread can run, or only polling threads run and
// nothing changes (no store, arrival, exit or noted progress) for
// LaunchConfig::pollRoundLimit rounds, the CTA stops with a report of what
// every warp's lanes wait for.
#pragma once

#include "runtime/Fiber.h"
#include "runtime/FiberStacks.h"
#include "runtime/LaunchState.h"
#include "runtime/NamedBarriers.h"
#include "runtime/Thread.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace cutec::rt {

class CtaRunner {
public:
  explicit CtaRunner(LaunchState &launch) : launch(launch) {}

  /// Allocates this worker's threads, stacks and shared memory.
  Status prepare();

  /// Runs the CTA with linear index `cta` until it finishes, fails or must
  /// stop because an earlier CTA failed. Errors go to the launch state.
  void run(uint64_t cta);

  // The scheduling points behind Thread's methods; see there.
  void barrier(Thread &t, uint32_t id, uint32_t count, const char *what, bool wait);
  void warpSync(Thread &t, uint32_t memberMask, void *laneData, const char *what,
                Thread::CollectiveCall call, void *fn);
  void yieldThread(Thread &t, const char *what);
  /// Records the CTA's error: `problem`, found by thread `t` at `what`.
  void recordFailure(const Thread &t, const char *what, std::string_view problem);
  /// Leaves the running fiber for good: the CTA stops.
  [[noreturn]] void abandonRunning();

private:
  enum class State : uint8_t { Runnable, Polling, AtBarrier, AtWarpSync, Exited };

  struct Slot {
    FiberContext fiber;
    State state = State::Runnable;
    uint8_t barrierId = 0;
    const char *what = nullptr; // where it waits or polls
  };

  /// A warp's collective in progress.
  struct Warp {
    uint32_t lanes = 0; // lanes that exist (the last warp may be partial)
    uint32_t arrived = 0;
    uint32_t memberMask = 0;
    const char *what = nullptr;
    std::array<void *, 32> laneData{};
  };

  static void sequentialEntry(void *runner);
  static void threadEntry(void *thread);
  [[noreturn]] void exitThread(Thread &t);
  void runCooperative();
  /// Records the message `describe()` builds and stops the CTA. The message
  /// is built and stored in a frame that ends before the running stack is
  /// abandoned, so nothing left there owns memory.
  template <typename Describe>
  [[noreturn]] void fail(const Thread &t, const char *what, Describe &&describe) {
    recordFailure(t, what, describe());
    abandonRunning();
  }
  void requireCooperative(const Thread &t, const char *what);
  /// barriers.arrive, or the thread's failure with its error.
  bool arriveOrFail(Thread &t, uint32_t id, uint32_t count, const char *what);
  /// Suspends the running thread until the scheduler resumes it.
  void block(Thread &t) { switchFiber(slots[t.index].fiber, scheduler); }
  /// Makes the threads waiting at the barriers in `ids` (bit i: barrier i)
  /// runnable.
  void release(uint32_t ids);
  uint64_t totalEffects() const;
  bool anyCanRun() const;
  std::string threadName(const Thread &t) const;
  std::string ctaName() const;
  std::string deadlockReport(const std::string &why) const;

  LaunchState &launch;
  std::vector<Thread> threads;
  std::vector<Slot> slots;
  std::vector<Warp> warps;
  std::vector<uint32_t> liveLanes; // per warp, lanes not exited
  std::vector<std::byte> shared;
  FiberStacks stacks;
  FiberContext scheduler;       // the worker's own stack
  FiberContext sequentialFiber; // runs a barrier-free CTA
  NamedBarriers barriers;
  uint64_t cta = 0;
  Dim3 ctaid;
  uint32_t current = 0; // the running thread
  uint32_t liveThreads = 0;
  bool failed = false;
};

} // namespace cutec::rt
