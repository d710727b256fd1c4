// The engine of one CTA of a cluster (runtime/engine/Cluster.h runs the members of
// a cluster together): its threads, shared memory, barriers, mbarriers, TMA
// loads and tensor memory.
//
// Kernels without barriers (KernelDescriptor::usesBarriers false) run their
// threads one after another to completion, on one fiber so that an error can
// abandon the body wherever it happens. Kernels with barriers run each thread
// as a fiber on its own stack, scheduled round-robin in linear thread order:
// a thread runs until it blocks (bar.sync, a warp-collective), polls
// (yieldThread) or exits, then the next one runs. The order is fixed, so a
// CTA always executes the same way; a launch with a schedule seed
// (runtime/engine/Schedule.h) runs its rounds in the schedule's order instead, and
// may preempt a thread at its scheduling points (schedulingPoint).
//
// Deadlocks: when no live thread of the cluster can run, or only polling
// threads run and nothing changes (no store, arrival, exit or noted
// progress) for LaunchConfig::pollRoundLimit rounds, the cluster stops with
// a report of what every warp's lanes wait for.
#pragma once

#include "runtime/engine/ClusterLaunchControl.h"
#include "runtime/engine/Fiber.h"
#include "runtime/engine/FiberStacks.h"
#include "runtime/engine/LaunchState.h"
#include "runtime/memory/Mbarrier.h"
#include "runtime/engine/NamedBarriers.h"
#include "runtime/engine/RegisterPool.h"
#include "runtime/tensorcore/Tcgen05Mma.h"
#include "runtime/memory/TensorMap.h"
#include "runtime/memory/Tma.h"
#include "runtime/tensorcore/Tmem.h"
#include "runtime/engine/Thread.h"
#include "runtime/tensorcore/Wgmma.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <initializer_list>
#include <vector>

namespace cutec::rt {

class ClusterRunner;

/// The operands of one warp at a .sync.aligned cta_group::2 collective
/// (tcgen05.alloc, dealloc, relinquish_alloc_permit), which one warp of each
/// CTA of a pair performs together.
struct PairOperands {
  const char *instruction = nullptr; // "tcgen05.alloc.cta_group::2"
  uint32_t address = 0; // alloc: shared destination; dealloc: TMEM address
  uint32_t columns = 0;
};

/// One thread's operands at a warpgroup instruction (wgmma.fence,
/// commit_group, wait_group, mma_async), which the four warps of a
/// warpgroup execute together.
struct WgmmaLane {
  enum class Op : uint8_t { Fence, Commit, Wait, Mma } op = Op::Fence;
  WgmmaShape shape{};
  uint64_t aDesc = 0, bDesc = 0;
  bool scaleD = false;
  uint32_t pending = 0; // wait_group's N
  uint32_t *d = nullptr; // the thread's accumulator registers (mma_async)
  const uint32_t *a = nullptr; // the thread's registers of A (mma_async, A in registers)
};

class CtaRunner {
public:
  CtaRunner(LaunchState &launch, ClusterRunner &cluster, uint32_t rank)
      : launch(launch), cluster(cluster), rank(rank) {}

  /// Allocates this CTA's threads, stacks and shared memory.
  Status prepare();

  /// Starts the CTA at `ctaid` of the cluster with linear index
  /// `clusterIndex` (the key of its errors). A kernel without barriers runs
  /// to the end here; one with barriers runs in rounds (runRound).
  void start(uint64_t clusterIndex, Dim3 ctaid);
  /// Runs every runnable or polling thread once, in thread order (or the
  /// schedule's). False once the CTA has failed or must stop because an
  /// earlier cluster failed.
  bool runRound();
  /// A point where the schedule may preempt `t` or land a TMA load early
  /// (runtime/engine/Schedule.h); nothing happens under the fixed schedule.
  void schedulingPoint(Thread &t);
  /// Whether every thread has exited (or the CTA never had to run in rounds).
  bool finished() const { return liveThreads == 0; }
  bool hasFailed() const { return failed; }
  /// The end-of-CTA checks (TMA loads in flight, TMA stores that may still
  /// read shared memory, TMEM still allocated, a warpgroup in the middle of
  /// a setmaxnreg); completes the TMA stores.
  void finish();
  uint64_t totalEffects() const;
  bool anyCanRun() const;
  std::string deadlockReport(const std::string &why) const;

