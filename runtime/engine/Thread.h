// What an emulated kernel body sees of its GPU thread: PTX's special
// registers, checked global and shared memory accessors, and the points where
// it synchronises with other threads (barriers, warp-collectives, polling).
//
// Every accessor and synchronisation call takes `what`, a description of the
// PTX instruction for diagnostics ("ld.global.v4.b32 at k.cute:42"); it must
// be a string with static storage (the emitted code passes literals). A call
// that finds an error (out-of-bounds or misaligned access, a malformed
// barrier, ...) does not return: the thread stops and the launch reports the
// error, so the emitted code needs no error checks of its own.
#pragma once

#include "runtime/engine/ClusterLaunchControl.h"
#include "runtime/race/GenericWrites.h"
#include "runtime/base/Kernel.h"
#include "runtime/memory/SharedWindow.h"
#include "runtime/tensorcore/Tcgen05.h"
#include "runtime/tensorcore/TmemFragment.h"
#include "runtime/tensorcore/Wgmma.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

namespace cutec::rt {

class CtaRunner;
class MemoryMap;
struct PairOperands;

/// The lanes of one warp at a warp-collective: `laneData[l]` is the pointer
/// lane l passed to `warpSync` (null for lanes outside `memberMask`). The
/// other lanes are suspended while the collective runs, so the callback may
/// read and write through all of these pointers.
struct WarpCollective {
  uint32_t warpid;
  uint32_t memberMask;
  std::array<void *, 32> laneData;
};

class Thread {
public:
  // Special registers, named as PTX names them. Lanes are numbered by linear
  // thread index (x fastest), 32 to a warp, as on the hardware.
  Dim3 tid, ntid, ctaid, nctaid;
  uint32_t laneid = 0, warpid = 0;
  // Cluster registers (runtime/engine/Cluster.h): %cluster_ctaid, %cluster_nctaid,
  // %clusterid, %nclusterid, %cluster_ctarank, %cluster_nctarank.
  Dim3 cluster_ctaid, cluster_nctaid, clusterid, nclusterid;
  uint32_t cluster_ctarank = 0, cluster_nctarank = 1;

  /// `ld.global` of sizeof(T) = 1, 2, 4, 8 or 16 bytes (a vector load is one
  /// access of the whole vector) at a host address; natural alignment.
  template <typename T> T loadGlobal(uint64_t address, const char *what) {
    checkAccessType<T>();
    if (!isCachedGlobal(address, sizeof(T)))
      checkGlobal(address, sizeof(T), /*store=*/false, what);
    if (raceClocks)
      raceGlobal(address, sizeof(T), RaceAccess::Read, nullptr, what);
    T value;
    std::memcpy(&value, reinterpret_cast<const void *>(address), sizeof(T));
    return value;
  }

  template <typename T> void storeGlobal(uint64_t address, const T &value, const char *what) {
    checkAccessType<T>();
    if (!isCachedGlobal(address, sizeof(T)))
      checkGlobal(address, sizeof(T), /*store=*/true, what);
    if (raceClocks)
      raceGlobal(address, sizeof(T), RaceAccess::Write, &value, what);
    std::memcpy(reinterpret_cast<void *>(address), &value, sizeof(T));
    ++effects;
  }

  /// `ld.shared::cta` at a 32-bit shared-window address.
  template <typename T> T loadShared(uint32_t address, const char *what) {
    checkAccessType<T>();
    T value;
    std::memcpy(&value, sharedPointer(address, sizeof(T), /*store=*/false, what), sizeof(T));
    if (raceClocks)
      raceShared(address, sizeof(T), RaceAccess::Read, nullptr, what);
    return value;
  }

  template <typename T> void storeShared(uint32_t address, const T &value, const char *what) {
    checkAccessType<T>();
    std::byte *at = sharedPointer(address, sizeof(T), /*store=*/true, what);
    if (raceClocks)
      raceShared(address, sizeof(T), RaceAccess::Write, &value, what);
    std::memcpy(at, &value, sizeof(T));
    ++effects;
  }

