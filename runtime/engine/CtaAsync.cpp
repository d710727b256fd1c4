// The CTA's asynchronous side: mbarriers and TMA tile loads in flight.
//
// A TMA load reads global memory when it is issued (so that a bad map or
// coordinate is reported at the instruction) and is then pending: its bytes
// wait beside shared memory, and every shared byte it will write is marked
// with the copy's serial. It lands only when a thread's try_wait on its
// mbarrier finds the waited phase incomplete with all arrivals in: pending
// copies of that mbarrier then land in issue order (bytes written with the
// swizzle, transaction bytes completed) until the phase completes. A shared
// access that touches a marked byte before then is a race on the GPU and an
// error here; so is a CTA that ends with a load pending. Everything happens
// at fixed points of the thread schedule, so runs are deterministic; a
// schedule seed (runtime/engine/Schedule.h) may land a load earlier, at any
// scheduling point after its issue, or leave it in flight at a wait.
#include "runtime/engine/CtaRunner.h"

#include "runtime/engine/Cluster.h"
#include "runtime/base/DiagnosticText.h"
#include "runtime/memory/Tma.h"

#include <algorithm>
#include <cstring>

namespace cutec::rt {
namespace {

/// Records `problem` (if any) as t's failure; true if it did. The caller
/// then abandons the thread; `problem` is gone by then.
bool recordIf(CtaRunner &cta, const Thread &t, const char *what, const std::string &problem) {
  if (problem.empty())
    return false;
  cta.recordFailure(t, what, problem);
  return true;
}

} // namespace

void CtaRunner::mbarrierInit(Thread &t, uint32_t bar, uint32_t expectedArrivals,
                             const char *what) {
  t.sharedPointer(bar, 8, /*store=*/true, what);
  if (recordIf(*this, t, what, mbarriers.init(bar, expectedArrivals)))
    abandonRunning();
  ++t.effects;
}

uint64_t CtaRunner::mbarrierArrive(Thread &t, uint32_t bar, uint32_t txBytes, const char *what) {
  t.sharedPointer(bar, 8, /*store=*/true, what);
  uint64_t token = 0;
  if (recordIf(*this, t, what, mbarriers.arrive(bar, txBytes, token)))
    abandonRunning();
  wgmmaOrderArrive(t, bar);
  raceMbarrierArrive(t, *this, bar);
  ++t.effects;
  return token;
}

void CtaRunner::mbarrierExpectTx(Thread &t, uint32_t bar, uint32_t txBytes, const char *what) {
  t.sharedPointer(bar, 8, /*store=*/true, what);
  if (recordIf(*this, t, what, mbarriers.expectTx(bar, txBytes)))
    abandonRunning();
  ++t.effects;
}

bool CtaRunner::mbarrierTryWait(Thread &t, uint32_t bar, uint32_t parity, const char *what) {
  t.sharedPointer(bar, 8, /*store=*/false, what);
  Mbarriers::State *s = mbarriers.find(bar);
  if (!s)
    fail(t, what, [&] {
      return "mbarrier.try_wait on shared address " + sharedNames.label(bar) +
             ", where no mbarrier.init initialised an mbarrier";
    });
  parity &= 1;
  // Arrivals in flight to this mbarrier (runtime/engine/AsyncArrivals.cpp) come in.
  if (s->parity() == parity)
    cluster.deliverArrivalsTo(t, *this, bar);
  // The waited phase is the current one and lacks only transaction bytes:
  // the loads that owe them land now, in issue order, as far as needed.
  // A schedule may leave them in flight a while longer (delayLanding); a
  // kernel without barriers has no schedule (and may not wait again).
  if (s->parity() == parity && s->pendingArrivals == 0 &&
      !(launch.kernel.usesBarriers && cluster.schedule().delayLanding()))
    landCopiesFor(t, bar, parity);
  bool done = s->parity() != parity;
  if (done && !tmem.pendingWrites().empty()) {
    // tcgen05.commit arrivals seen complete: their operations are done. A
    // thread learns it for its own CTA's TMEM only; the peer of a pair sees
    // the writes to its TMEM complete through its own mbarrier (a multicast
    // commit arrives on both).
    if (uint64_t last = tmem.observeCompletion(cluster.clusterAddress(*this, bar), s->phase))
      forgetTcgen05Reads(last);
  }
  if (done && cluster.size() > 1)
    forgetPeerReadsCompletedBy(bar, s->phase);
  if (done) {
    wgmmaOrderWaited(t, bar);
    raceMbarrierWaited(t, bar);
  }
  Slot &slot = slots[t.index];
  slot.pollsMbarrier = !done;
  slot.mbarrier = bar;
  slot.mbarrierParity = uint8_t(parity);
  return done;
}

void CtaRunner::landCopiesFor(Thread &t, uint32_t bar, uint32_t parity) {
  const Mbarriers::State *s = mbarriers.find(bar);
  while (s->parity() == parity) {
    // The earliest-issued pending load of the cluster owed to this mbarrier.
    CtaRunner *owner = nullptr;
    size_t at = 0;
    for (uint32_t r = 0; r < cluster.size(); ++r) {
      CtaRunner &m = cluster.member(r);
      for (size_t i = 0; i < m.asyncCopies.size(); ++i) {
        const AsyncCopy &c = m.asyncCopies[i];
        if (c.barCta == this && c.bar == bar &&
            (!owner || c.serial < owner->asyncCopies[at].serial)) {
          owner = &m;
          at = i;
        }
      }
    }
    if (!owner)
      return;
    owner->landCopy(t, at);
  }
}

void CtaRunner::landAnyCopy(Thread &t) {
  uint32_t inFlight = 0;
  for (uint32_t r = 0; r < cluster.size(); ++r)
    inFlight += uint32_t(cluster.member(r).asyncCopies.size());
  if (inFlight == 0)
    return;
  uint32_t pick = cluster.schedule().below(inFlight);
  for (uint32_t r = 0; r < cluster.size(); ++r) {
    CtaRunner &m = cluster.member(r);
    if (pick < m.asyncCopies.size())
      return m.landCopy(t, pick);
    pick -= uint32_t(m.asyncCopies.size());
  }
}

void CtaRunner::landCopy(Thread &t, size_t i) {
  AsyncCopy &c = asyncCopies[i];
  // The swizzle moves whole 16-byte chunks; box bytes are a multiple of 16.
  c.layout.forEachChunk(c.dst, c.bytes, [&](uint32_t byte, uint32_t target) {
    uint32_t offset = target - kSharedWindowBase;
    std::memcpy(shared.data() + offset, c.image.data() + byte, 16);
    asyncOwner[offset / 16] = 0;
    genericWrites.forgetUnit(offset);
  });
  uint32_t bar = c.bar, bytes = c.bytes;
  CtaRunner *barCta = c.barCta;
  const char *copyWhat = c.what;
  asyncCopies.erase(asyncCopies.begin() + std::ptrdiff_t(i));
  updatePendingAsync();
  ++t.effects;
  if (recordIf(*this, t, copyWhat, barCta->mbarriers.completeTx(bar, bytes)))
    abandonRunning();
}

void CtaRunner::tmaLoadTile(Thread &t, uint32_t dst, uint64_t tensorMap, const int32_t *coords,
                            uint32_t rank, uint32_t bar, const char *what) {
  t.sharedPointer(bar, 8, /*store=*/false, what);
  tmaLoadTileTo(t, dst, tensorMap, coords, rank, *this, bar, what);
}

TensorMapInfo CtaRunner::decodeTileMap(Thread &t, uint64_t tensorMap, const int32_t *coords,
                                       uint32_t rank, const char *what) {
  if (tensorMap == 0 || tensorMap % 64)
    fail(t, what, [&] {
      return "the tensor map operand " + hex(tensorMap) +
             " is not the 64-byte-aligned address of a TensorMap parameter";
    });
  TensorMapInfo info;
  if (!decodeTensorMap(*reinterpret_cast<const TensorMap *>(tensorMap), info))
    fail(t, what, [&] {
      return "the tensor map at " + hex(tensorMap) +
             " was not written by encodeTensorMapTiled (or was overwritten)";
    });
  if (rank != info.rank || !coords)
    fail(t, what, [&] {
      return "a " + std::to_string(rank) + "d tile copy with a rank-" + std::to_string(info.rank) +
             " tensor map";
    });
  return info;
}

void CtaRunner::checkTmaSharedStart(Thread &t, uint32_t at, const TensorMapInfo &info,
                                    const char *role, const char *what) {
  uint32_t align = tmaSharedAlignment(info.swizzle);
  if (at % align)
    fail(t, what, [&] {
      return "shared " + std::string(role) + " " + hex(at) + " is not " + std::to_string(align) +
             "-byte aligned: cp.async.bulk.tensor needs " + std::to_string(align) +
             " bytes (the GPU reports a misaligned address)";
    });
}

void CtaRunner::tmaLoadTileTo(Thread &t, uint32_t dst, uint64_t tensorMap, const int32_t *coords,
                              uint32_t rank, CtaRunner &barCta, uint32_t bar, const char *what) {
  TensorMapInfo info = decodeTileMap(t, tensorMap, coords, rank, what);
  if (!barCta.mbarriers.find(bar))
    fail(t, what, [&] {
      return "the load's mbarrier at " + barCta.sharedNames.label(bar) + barCta.rankText() +
             " was never initialised (mbarrier.init)";
    });
  checkTmaSharedStart(t, dst, info, "destination", what);

  AsyncCopy copy{cluster.nextCopySerial(), AsyncWriter::TmaLoad, dst, info.boxBytes(), bar,
                 &barCta, barCta.mbarriers.find(bar)->phase, TmaSharedLayout::of(info), what,
                 clusterThreadId(t), {}};
  checkAsyncDestination(t, copy, what);
  if (recordIf(*this, t, what, gatherTmaBox(info, coords, launch.globals, gatherScratch)))
    abandonRunning();
  // The issuing CTA's own TMA stores in flight may not have written what
  // the box reads yet.
  if (t.cta->hasPendingBulkStores())
    forEachTmaBoxRow(info, coords, [&](const TmaBoxRow &r) {
      if (r.first < r.end)
        t.cta->checkBulkStoreTargets(t, r.address, uint64_t(r.end - r.first) * info.elementBytes(),
                                     /*store=*/false, what);
      return true;
    });
  copy.image = std::move(gatherScratch);
  gatherScratch = {};
  addAsyncCopy(t, std::move(copy));
}

void CtaRunner::checkAsyncDestination(Thread &t, const AsyncCopy &copy, const char *what) {
  if (asyncOwner.size() != sharedUnits())
    asyncOwner.assign(sharedUnits(), 0);
  const char *part = copy.writer == AsyncWriter::TmaLoad ? "box" : "response";
  uint32_t dst = copy.dst;
  // The swizzle keeps a chunk in its 128-byte block (and dst is aligned to
  // 128): only mbarriers in the blocks the rows span can be overwritten.
  const bool mayOverwriteMbarrier =
      mbarriers.anyOverlaps(dst, dst + (copy.layout.extent(copy.bytes) + 127) / 128 * 128);
  copy.layout.forEachChunk(dst, copy.bytes, [&](uint32_t, uint32_t target) {
    uint32_t offset = target - kSharedWindowBase;
    if (target < kSharedWindowBase || offset > shared.size() - 16)
      fail(t, what, [&] {
        return "the " + std::string(part) + " (" +
               std::to_string(copy.layout.extent(copy.bytes)) +
               " bytes in shared memory) at shared destination " + hex(dst) +
               " runs past the end of the CTA's shared memory [" + hex(kSharedWindowBase) +
               ", " + hex(kSharedWindowBase + shared.size()) + ")";
      });
    if (uint32_t owner = asyncOwner[offset / 16]) {
      auto other = std::find_if(asyncCopies.begin(), asyncCopies.end(),
                                [&](const AsyncCopy &c) { return c.serial == owner; });
      fail(t, what, [&] {
        return "the " + std::string(part) + " writes shared byte " + hex(target) + ", which the " +
               writerName(other->writer) + " " + copyText(*other) + " still in flight writes too";
      });
    }
    if (const Tcgen05Read *r = tcgen05ReaderOf(offset))
      fail(t, what, [&] {
        return "the " + std::string(part) + " writes shared byte " + hex(target) + ", which " +
               tcgen05ReadText(*r) +
               " reads and may still be reading: wait on the mbarrier phase its "
               "tcgen05.commit arrives on before reusing the buffer";
      });
    uint32_t warpgroup;
    if (const WgmmaRead *r = pendingWgmmaReads ? wgmmaReaderOf(offset, 16, warpgroup) : nullptr)
      fail(t, what, [&] {
        return "the " + std::string(part) + " writes shared byte " + hex(target) + ", which " +
               wgmmaReaderText(warpgroup, *r);
      });
    if (const WgmmaLastReader *r = unorderedWgmmaReader(t, offset, 16, warpgroup))
      fail(t, what, [&] {
        return "the " + std::string(part) + " writes shared byte " + hex(target) + ", which " +
               unorderedWgmmaText(warpgroup, *r);
      });
    if (const BulkStore *store = bulkStoreReading(offset))
      fail(t, what, [&] {
        return "the " + std::string(part) + " writes shared byte " + hex(target) +
               ", which the TMA store " +
               bulkStoreText(*store) +
               " may still be reading: retire its bulk async-group with "
               "cp.async.bulk.wait_group.read before reusing the buffer";
      });
    for (uint32_t b = target & ~7u; mayOverwriteMbarrier && b < target + 16; b += 8)
      if (mbarriers.find(b))
        fail(t, what, [&] {
          return "the " + std::string(part) + " would overwrite the mbarrier at " + hex(b) +
                 " (destination " + hex(dst) + ", " + std::to_string(copy.bytes) + " bytes)";
        });
  });
}

void CtaRunner::addAsyncCopy(Thread &t, AsyncCopy copy) {
  copy.layout.forEachChunk(copy.dst, copy.bytes, [&](uint32_t, uint32_t target) {
    asyncOwner[(target - kSharedWindowBase) / 16] = copy.serial;
  });
  asyncCopies.push_back(std::move(copy));
  updatePendingAsync();
  ++t.effects;
}

void CtaRunner::checkPendingAsync(Thread &t, uint32_t address, uint32_t width, bool store,
                                  const char *what) {
  uint32_t offset = address - kSharedWindowBase;
  if (store && !tcgen05Reads.empty())
    for (uint32_t b = 0; b < width; ++b)
      if (const Tcgen05Read *r = tcgen05ReaderOf(offset + b))
        fail(t, what, [&] {
          return std::to_string(width) + "-byte shared store at " + hex(address) +
                 " overwrites shared memory that " + tcgen05ReadText(*r) +
                 " reads and may still be reading: wait on the mbarrier phase its "
                 "tcgen05.commit arrives on before reusing the buffer";
        });
  uint32_t warpgroup;
  if (const WgmmaRead *r =
          store && pendingWgmmaReads ? wgmmaReaderOf(offset, width, warpgroup) : nullptr)
    fail(t, what, [&] {
      return std::to_string(width) + "-byte shared store at " + hex(address) +
             " overwrites shared memory that " + wgmmaReaderText(warpgroup, *r);
    });
  if (const WgmmaLastReader *r = store ? unorderedWgmmaReader(t, offset, width, warpgroup) : nullptr)
    fail(t, what, [&] {
      return std::to_string(width) + "-byte shared store at " + hex(address) +
             " overwrites shared memory that " + unorderedWgmmaText(warpgroup, *r);
    });
  if (store && unreadBulkStores)
    for (uint32_t b = 0; b < width; ++b)
      if (const BulkStore *s = bulkStoreReading(offset + b))
        fail(t, what, [&] {
          return std::to_string(width) + "-byte shared store at " + hex(address) +
                 " overwrites shared memory that the TMA store " + bulkStoreText(*s) +
                 " may still be reading: retire its bulk async-group with "
                 "cp.async.bulk.wait_group.read before reusing the buffer";
        });
  if (asyncOwner.empty())
    return;
  for (uint32_t b = 0; b < width; ++b) {
    uint32_t owner = asyncOwner[(offset + b) / 16];
    if (!owner)
      continue;
    auto copy = std::find_if(asyncCopies.begin(), asyncCopies.end(),
                             [&](const AsyncCopy &c) { return c.serial == owner; });
    fail(t, what, [&] {
      return std::to_string(width) + "-byte shared " + (store ? "store" : "load") + " at " +
             hex(address) + " touches shared memory that the " + writerName(copy->writer) + " " +
             copyText(*copy) +
             " is still writing; wait on that mbarrier phase (mbarrier.try_wait.parity) "
             "before touching the destination";
    });
  }
}

const char *CtaRunner::writerName(AsyncWriter w) {
  return w == AsyncWriter::TmaLoad ? "TMA load" : "try_cancel response";
}

std::string CtaRunner::copyText(const AsyncCopy &c) const {
  // A multicast copy issued by another CTA names that CTA.
  return "'" + std::string(c.what ? c.what : "?") + "' (issued by " +
         issuerText(c.issuer, /*alwaysNameCta=*/false) + "; " +
         std::to_string(c.bytes) + " bytes to [" +
         hex(c.dst) + ", " + hex(c.dst + c.layout.extent(c.bytes)) + ") completing on mbarrier " +
         c.barCta->sharedNames.label(c.bar) + c.barCta->rankText() +
         " in its phase " + std::to_string(c.barPhase) + ")";
}

void CtaRunner::dropAsyncCopies() {
  for (const AsyncCopy &c : asyncCopies)
    c.layout.forEachChunk(c.dst, c.bytes, [&](uint32_t, uint32_t target) {
      asyncOwner[(target - kSharedWindowBase) / 16] = 0;
    });
  asyncCopies.clear();
  updatePendingAsync();
}

bool CtaRunner::reportUnfinishedCopies() {
  if (asyncCopies.empty())
    return false;
  // Name the kind when all are of one kind (TMA loads, as a rule).
  AsyncWriter first = asyncCopies.front().writer;
  bool oneKind = std::all_of(asyncCopies.begin(), asyncCopies.end(),
                             [&](const AsyncCopy &c) { return c.writer == first; });
  std::string text = ctaName() + ": the CTA ended with " + std::to_string(asyncCopies.size()) +
                     " " + (oneKind ? writerName(first) : "asynchronous write") +
                     "(s) in flight, whose data no thread waited for (a load lands "
                     "when a thread waits on its mbarrier phase):";
  for (const AsyncCopy &c : asyncCopies)
    text += "\n  " + copyText(c) + "; " + c.barCta->mbarriers.describe(c.bar);
  launch.reportError(cta, std::move(text));
  failed = true;
  return true;
}

// Thread's entry points.

void Thread::mbarrierInit(uint32_t bar, uint32_t expectedArrivals, const char *what) {
  cta->mbarrierInit(*this, bar, expectedArrivals, what);
}

uint64_t Thread::mbarrierArrive(uint32_t bar, const char *what) {
  uint64_t token = cta->mbarrierArrive(*this, bar, 0, what);
  cta->schedulingPoint(*this);
  return token;
}

uint64_t Thread::mbarrierArriveExpectTx(uint32_t bar, uint32_t txBytes, const char *what) {
  uint64_t token = cta->mbarrierArrive(*this, bar, txBytes, what);
  cta->schedulingPoint(*this);
  return token;
}

void Thread::mbarrierExpectTx(uint32_t bar, uint32_t txBytes, const char *what) {
  cta->mbarrierExpectTx(*this, bar, txBytes, what);
  cta->schedulingPoint(*this);
}

bool Thread::mbarrierTryWaitParity(uint32_t bar, uint32_t parity, const char *what) {
  bool done = cta->mbarrierTryWait(*this, bar, parity, what);
  if (done)
    cta->schedulingPoint(*this);
  return done;
}

void Thread::mbarrierWaitParity(uint32_t bar, uint32_t parity, const char *what) {
  while (!cta->mbarrierTryWait(*this, bar, parity, what))
    yieldThread(what);
  cta->schedulingPoint(*this);
}

void Thread::fenceMbarrierInit(const char *) {}

void Thread::tmaLoadTile(uint32_t dst, uint64_t tensorMap, const int32_t *coords, uint32_t rank,
                         uint32_t bar, const char *what) {
  cta->tmaLoadTile(*this, dst, tensorMap, coords, rank, bar, what);
  cta->schedulingPoint(*this);
}

void Thread::checkPendingAsync(uint32_t address, uint32_t width, bool store, const char *what) {
  cta->checkPendingAsync(*this, address, width, store, what);
}

} // namespace cutec::rt