  /// The CTA's rank in its cluster (%cluster_ctarank).
  uint32_t clusterRank() const { return rank; }
  ClusterRunner &clusterRunner() { return cluster; }
  /// "thread (0,0,0), warp 0 lane 0" of the cluster thread id (rank << 10 |
  /// index, see clusterThreadId) with "CTA (1,0,0) " before it in a
  /// cluster of several CTAs (or, with alwaysNameCta false, only when it
  /// is another CTA than this one).
  std::string issuerText(uint32_t clusterThread, bool alwaysNameCta = true) const;
  static uint32_t clusterThreadId(const Thread &t);
  /// " of CTA rank r" in a cluster of several CTAs, else "".
  std::string rankText() const;

  // The scheduling points behind Thread's methods; see there.
  void barrier(Thread &t, uint32_t id, uint32_t count, const char *what, bool wait);
  void warpSync(Thread &t, uint32_t memberMask, void *laneData, const char *what,
                Thread::CollectiveCall call, void *fn);
  void yieldThread(Thread &t, const char *what);
  void setmaxnreg(Thread &t, bool inc, uint32_t count, const char *what);

  // mbarriers and TMA loads (CtaAsync.cpp); see Thread's methods.
  void mbarrierInit(Thread &t, uint32_t bar, uint32_t expectedArrivals, const char *what);
  uint64_t mbarrierArrive(Thread &t, uint32_t bar, uint32_t txBytes, const char *what);
  void mbarrierExpectTx(Thread &t, uint32_t bar, uint32_t txBytes, const char *what);
  bool mbarrierTryWait(Thread &t, uint32_t bar, uint32_t parity, const char *what);
  void tmaLoadTile(Thread &t, uint32_t dst, uint64_t tensorMap, const int32_t *coords,
                   uint32_t rank, uint32_t bar, const char *what);
  // TMA stores and bulk async-groups (CtaBulkStore.cpp); see Thread's methods.
  void tmaStoreTile(Thread &t, uint32_t src, uint64_t tensorMap, const int32_t *coords,
                    uint32_t rank, const char *what);
  void bulkCommitGroup(Thread &t);
  void bulkWaitGroup(Thread &t, uint32_t n, bool read, const char *what);
  bool hasPendingBulkStores() const { return !bulkStores.empty(); }
  /// Fails `t` if a TMA store in flight writes global memory in
  /// [address, address + width): `t`'s access (a load, or a store when
  /// `store`) races with it.
  void checkBulkStoreTargets(Thread &t, uint64_t address, uint64_t width, bool store,
                             const char *what);
  // Tensor memory and tcgen05 (CtaTcgen05.cpp); see Thread's methods. The
  // *Warp ones are the bodies of warp-collectives, run by the last lane.
  void tcgen05AllocWarp(Thread &t, const WarpCollective &w, const char *what);
  /// Stops `t` with `problem` at `what` unless it is empty.
  void failIf(Thread &t, const char *what, std::string problem);
  /// The operands (laneData) every lane passed to the .sync.aligned
  /// `instruction`; stops `t` naming two lanes that differ.
  const void *uniformLaneOperands(Thread &t, const WarpCollective &w, const char *what,
                                  const char *instruction);
  void tcgen05DeallocWarp(Thread &t, const WarpCollective &w, const char *what);
  void tcgen05RelinquishWarp(Thread &t, const char *what);
  /// tcgen05.ld (store false) or tcgen05.st of any shape.
  void tcgen05LdStWarp(Thread &t, const WarpCollective &w, bool store, const char *what);
  void tcgen05Mma(Thread &t, const MmaOperands &op, const char *what);
  void tcgen05Cp(Thread &t, uint32_t taddr, uint64_t desc, Tcgen05CpShape shape,
                 const char *what);
  void tcgen05Commit(Thread &t, uint32_t bar, const char *what);
  // tcgen05.ld/st in flight until their warp's wait::ld/st (CtaTmemLdSt.cpp).
  /// tcgen05.wait::ld (store false) or wait::st of `t`'s warp.
  void tcgen05WaitLdSt(const Thread &t, bool store);
  /// Fails `t` if a tcgen05.ld or st in flight of a warp other than
  /// `exceptWarp` conflicts with `access` ("the MMA writes") of the region:
  /// any of them when the access writes, a store when it reads. A failure
  /// abandons the caller's frame, so its vectors in `frame` are freed first.
  void checkTmemLdSt(Thread &t, const TmemLanes &lanes, uint32_t column, uint32_t columns,
                     bool write, uint32_t exceptWarp, const char *access, const char *what,
                     std::initializer_list<std::vector<uint32_t> *> frame = {});