  /// `atom.global.<op>.b32` at a host address: replaces the 32-bit word
  /// with `update(old)` indivisibly with respect to every other thread of
  /// the launch (a host compare-and-swap loop, as CTAs run on several
  /// workers) and returns the old bits (runtime/numerics/PtxAtomic.h).
  template <typename Update>
  uint32_t atomicGlobal(uint64_t address, Update &&update, const char *what) {
    if (!isCachedGlobal(address, 4))
      checkGlobal(address, 4, /*store=*/true, what);
    if (raceClocks)
      raceGlobal(address, 4, RaceAccess::Atomic, nullptr, what);
    return atomicUpdate(reinterpret_cast<std::byte *>(address), update);
  }
  /// `atom.shared::cta.<op>.b32` at a shared-window address.
  template <typename Update>
  uint32_t atomicShared(uint32_t address, Update &&update, const char *what) {
    std::byte *at = sharedPointer(address, 4, /*store=*/true, what);
    if (raceClocks)
      raceShared(address, 4, RaceAccess::Atomic, nullptr, what);
    return atomicUpdate(at, update);
  }

  /// Window addresses of the static and the dynamic shared memory.
  uint32_t staticSharedBase() const { return kSharedWindowBase; }
  uint32_t dynamicSharedBase() const { return kSharedWindowBase + dynamicSharedOffset; }

  /// `bar.sync id, count` (= `barrier.sync.aligned`); count 0 stands for the
  /// form without a count, where every thread of the CTA takes part.
  void barrierSync(uint32_t id, uint32_t count, const char *what);
  /// `bar.arrive id, count`: counts this thread's warp in, does not wait.
  void barrierArrive(uint32_t id, uint32_t count, const char *what);

  /// A `.sync.aligned` warp-collective: blocks until every lane in
  /// `memberMask` has arrived here from the same instruction, then runs
  /// `collective(const WarpCollective &)` once (from the last lane to arrive)
  /// before all of them go on. `laneData` is this lane's operand block.
  template <typename F>
  void warpSync(uint32_t memberMask, void *laneData, const char *what, F &&collective) {
    using Fn = std::remove_reference_t<F>;
    warpSyncImpl(
        memberMask, laneData, what,
        [](void *fn, const WarpCollective &w) { (*static_cast<Fn *>(fn))(w); },
        const_cast<void *>(static_cast<const void *>(std::addressof(collective))));
  }

  /// `setmaxnreg.inc.sync.aligned.u32 count` (inc) or `.dec`: the lanes of
  /// the warp meet (a warp-collective), then the warp's registers per thread
  /// become `count`, an .inc waiting until the CTA's pool has the registers
  /// (runtime/engine/RegisterPool.h). The emitted code calls it through
  /// warpSyncSetmaxnreg (runtime/engine/WarpRoles.h).
  void setmaxnreg(bool inc, uint32_t count, const char *what);

  /// One iteration of a polling loop (`mbarrier.try_wait` and the like) that
  /// found nothing yet: lets the other threads run. Polling that makes no
  /// progress while nothing else can run is reported as a deadlock naming
  /// `what`.
  void yieldThread(const char *what);

  // mbarriers and TMA tile loads (runtime/memory/Mbarrier.h, runtime/memory/Tma.h). `bar`
  // and `dst` are .shared::cta window addresses. A TMA load is recorded as
  // pending when issued; its bytes land, and its transaction bytes complete
  // on its mbarrier, when a thread's try_wait on that mbarrier needs them
  // (see docs/emulator.md). Touching shared bytes that a pending load will
  // write is an error, and so is a CTA that ends with a load pending.

  /// `mbarrier.init.shared::cta.b64 [bar], expectedArrivals`.
  void mbarrierInit(uint32_t bar, uint32_t expectedArrivals, const char *what);
  /// `mbarrier.arrive.shared::cta.b64 state, [bar]`: returns the state token.
  uint64_t mbarrierArrive(uint32_t bar, const char *what);
  /// `mbarrier.arrive.expect_tx.shared::cta.b64 state, [bar], txBytes`.
  uint64_t mbarrierArriveExpectTx(uint32_t bar, uint32_t txBytes, const char *what);
  /// `mbarrier.expect_tx.shared::cta.b64 [bar], txBytes` (no arrival).
  void mbarrierExpectTx(uint32_t bar, uint32_t txBytes, const char *what);
  /// One `mbarrier.try_wait.parity.shared::cta.b64 p, [bar], parity`: whether
  /// the phase with that parity has completed.
  bool mbarrierTryWaitParity(uint32_t bar, uint32_t parity, const char *what);
  /// The try_wait loop: polls (yieldThread) until the phase has completed.
  /// Needs KernelDescriptor::usesBarriers unless the phase is complete.
  void mbarrierWaitParity(uint32_t bar, uint32_t parity, const char *what);
  /// `fence.proxy.async.shared::cta`: this thread's shared writes so far
  /// become visible to the async proxy (runtime/race/GenericWrites.h); a TMA
  /// store, tcgen05.mma/cp or wgmma that reads a byte this thread wrote
  /// before it and has not fenced since is reported.
  void fenceProxyAsync(const char *what);
  /// `fence.mbarrier_init.release.cluster`. The emulator's memory is
  /// sequentially consistent, so it orders nothing here; a missing one is
  /// not found.
  void fenceMbarrierInit(const char *what);
  /// `cp.async.bulk.tensor.<rank>d.shared::cluster.global.tile
  /// .mbarrier::complete_tx::bytes [dst], [tensorMap, {coords}], [bar]`.
  /// `tensorMap` is the host address of the kernel's 128-byte TensorMap
  /// parameter (runtime/memory/TensorMap.h); `coords` has `rank` elements, the
  /// map's rank.
  void tmaLoadTile(uint32_t dst, uint64_t tensorMap, const int32_t *coords, uint32_t rank,
                   uint32_t bar, const char *what);