  // Warpgroup MMA (CtaWgmma.cpp); see Thread's wgmma methods. Each warp
  // meets (a warp-collective), then the warpgroup: the last warp to arrive
  // performs the instruction for all four.
  void wgmmaCollective(Thread &t, WgmmaLane &lane, const char *what);
  // What a wgmma.mma_async uses until it retires (CtaWgmmaHazards.cpp).
  void wgmmaRegistersInUse(Thread &t, uint32_t web, const char *what);
  void wgmmaRegisterAccess(Thread &t, uint32_t web, bool write, const char *what);

  // Clusters (ClusterMemory.cpp, ClusterTcgen05.cpp); see Thread's methods.
  /// The shared bytes of the cluster address `address` (runtime/engine/Cluster.h)
  /// for an access of `width` bytes by `t`; fails `t` on a bad address.
  std::byte *clusterSharedPointer(Thread &t, uint32_t address, uint32_t width, bool store,
                                  const char *what);
  /// The CTA and its .shared::cta address that cluster address `address`
  /// names; fails `t` if no CTA of the cluster has that rank.
  CtaRunner &resolveCluster(Thread &t, uint32_t address, uint32_t &local, const char *what);
  uint64_t mbarrierArriveCluster(Thread &t, uint32_t bar, const char *what, bool releaseCluster);
  void tmaLoadTilePair(Thread &t, uint32_t dst, uint64_t tensorMap, const int32_t *coords,
                       uint32_t rank, uint32_t bar, const char *what);
  void tmaLoadTileMulticast(Thread &t, uint32_t dst, uint64_t tensorMap, const int32_t *coords,
                            uint32_t rank, uint32_t bar, uint16_t ctaMask, bool pair,
                            const char *what);
  void tcgen05MmaPair(Thread &t, const MmaOperands &op, const char *what);
  void tcgen05CpPair(Thread &t, uint32_t taddr, uint64_t desc, Tcgen05CpShape shape,
                     const char *what);
  void tcgen05CommitMulticast(Thread &t, uint32_t bar, uint16_t ctaMask, bool pair,
                              const char *what);

  // Cluster launch control (ClusterLaunchControl.cpp); see Thread's methods.
  void clcTryCancel(Thread &t, uint32_t response, uint32_t bar, bool multicast,
                    const char *what);
  bool clcIsCanceled(Thread &t, const B128 &response, const char *what);
  Dim3 clcFirstCtaid(Thread &t, const B128 &response, const char *what);
  /// Performs a pair collective that warp `evenWarp` of this (even) CTA and
  /// warp `oddWarp` of `odd` have both reached; `t` is the last to arrive.
  void tcgen05PairCollective(Thread &t, const PairOperands &evenOp, uint32_t evenWarp,
                             CtaRunner &odd, const PairOperands &oddOp, uint32_t oddWarp,
                             const char *what);
  /// The body of a pair collective's warp meeting: checks the lanes agree
  /// and arrives for the warp.
  void pairArriveWarp(Thread &t, const WarpCollective &w, const char *what);
  /// The peer of this CTA in its pair (rank ^ 1); fails `t` if the cluster
  /// has none.
  CtaRunner &pairPeer(Thread &t, const char *instruction, const char *what);
  // Missing proxy fences (CtaProxyFences.cpp).
  /// The last write of a byte of the 16-byte unit at shared offset `offset`
  /// whose writer has not executed fence.proxy.async since (`at`: the
  /// byte's offset); null if none.
  const GenericWrites::Write *unfencedWrite(uint32_t offset, uint32_t &at) const;
  /// "<reader> reads shared byte 0x..., which thread ... wrote with '...'
  /// and has not fenced since: ..."
  std::string unfencedWriteText(const char *reader, const GenericWrites::Write &w,
                                uint32_t at) const;
  /// Fails `t` if the tensor core reads, in the 16-byte units at these
  /// shared offsets, a byte with an unfenced write; frees `units` (and
  /// `alsoFree`, the caller's other vector) first, as `t`'s frames are
  /// abandoned.
  void checkOperandsFenced(Thread &t, std::vector<uint32_t> &units, const char *what,
                           std::vector<uint32_t> *alsoFree = nullptr);
  /// Fails `t` if a pending asynchronous copy writes [address, address+width).
  void checkPendingAsync(Thread &t, uint32_t address, uint32_t width, bool store,
                         const char *what);
  // The data-race detector (CtaRaces.cpp, docs/emulator.md "Data races").
  /// Checks and records t's plain access (or atomic) of `width` bytes at
  /// .shared::cta address `local` of this CTA; `value` is a store's bytes.
  void checkSharedRace(Thread &t, uint32_t local, uint32_t width, RaceAccess access,
                       const void *value, const char *what);
  void checkGlobalRace(Thread &t, uint64_t address, uint32_t width, RaceAccess access,
                       const void *value, const char *what);
  /// `t` arrives on the mbarrier at `bar` of `owner` (release) / saw a phase
  /// of this CTA's mbarrier `bar` complete (acquire).
  void raceMbarrierArrive(const Thread &t, const CtaRunner &owner, uint32_t bar);
  void raceMbarrierWaited(const Thread &t, uint32_t bar);
  /// Records the error of t's CTA: `problem`, found by thread `t` at `what`.
  void recordFailure(const Thread &t, const char *what, std::string_view problem);
  /// Leaves the running fiber (of whichever CTA of the cluster runs) for
  /// good: the cluster stops.
  [[noreturn]] void abandonRunning();
  /// Leaves this CTA's running fiber for good.
  [[noreturn]] void leaveRunning();

private:
  friend class ClusterRunner;