  // TMA stores and bulk async-groups (docs/emulator.md "TMA stores"). A
  // store reads its shared source when issued and is then in flight in this
  // thread's bulk async-groups: until a wait_group (.read or not) retires
  // its group, storing to its source is an error; its global writes happen
  // when a wait_group without .read retires it, or when the CTA ends, and
  // reading them before is an error. A CTA that ends while a store's source
  // is not retired is an error too (its shared memory is gone).

  /// `cp.async.bulk.tensor.<rank>d.global.shared::cta.tile.bulk_group
  /// [tensorMap, {coords}], [src]`: the box of the map at `coords` gets the
  /// image at shared `src`; elements outside the tensor are not written.
  void tmaStoreTile(uint32_t src, uint64_t tensorMap, const int32_t *coords, uint32_t rank,
                    const char *what);
  /// `cp.async.bulk.commit_group`: this thread's stores since its last
  /// commit form a new bulk async-group (an empty one if there are none).
  void bulkCommitGroup(const char *what);
  /// `cp.async.bulk.wait_group[.read] n`: retires all but this thread's n
  /// most recent groups: with `read`, their stores have read their shared
  /// sources; without, they have completed.
  void bulkWaitGroup(uint32_t n, bool read, const char *what);
  /// `prefetch.tensormap [tensorMap]`: a hint to the cache; nothing here.
  void prefetchTensormap(uint64_t tensorMap, const char *what);

  // Tensor memory and tcgen05 (runtime/tensorcore/Tmem.h, runtime/tensorcore/Tcgen05Mma.h,
  // docs/emulator.md "Tensor memory and tcgen05"). Shared addresses are
  // .shared::cta window addresses; TMEM addresses are lane << 16 | column.
  // The warp-collective ones (alloc, dealloc, relinquish, ld, st) go through
  // warpSync: every lane of the warp calls them with the same operands, and
  // the emitted code calls them through the warpSyncTcgen05* wrappers of
  // runtime/engine/Tcgen05Collectives.h (their instruction-table rows carry
  // MayBlock, which sets KernelDescriptor::usesBarriers).
  // tcgen05.mma and tcgen05.cp execute when issued, in issue order; the TMEM
  // they write counts as in flight until a thread has waited on the mbarrier
  // phase that a later tcgen05.commit of the issuing thread arrived in.

  /// `tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smemDst],
  /// columns`: writes the TMEM address of the block to shared memory.
  void tcgen05Alloc(uint32_t smemDst, uint32_t columns, const char *what);
  /// `tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, columns`.
  void tcgen05Dealloc(uint32_t taddr, uint32_t columns, const char *what);
  /// `tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned`.
  void tcgen05RelinquishAllocPermit(const char *what);
  /// `tcgen05.ld.sync.aligned.32x32b.xN.b32`: lane l of the warp reads TMEM
  /// lane (taddr >> 16) + l, columns (taddr & 0xFFFF) .. + n - 1, into
  /// regs[0 .. n-1]. Warp w may only address lanes 32*(w%4) .. +31.
  void tcgen05Ld32x32b(uint32_t taddr, uint32_t *regs, uint32_t n, const char *what);
  /// `tcgen05.ld.sync.aligned.<shape>.xN[.pack::16b].b32` of any shape:
  /// form.registers() registers per lane, placed as runtime/tensorcore/TmemFragment.h
  /// says. A 16-lane shape's address is lane 0 or 16 of the warp's quarter.
  void tcgen05Ld(uint32_t taddr, uint32_t *regs, const TmemFragmentForm &form, const char *what);
  /// `tcgen05.st.sync.aligned.<shape>.xN[.unpack::16b].b32`: the inverse,
  /// written when issued (tcgen05.wait::st has nothing left to wait for).
  void tcgen05St(uint32_t taddr, const uint32_t *regs, const TmemFragmentForm &form,
                 const char *what);
  void tcgen05WaitSt(const char *what);
  /// `tcgen05.wait::ld.sync.aligned`: loads complete when issued here.
  void tcgen05WaitLd(const char *what);
  /// `tcgen05.mma.cta_group::1.kind::<kind> [dTmem], aDesc, bDesc, idesc,
  /// enableInputD` (A and B from shared memory descriptors).
  void tcgen05Mma(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc, uint32_t idesc,
                  bool enableInputD, Tcgen05Kind kind, const char *what);
  /// `tcgen05.mma.cta_group::1.kind::<kind> [dTmem], [aTmem], bDesc, idesc,
  /// enableInputD`: A from tensor memory (M = 128: row m in lane m, 32 bits
  /// of K per column, packed), B from shared memory.
  void tcgen05MmaTmemA(uint32_t dTmem, uint32_t aTmem, uint64_t bDesc, uint32_t idesc,
                       bool enableInputD, Tcgen05Kind kind, const char *what);
  /// `tcgen05.mma.cta_group::1.kind::<kind>.block_scale.scale_vec::<vec>
  /// [dTmem], aDesc, bDesc, idesc, [sfaTmem], [sfbTmem], enableInputD`.
  void tcgen05MmaBlockScaled(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc, uint32_t idesc,
                             uint32_t sfaTmem, uint32_t sfbTmem, bool enableInputD,
                             Tcgen05Kind kind, Tcgen05ScaleVec vec, const char *what);
  /// `tcgen05.cp.cta_group::1.<shape> [taddr], smemDesc`.
  void tcgen05Cp(uint32_t taddr, uint64_t smemDesc, Tcgen05CpShape shape, const char *what);
  /// `tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
  /// [mbar]`: one arrival on the mbarrier, standing for the completion of
  /// this thread's earlier tcgen05.mma/cp.
  void tcgen05Commit(uint32_t mbar, const char *what);
  /// `tcgen05.fence::before_thread_sync` / `::after_thread_sync`: order
  /// nothing in the emulator (its memory is sequentially consistent).
  void tcgen05FenceBeforeThreadSync(const char *what);
  void tcgen05FenceAfterThreadSync(const char *what);

  // Warpgroup MMA (sm_90a; runtime/tensorcore/Wgmma.h, docs/emulator.md "Warpgroup
  // MMA"). Each is .sync.aligned over the warpgroup (warps 4g to 4g+3, all
  // 128 threads present): every thread calls it with the same operands, and
  // it returns once the four warps have met there. A wgmma.mma_async reads
  // its shared operands and writes its result to `d` when the last warp
  // issues it; it stays pending until a wait_group retires its group, and a
  // thread that exits with one pending is an error.

  /// `wgmma.fence.sync.aligned`: needed before the warpgroup's first
  /// wgmma.mma_async and, in this model, after each wait_group before the
  /// next one (the threads may have touched the accumulators).
  void wgmmaFence(const char *what);
  /// `wgmma.commit_group.sync.aligned`: the wgmma.mma_async issued since the
  /// last commit form a wgmma-group (possibly empty).
  void wgmmaCommitGroup(const char *what);
  /// `wgmma.wait_group.sync.aligned N`: retires all but the `pending` most
  /// recent wgmma-groups.
  void wgmmaWaitGroup(uint32_t pending, const char *what);
  /// `wgmma.mma_async.sync.aligned.<shape>.<d>.<a>.<b> {d}, aDesc, bDesc,
  /// scaleD, <imms>`: D = A*B + D (D = A*B when `scaleD` is false), A (64 x
  /// K) and B (N x K) in shared memory. `d` is this thread's
  /// wgmmaAccumulatorRegisters(shape) registers as raw bits.
  void wgmmaMmaAsync(const WgmmaShape &shape, uint32_t *d, uint64_t aDesc, uint64_t bDesc,
                     bool scaleD, const char *what);
  /// The same with A from registers (shape.aInRegisters): `a` is this
  /// thread's kWgmmaARegisters registers of A's fragment as raw bits.
  void wgmmaMmaAsync(const WgmmaShape &shape, uint32_t *d, const uint32_t *a, uint64_t bDesc,
                     bool scaleD, const char *what);
  /// After a wgmma.mma_async: it uses the registers of web `web` (a number
  /// the compiler gives each set of registers that wgmma.mma_async use,
  /// codegen/emu/WgmmaRegisterWebs.h) until it retires.
  void wgmmaRegistersInUse(uint32_t web, const char *what);
  /// Before another instruction that reads (or, with `write`, only writes)
  /// registers of web `web`: fails if a wgmma.mma_async of the warpgroup
  /// that uses them is not retired yet.
  void wgmmaRegisterAccess(uint32_t web, bool write, const char *what);