  /// AtBarrier: waits for a barrier to complete (bar.sync); AtBarrierArrival:
  /// has arrived (bar.arrive) and waits for the rest of its warp to arrive.
  enum class State : uint8_t {
    Runnable,
    Polling,
    AtBarrier,
    AtBarrierArrival,
    AtWarpSync,
    AtRegisters, // a setmaxnreg.inc waiting for the pool
    AtWarpgroup, // its warp met at a wgmma instruction; waits for the warpgroup
    Exited
  };

  struct Slot {
    FiberContext fiber;
    State state = State::Runnable;
    uint8_t barrierId = 0;
    const char *what = nullptr; // where it waits or polls
    /// The mbarrier and parity of the thread's last unsuccessful try_wait,
    /// for deadlock reports; cleared when a try_wait succeeds.
    bool pollsMbarrier = false;
    uint8_t mbarrierParity = 0;
    uint32_t mbarrier = 0;
  };

  /// What writes shared memory asynchronously and completes transaction
  /// bytes on an mbarrier.
  enum class AsyncWriter : uint8_t { TmaLoad, ClcResponse };

  /// A TMA load (or a try_cancel response) in flight: its bytes (unswizzled,
  /// box order) wait to land.
  struct AsyncCopy {
    uint32_t serial; // its mark in asyncOwner; issue order in the cluster
    AsyncWriter writer;
    uint32_t dst, bytes, bar;
    CtaRunner *barCta; // whose mbarrier `bar` is (the peer's: .cta_group::2)
    uint64_t barPhase; // the mbarrier's phase when it was issued
    TmaSharedLayout layout; // where its image bytes land
    const char *what;
    uint32_t issuer; // clusterThreadId (a multicast load's copies lie in other CTAs)
    std::vector<std::byte> image;
  };

  /// A TMA store in flight: the box image it read from shared memory when
  /// issued, which reaches global memory when it completes. Until a
  /// wait_group covering its group retires it, its shared source counts as
  /// being read (readers in bulkStoreReaders).
  struct BulkStore {
    uint32_t serial = 0;
    uint32_t src = 0, bytes = 0; // the shared source and the image's bytes
    TmaSharedLayout layout;
    TensorMapInfo info{};
    int32_t coords[5] = {};
    const char *what = nullptr;
    uint32_t issuer = 0; // clusterThreadId
    bool committed = false;
    bool sourceRead = false; // retired by a wait_group(.read)
    bool written = false; // its bytes are in global memory (a schedule wrote them early)
    /// The global bytes it writes: one [address, address + bytes) per box
    /// row that has in-bounds elements, and their hull [low, high).
    std::vector<std::pair<uint64_t, uint64_t>> targets;
    uint64_t low = UINT64_MAX, high = 0;
    std::vector<std::byte> image;
  };

  /// A thread's bulk async-groups (PTX "Completion mechanisms: bulk
  /// async-group"): the stores it issued since its last commit_group, and
  /// its committed groups, oldest first, each with the serials of its
  /// stores (possibly none).
  struct BulkGroup {
    std::vector<uint32_t> stores;
    bool sourcesRead = false; // a wait_group.read retired it
  };
  struct BulkGroups {
    std::vector<uint32_t> uncommitted;
    std::vector<BulkGroup> committed;
  };

  /// The shared bytes a tcgen05.mma/cp read, kept until its completion is
  /// observed: storing to them, or loading a TMA box over them, before then
  /// overwrites an operand the tensor core may still be reading.
  struct Tcgen05Read {
    uint64_t serial; // the operation's TensorMemory::PendingWrite serial
    std::vector<uint32_t> chunks; // shared offsets of the 16-byte units read, each once
    const char *what;
    uint32_t issuer;
  };

  /// A tcgen05.ld or st whose warp has not waited for it yet: in flight
  /// until every live lane of the warp has executed the wait::ld/st.
  struct TmemLdSt {
    uint32_t warp;
    bool store;
    TmemLanes lanes;
    uint32_t column, columns;
    const char *what;
    uint32_t waited = 0; // lanes that have executed the wait since
  };

  /// The shared units a wgmma.mma_async read, kept until it retires.
  struct WgmmaRead {
    uint64_t serial; // its warpgroup's count of wgmma.mma_async, this one included
    std::vector<uint32_t> units; // 16-byte units (shared offset / 16), sorted, each once
    const char *what;
  };

  /// The latest wgmma.mma_async of a warpgroup that read a shared unit,
  /// retired or not (serial 0: none).
  struct WgmmaLastReader {
    uint64_t serial = 0;
    const char *what = nullptr;
  };

  /// A warp's collective in progress.
  struct Warp {
    uint32_t lanes = 0; // lanes that exist (the last warp may be partial)
    uint32_t arrived = 0;
    uint32_t memberMask = 0;
    const char *what = nullptr;
    std::array<void *, 32> laneData{};
  };

  /// A warpgroup's wgmma state (PTX ISA "wgmma.commit_group",
  /// "wgmma.wait_group"): the instruction its warps are meeting at, and its
  /// wgmma-groups. A wgmma.mma_async executes when the last warp issues it
  /// (its results are in the registers from then on) and stays pending
  /// until a wait_group retires its group.
  struct Warpgroup {
    uint32_t arrived = 0; // bit i: warp 4g+i has met (all its lanes) at `form`
    WgmmaLane form;       // the first warp's lane 0's operands
    const char *what = nullptr;
    uint32_t firstWarp = 0;
    std::array<uint32_t *, 128> d{}; // each thread's accumulator registers
    std::array<const uint32_t *, 128> a{}; // each thread's registers of A (A in registers)
    uint64_t generation = 0;        // meetings completed
    bool fenced = false;            // a wgmma.fence since the last wait_group
    const char *lastWait = nullptr; // the last wait_group, for messages
    /// Pending wgmma.mma_async: uncommitted ones, then each committed group
    /// (oldest first) with the first one issued in it (for messages).
    uint32_t uncommitted = 0;
    const char *firstUncommitted = nullptr;
    struct Group {
      uint32_t count = 0;
      const char *first = nullptr;
    };
    std::vector<Group> committed;
    /// wgmma.mma_async issued and retired so far: serials 1..issued, of
    /// which 1..retired are retired (groups retire oldest first).
    uint64_t issued = 0, retired = 0;
    /// Per register web: the serial and instruction of the latest
    /// wgmma.mma_async that used it (0 and null: none yet).
    std::vector<std::pair<uint64_t, const char *>> webs;
    std::vector<WgmmaRead> reads; // of the pending wgmma.mma_async, in issue order
  };