  // Clusters (runtime/engine/Cluster.h): distributed shared memory, the cluster
  // barrier and the cta_group::2 forms of TMA and tcgen05. A .shared::cluster
  // address is either a .shared::cta address of this CTA or what mapa gives.

  /// `mapa.shared::cluster.u32 d, address, rank`: the .shared::cluster
  /// address of the byte at `address` in the CTA with rank `rank`.
  uint32_t mapaShared(uint32_t address, uint32_t rank, const char *what);
  /// `ld.shared::cluster` / `st.shared::cluster` of sizeof(T) bytes.
  template <typename T> T loadSharedCluster(uint32_t address, const char *what) {
    checkAccessType<T>();
    T value;
    std::memcpy(&value, clusterSharedPointer(address, sizeof(T), /*store=*/false, what),
                sizeof(T));
    if (raceClocks)
      raceSharedCluster(address, sizeof(T), RaceAccess::Read, nullptr, what);
    return value;
  }
  template <typename T>
  void storeSharedCluster(uint32_t address, const T &value, const char *what) {
    checkAccessType<T>();
    std::byte *at = clusterSharedPointer(address, sizeof(T), /*store=*/true, what);
    if (raceClocks)
      raceSharedCluster(address, sizeof(T), RaceAccess::Write, &value, what);
    std::memcpy(at, &value, sizeof(T));
    ++effects;
  }
  /// `mbarrier.arrive[.release.cluster].shared::cluster.b64 _, [bar]`: one
  /// arrival on the mbarrier at a .shared::cluster address. Without
  /// `.release.cluster` (`releaseCluster` false) the arrival releases at CTA
  /// scope, which a waiter in another CTA does not acquire: the data-race
  /// detector then orders nothing across the CTAs by it.
  void mbarrierArriveCluster(uint32_t bar, const char *what, bool releaseCluster = true);
  /// `barrier.cluster.arrive` and `barrier.cluster.wait` (the wait polls until
  /// every non-exited thread of the cluster has arrived). A `.relaxed`
  /// arrival (`release` false) orders none of the thread's memory accesses
  /// before the peers' waits: the data-race detector takes nothing from it.
  void clusterArrive(const char *what, bool release = true);
  void clusterWait(const char *what);
  /// `cp.async.bulk.tensor.<rank>d.cta_group::2.shared::cluster.global.tile
  /// .mbarrier::complete_tx::bytes`: as tmaLoadTile, but the mbarrier (a
  /// .shared::cluster address) may be in the peer CTA of the pair.
  void tmaLoadTilePair(uint32_t dst, uint64_t tensorMap, const int32_t *coords, uint32_t rank,
                       uint32_t bar, const char *what);
  /// `cp.async.bulk.tensor.<rank>d[.cta_group::2].shared::cluster.global.tile
  /// .mbarrier::complete_tx::bytes.multicast::cluster`: the box lands at the
  /// CTA-relative offset of `dst` in every CTA of `ctaMask` (bit i: rank i),
  /// each copy completing its bytes on the mbarrier at the offset of `bar` in
  /// that CTA or, with `pair` (.cta_group::2), in the even CTA of its pair.
  void tmaLoadTileMulticast(uint32_t dst, uint64_t tensorMap, const int32_t *coords,
                            uint32_t rank, uint32_t bar, uint16_t ctaMask, bool pair,
                            const char *what);
  /// The cta_group::2 forms of alloc, dealloc and relinquish_alloc_permit:
  /// one warp of each CTA of the pair executes them, and both wait for the
  /// other. alloc takes the same columns in both CTAs' TMEM and writes the
  /// address to `smemDst` in each CTA's own shared memory.
  void tcgen05AllocPair(uint32_t smemDst, uint32_t columns, const char *what);
  void tcgen05DeallocPair(uint32_t taddr, uint32_t columns, const char *what);
  void tcgen05RelinquishAllocPermitPair(const char *what);
  /// `tcgen05.mma.cta_group::2.kind::<kind>` issued by the even CTA of a
  /// pair: M = 256, rows 0-127 of A (and of D) in the even CTA, rows 128-255
  /// in the odd one, B's first N/2 rows in the even CTA, the rest in the odd
  /// one, each at the descriptors' addresses in that CTA's shared memory.
  void tcgen05MmaPair(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc, uint32_t idesc,
                      bool enableInputD, Tcgen05Kind kind, const char *what);
  void tcgen05MmaBlockScaledPair(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc, uint32_t idesc,
                                 uint32_t sfaTmem, uint32_t sfbTmem, bool enableInputD,
                                 Tcgen05Kind kind, Tcgen05ScaleVec vec, const char *what);
  /// `tcgen05.cp.cta_group::2.<shape> [taddr], smemDesc`: each CTA of the
  /// pair copies from its own shared memory, at the descriptor's addresses,
  /// to its own TMEM at `taddr` (the model of the split SFA; a tile both
  /// CTAs need, like SFB, is in both CTAs' shared memory).
  void tcgen05CpPair(uint32_t taddr, uint64_t smemDesc, Tcgen05CpShape shape, const char *what);
  /// `tcgen05.commit.cta_group::N.mbarrier::arrive::one.shared::cluster
  /// .multicast::cluster.b64 [bar], ctaMask`: one arrival on the mbarrier at
  /// shared offset `bar` of every CTA in the mask (bit r: rank r).
  void tcgen05CommitMulticast(uint32_t bar, uint16_t ctaMask, bool pair, const char *what);