  /// Body of a wgmma warp meeting, run by the warp's last lane: checks that
  /// the lanes agree and that the warp's instruction is its warpgroup's,
  /// then arrives; the last warp performs the instruction.
  void wgmmaArriveWarp(Thread &t, const WarpCollective &w, const char *what);
  void wgmmaPerform(Thread &t, Warpgroup &g, const char *what);
  /// Notes the shared units wgmma.mma_async number g.issued of warpgroup
  /// `g` read; they count as read until it retires.
  void noteWgmmaReads(Warpgroup &g, std::vector<uint32_t> units, const char *what);
  /// After a wait_group: forgets the reads of the wgmma.mma_async retired.
  void retireWgmmaReads(Warpgroup &g);
  /// At a CTA's start: forgets the previous CTA's wgmma reads and ordering.
  void dropWgmmaReads();
  /// A pending wgmma.mma_async that reads one of shared offsets [offset,
  /// offset + width), and its warpgroup; null if none does.
  const WgmmaRead *wgmmaReaderOf(uint32_t offset, uint32_t width, uint32_t &warpgroup) const;
  /// "'wgmma...' (issued by warpgroup 1; ...) reads as an operand and may
  /// still be reading: ..."
  std::string wgmmaReaderText(uint32_t warpgroup, const WgmmaRead &r) const;
  /// "'wgmma...' (issued by warpgroup 1; not committed yet)"
  std::string wgmmaText(uint32_t warpgroup, uint64_t serial, const char *what) const;
  // Which wgmma retirements each thread is ordered after (CtaWgmmaOrder.cpp).
  /// The number of warpgroup `g`'s wgmma.mma_async whose retirement `t`
  /// is ordered after.
  uint64_t wgmmaRetiredKnownBy(const Thread &t, uint32_t g) const;
  /// Adds what `t` knows to `into` (per warpgroup, the maximum).
  void carryWgmmaKnowledge(const Thread &t, std::vector<uint64_t> &into) const;
  void learnWgmmaKnowledge(const Thread &t, const std::vector<uint64_t> &from);
  /// `t` arrives on this CTA's mbarrier `bar` / saw its phase complete.
  void wgmmaOrderArrive(const Thread &t, uint32_t bar);
  void wgmmaOrderWaited(const Thread &t, uint32_t bar);
  /// `t` arrived at named barrier `id`, which that `completed`.
  void wgmmaOrderBarrier(const Thread &t, uint32_t id, bool completed);
  /// Read `r` of warpgroup `g` is the latest of the units it read.
  void noteWgmmaLastReaders(uint32_t g, const WgmmaRead &r);
  void resetWgmmaOrder();
  /// A retired wgmma.mma_async, and its warpgroup, that read one of shared
  /// offsets [offset, offset + width) and whose retirement `t` is not
  /// ordered after; null if none.
  const WgmmaLastReader *unorderedWgmmaReader(const Thread &t, uint32_t offset, uint32_t width,
                                              uint32_t &warpgroup) const;
  /// "'wgmma...' (issued by warpgroup 1) read as an operand: ..."
  std::string unorderedWgmmaText(uint32_t warpgroup, const WgmmaLastReader &r) const;
  /// At a thread's exit: fails `t` if its warpgroup has a wgmma pending.
  void checkWgmmaAtExit(Thread &t);
  /// Where warpgroup `g` stands, for deadlock reports.
  std::string warpgroupText(uint32_t g) const;
  /// `t` arrives at named barrier `id` (release); the barriers in `ids`
  /// (bit i: barrier i) completed: their waiters acquire what they released.
  void raceBarrierArrive(const Thread &t, uint32_t id);
  void raceBarriersCompleted(uint32_t ids);
  /// The lanes `mask` of warp `warp` meet at a warp collective (before it
  /// runs), and tick (after it ran).
  void raceWarpMeet(uint32_t warp, uint32_t mask);
  void raceWarpTick(uint32_t warp, uint32_t mask);
  /// "thread (3,0,0), warp 0 lane 3" of dense race thread `thread` of
  /// cluster `clusterIndex`, with its CTA when that is not `t`'s.
  std::string raceThreadText(const Thread &t, uint32_t thread, uint64_t clusterIndex) const;
  /// Stops `t` at `what`, reporting the race of its access (`access()`
  /// describes it) with `prior`. `crossCluster`: `prior` is of cluster
  /// `priorCluster` (UINT64_MAX: several clusters read the byte). The text
  /// is built in the message's frame, as the thread's stack is abandoned.
  template <typename Describe>
  [[noreturn]] void failRace(Thread &t, const char *what, RaceAccess kind, const RacePrior &prior,
                             bool crossCluster, uint64_t priorCluster, Describe &&access);
  /// Runs thread `index` if it can run; false as runRound.
  bool runSlot(uint32_t index);
  static void sequentialEntry(void *runner);
  static void threadEntry(void *thread);
  [[noreturn]] void exitThread(Thread &t);
  void startCooperative();
  void tmaLoadTileTo(Thread &t, uint32_t dst, uint64_t tensorMap, const int32_t *coords,
                     uint32_t rank, CtaRunner &barCta, uint32_t bar, const char *what);
  /// The tensor map a tile copy of `rank` coordinates names, decoded; fails
  /// `t` when it is not one.
  TensorMapInfo decodeTileMap(Thread &t, uint64_t tensorMap, const int32_t *coords, uint32_t rank,
                              const char *what);
  /// Fails `t` unless shared memory `at` is aligned for a TMA box with
  /// `info`'s swizzle (`role`: "destination" or "source").
  void checkTmaSharedStart(Thread &t, uint32_t at, const TensorMapInfo &info, const char *role,
                           const char *what);
  /// The store in flight that still reads shared offset `offset` (its group
  /// not retired yet), or null.
  const BulkStore *bulkStoreReading(uint32_t offset) const;
  /// "'cp.async.bulk.tensor...' (issued by thread (0,0,0), warp 0 lane 0;
  /// reads shared [a, b), writes global memory in [lo, hi); ...)"
  std::string bulkStoreText(const BulkStore &s) const;
  /// Marks store `s`'s shared source as read: it may be overwritten.
  void retireBulkStoreSource(BulkStore &s);
  /// Completes the store with serial `serial`: its global writes happen
  /// (unless a schedule wrote them already) and it is forgotten.
  void completeBulkStore(uint32_t serial);
  /// At a scheduling point of `t`: maybe writes the global bytes of one TMA
  /// store in flight of the cluster, which stays in flight (its readers
  /// still race with it) until a wait_group retires it.
  void writeAnyBulkStore(Thread &t);
  /// At the end of the CTA: reports the stores that may still read shared
  /// memory (true if any), else completes the rest.
  bool finishBulkStores();
  /// Forgets the stores and groups of a CTA that failed.
  void dropBulkStores();
  /// Fails `t` unless `copy` may start writing this CTA's shared memory now:
  /// inside it, over no bytes a copy in flight writes or a tcgen05 operation
  /// may still read, and over no mbarrier.
  void checkAsyncDestination(Thread &t, const AsyncCopy &copy, const char *what);
  /// Marks the bytes `copy` will write and keeps it until it lands.
  void addAsyncCopy(Thread &t, AsyncCopy copy);
  /// A try_cancel response to `response` in this CTA, completing on its
  /// mbarrier `bar`, without its bytes yet; fails `t` if it cannot start.
  AsyncCopy clcResponseCopy(Thread &t, uint32_t response, uint32_t bar, const char *what);
  /// Lands the pending loads of every CTA of the cluster that complete on
  /// this CTA's mbarrier `bar`, in issue order, until its phase `parity`
  /// completes.
  void landCopiesFor(Thread &t, uint32_t bar, uint32_t parity);
  /// Lands one load in flight of the cluster, chosen by the schedule, early.
  void landAnyCopy(Thread &t);
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
  /// Makes the lanes of warp `warp` that wait at a bar.arrive for the rest
  /// of their warp runnable once it has arrived (or the rest exited).
  void releaseArrivals(uint32_t warp);
  /// Lets the threads waiting for registers try again.
  void releaseRegisterWaiters();
  /// Writes copy `i`'s bytes to shared memory, completes its transaction
  /// bytes on its mbarrier and forgets it.
  void landCopy(Thread &t, size_t i);
  /// Forgets the copies of a CTA that failed.
  void dropAsyncCopies();
  /// Reports copies still in flight at the end of the CTA; true if any.
  bool reportUnfinishedCopies();
  /// "'cp.async.bulk.tensor...' (issued by warp 0 lane 0) writing [a, b),
  /// completing on mbarrier 0x... in its phase 0".
  std::string copyText(const AsyncCopy &c) const;
  /// "TMA load" or "try_cancel response".
  static const char *writerName(AsyncWriter w);
  /// The CTA's shared memory as tcgen05 instructions read it.
  SharedView sharedView() const;
  /// 16-byte units of shared memory, the granule of the asynchronous
  /// bookkeeping: TMA boxes write, and tcgen05 operands read, whole aligned
  /// units.
  size_t sharedUnits() const { return (shared.size() + 15) / 16; }
  /// Fails `t` with a tcgen05 instruction's problem, naming the TMA load
  /// whose bytes it would read if that is the problem.
  [[noreturn]] void failTcgen05(Thread &t, const char *what, MmaProblem &p);
  template <typename Execute> void issueTcgen05(Thread &t, const char *what, Execute &&execute);
  /// "'tcgen05.mma...' (issued by thread (0,0,0), warp 0 lane 0; writes TMEM
  /// lanes [0,128) columns [0,256); committed to mbarrier 0x... in its phase 0)"
  std::string tcgen05WriteText(const TensorMemory::PendingWrite &p) const;
  void updatePendingAsync() {
    // Once a wgmma.mma_async has run, shared stores are checked against the
    // readers of the bytes, retired or not (CtaWgmmaOrder.cpp).
    pendingAsync = uint32_t(asyncCopies.size() + tcgen05Reads.size()) + unreadBulkStores +
                   pendingWgmmaReads + !wgmmaKnown.empty();
  }
  /// Records the shared units an issued tcgen05 operation read.
  void noteTcgen05Reads(uint64_t serial, std::vector<uint32_t> chunks, const char *what,
                        uint32_t issuer);
  void noteTmemLdSt(const Thread &t, bool store, const TmemLanes &lanes, uint32_t column,
                    uint32_t columns, const char *what);
  const TmemLdSt *tmemLdStInFlight(const TmemLanes &lanes, uint32_t column, uint32_t columns,
                                   bool write, uint32_t exceptWarp) const;
  /// Forgets the reads of operations up to `serial` (0: all of them).
  void forgetTcgen05Reads(uint64_t serial);
  /// A thread of this CTA saw mbarrier `bar` complete its phases before
  /// `phasesDone`: forgets the pair peer's shared reads of the operations
  /// committed there (runtime/engine/ClusterTcgen05.cpp).
  void forgetPeerReadsCompletedBy(uint32_t bar, uint64_t phasesDone);
  /// The pending tcgen05 operation reading shared offset `offset`, or null.
  const Tcgen05Read *tcgen05ReaderOf(uint32_t offset) const;
  /// "'tcgen05.mma ...' (issued by thread (0,0,0), warp 0 lane 0)"
  std::string tcgen05ReadText(const Tcgen05Read &r) const;
  /// Reports TMEM columns still allocated at the end of the CTA; true if any.
  bool reportTmemLeaks();
  std::string threadName(const Thread &t) const;
  std::string ctaName() const;