  // Cluster launch control (runtime/engine/ClusterLaunchControl.h): `response` and
  // `bar` are .shared::cta window addresses.

  /// `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx
  /// ::bytes[.multicast::cluster::all].b128 [response], [bar]`: cancels the
  /// launch of a cluster that has not started, if any is left, and writes the
  /// 16-byte response (to `response` in every CTA of the cluster with
  /// `multicast`), which lands and completes 16 transaction bytes on `bar` as
  /// a TMA load does.
  void clcTryCancel(uint32_t response, uint32_t bar, bool multicast, const char *what);
  /// `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128`.
  bool clcIsCanceled(const B128 &response, const char *what);
  /// `clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128`: the
  /// canceled cluster's first CTA id; undefined (an error here) when the
  /// response canceled none.
  Dim3 clcFirstCtaid(const B128 &response, const char *what);

  /// A `while` loop that runs this often in one thread is reported as
  /// endless: on a GPU it would hang, and the emulator must not.
  static constexpr uint64_t kMaxWhileIterations = uint64_t(1) << 24;
  /// Counts an iteration of a `while` loop (`what`) in `iterations`.
  void whileIteration(uint64_t &iterations, const char *what) {
    if (++iterations == kMaxWhileIterations)
      fail("the loop ran 16777216 (2^24) times in this thread without ending; is its "
           "condition ever false?",
           what);
  }

  /// Tells the deadlock detector that this thread changed something a poller
  /// may be waiting for, other than by a store (stores count already).
  void noteProgress() { ++effects; }

  /// Stops the launch with `problem` at instruction `what` (for `trap` and
  /// for runtime parts that find an error).
  [[noreturn]] void fail(std::string_view problem, const char *what);

  /// Like `fail`, with the message that `describe()` builds. The thread's
  /// stack is abandoned, not unwound, so a message built by the caller would
  /// never be freed; `describe` builds it in a frame that ends first.
  template <typename Describe> [[noreturn]] void failWith(const char *what, Describe &&describe) {
    recordFailure(what, describe());
    abandon();
  }

private:
  friend class CtaRunner;
  friend class ClusterRunner;

  using CollectiveCall = void (*)(void *fn, const WarpCollective &);

  template <typename T> static constexpr void checkAccessType() {
    static_assert(std::is_trivially_copyable_v<T>, "memory accesses move plain bits");
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 ||
                      sizeof(T) == 16 || sizeof(T) == 32,
                  "PTX memory accesses are 1, 2, 4, 8, 16 or (sm_100's st.global.v8) 32 bytes");
  }