  LaunchState &launch;
  ClusterRunner &cluster;
  uint32_t rank;
  std::vector<Thread> threads;
  std::vector<Slot> slots;
  std::vector<Warp> warps;
  std::vector<uint32_t> liveLanes; // per warp, lanes not exited
  std::vector<Warpgroup> warpgroups;
  std::vector<std::byte> shared;
  FiberStacks stacks;
  FiberContext scheduler;       // the worker's own stack
  FiberContext sequentialFiber; // runs a barrier-free CTA
  NamedBarriers barriers;
  RegisterPool registers;
  Mbarriers mbarriers;
  /// Names of shared addresses in this CTA's diagnostics.
  SharedNames sharedNames;
  GenericWrites genericWrites;
  std::vector<AsyncCopy> asyncCopies; // issue order
  /// Per shared unit (offset / 16): the serial of the in-flight copy writing
  /// it, or 0. Allocated at the CTA's first TMA load; all zero when none is
  /// pending.
  std::vector<uint32_t> asyncOwner;
  /// TMA loads in flight plus tcgen05 operations whose shared-memory reads
  /// are pending: nonzero sends Thread's shared accesses to
  /// checkPendingAsync.
  uint32_t pendingAsync = 0;
  std::vector<Tcgen05Read> tcgen05Reads; // issue order
  /// Per shared unit (offset / 16): the mark of the latest pending operation
  /// reading it, or 0. tcgen05Reads[i] has mark firstReadMark + i: marks
  /// survive the removal of completed operations (always a prefix, as
  /// serials grow in issue order). Allocated at the first tcgen05 read.
  std::vector<uint32_t> tcgen05Reader;
  uint32_t firstReadMark = 1;
  std::vector<std::byte> gatherScratch;
  /// Per shared unit (offset / 16): how many pending wgmma.mma_async read
  /// it. Allocated at the CTA's first wgmma.mma_async.
  std::vector<uint16_t> wgmmaReaders;
  uint32_t pendingWgmmaReads = 0; // WgmmaRead records of all warpgroups
  /// Per thread and warpgroup (t * warpgroups + g): wgmmaRetiredKnownBy of
  /// the other warpgroups. Empty until the CTA's first wgmma.mma_async.
  std::vector<uint64_t> wgmmaKnown;
  /// Per shared unit and warpgroup (unit * warpgroups + g).
  std::vector<WgmmaLastReader> wgmmaLastReader;
  /// What the arrivals on each mbarrier (by address) carried, and on each
  /// named barrier in its current phase.
  std::unordered_map<uint32_t, std::vector<uint64_t>> wgmmaReleased;
  std::array<std::vector<uint64_t>, NamedBarriers::kCount> wgmmaBarrierKnown;
  std::vector<BulkStore> bulkStores; // issue order
  /// Per shared unit (offset / 16): how many stores in flight still read it.
  /// Allocated at the CTA's first TMA store.
  std::vector<uint16_t> bulkStoreReaders;
  uint32_t unreadBulkStores = 0; // stores whose shared source is not retired
  uint32_t bulkStoreSerials = 0;
  std::vector<BulkGroups> bulkGroups; // per thread
  TensorMemory tmem;
  std::vector<TmemLdSt> tmemInFlight; // issue order
  uint64_t cta = 0; // the cluster's linear index: the key of errors
  Dim3 ctaid;
  uint32_t current = 0; // the running thread
  uint32_t liveThreads = 0;
  bool failed = false;
  /// A thread of the CTA saw a try_cancel response say "not canceled"; a
  /// further try_cancel is undefined (PTX ISA).
  bool clcFailureObserved = false;
};

} // namespace cutec::rt