  /// Whether the access is aligned and inside the buffer that the previous
  /// checked access hit: the common case, without a search.
  bool isCachedGlobal(uint64_t address, uint64_t width) const {
    return (address & (width - 1)) == 0 && width <= cachedSize &&
           address - cachedBase <= cachedSize - width;
  }
  void checkGlobal(uint64_t address, uint32_t width, bool store, const char *what);
  // The data-race detector (runtime/engine/CtaRaces.cpp): checks a plain access or
  // an atomic, at a checked address, against the location's earlier
  // accesses, and records it. `value` is a store's new bytes.
  void raceShared(uint32_t address, uint32_t width, RaceAccess access, const void *value,
                  const char *what);
  void raceSharedCluster(uint32_t address, uint32_t width, RaceAccess access, const void *value,
                         const char *what);
  void raceGlobal(uint64_t address, uint32_t width, RaceAccess access, const void *value,
                  const char *what);

  /// The compare-and-swap loop of the atomics on a checked, aligned word. A
  /// change counts as an effect; an update that leaves the word as it was
  /// (a failed cas, a max below it) does not, so a loop polling with one is
  /// told from one that works.
  template <typename Update> uint32_t atomicUpdate(std::byte *at, Update &update) {
    std::atomic_ref<uint32_t> word(*reinterpret_cast<uint32_t *>(at));
    uint32_t old = word.load(std::memory_order_relaxed);
    uint32_t next = update(old);
    while (!word.compare_exchange_weak(old, next, std::memory_order_relaxed))
      next = update(old);
    if (next != old)
      ++effects;
    return old;
  }

  std::byte *sharedPointer(uint32_t address, uint32_t width, bool store, const char *what) {
    uint32_t offset = address - kSharedWindowBase;
    if ((address & (width - 1)) != 0 || width > sharedSize || offset > sharedSize - width)
      failShared(address, width, store, what);
    if (*pendingAsyncCopies != 0)
      checkPendingAsync(address, width, store, what);
    if (store)
      genericWrites->note(offset, width, {what, clusterThreadId(), asyncProxyFences});
    return sharedBytes + offset;
  }
  /// The thread's number in its cluster: CTA rank << 10 | index.
  uint32_t clusterThreadId() const { return cluster_ctarank << 10 | index; }
  [[noreturn]] void failShared(uint32_t address, uint32_t width, bool store, const char *what);
  std::byte *clusterSharedPointer(uint32_t address, uint32_t width, bool store, const char *what);
  /// A cta_group::2 collective: the warp meets, then waits for the pair
  /// peer's warp to meet it (runtime/engine/ClusterTcgen05.cpp).
  void pairWait(const PairOperands &op, const char *what);
  /// Fails if an asynchronous copy in flight writes any of the bytes.
  void checkPendingAsync(uint32_t address, uint32_t width, bool store, const char *what);

  void recordFailure(const char *what, std::string_view problem);
  [[noreturn]] void abandon();

  void warpSyncImpl(uint32_t memberMask, void *laneData, const char *what, CollectiveCall call,
                    void *fn);

  CtaRunner *cta = nullptr;
  const MemoryMap *globals = nullptr;
  std::byte *sharedBytes = nullptr;
  uint32_t sharedSize = 0;
  uint32_t dynamicSharedOffset = 0;
  /// The CTA's count of asynchronous copies in flight (never null).
  const uint32_t *pendingAsyncCopies = &kNoAsyncCopies;
  static constexpr uint32_t kNoAsyncCopies = 0;
  /// The CTA's record of the last generic write of each shared byte.
  GenericWrites *genericWrites = nullptr;
  /// fence.proxy.async executed, plus 1 (a write records 0 for none).
  uint32_t asyncProxyFences = 1;
  /// The cluster's vector clocks when LaunchConfig::raceCheck is on, else
  /// null; the thread's dense number in them.
  RaceClocks *raceClocks = nullptr;
  uint32_t raceThread = 0;
  uint64_t cachedBase = 0, cachedSize = 0;
  /// Stores and other visible changes made; the deadlock detector compares
  /// these between rounds to tell polling that waits from polling that works.
  uint64_t effects = 0;
  uint32_t index = 0; // linear thread index in the CTA
};

} // namespace cutec::rt
