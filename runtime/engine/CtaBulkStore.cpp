// TMA stores (cp.async.bulk.tensor.global.shared::cta ... .bulk_group) and
// the bulk async-groups that complete them, as the PTX ISA describes them:
// each thread's stores join a group at its next commit_group, and its
// wait_group n waits until at most its n most recent groups are pending
// (.read: until the older groups' stores have read their sources).
//
// A store reads its shared source when it is issued (so that a bad map,
// coordinate or address is reported at the instruction) and is then in
// flight. Until a wait_group retires its group, every shared byte it reads
// counts as being read: a store to it, or a TMA load into it, is a race on
// the GPU and an error here. Under the fixed schedule its global writes
// happen when a wait_group without .read retires its group, or else when
// the CTA ends (the grid's completion makes every write visible); another
// schedule may write them at any scheduling point after the issue. A global
// access by the CTA to those bytes before the retirement is reported either
// way; another CTA's reader sees the old or the new bytes. A CTA that ends while a
// store's source is not retired is an error: its shared memory is released,
// and nothing said the store had read it.
#include "runtime/engine/CtaRunner.h"

#include "runtime/engine/Cluster.h"
#include "runtime/base/DiagnosticText.h"
#include "runtime/memory/MemoryMap.h"

#include <algorithm>
#include <cstring>

namespace cutec::rt {

void CtaRunner::tmaStoreTile(Thread &t, uint32_t src, uint64_t tensorMap, const int32_t *coords,
                             uint32_t rank, const char *what) {
  // Every check that may stop the thread comes before anything is
  // allocated: a failure abandons this frame without unwinding it.
  TensorMapInfo info = decodeTileMap(t, tensorMap, coords, rank, what);
  checkTmaSharedStart(t, src, info, "source", what);
  failIf(t, what, checkTmaBoxStart(info, coords));
  TmaSharedLayout layout = TmaSharedLayout::of(info);
  layout.forEachChunk(src, info.boxBytes(), [&](uint32_t, uint32_t at) {
    uint32_t offset = at - kSharedWindowBase;
    if (at < kSharedWindowBase || offset > shared.size() - 16)
      fail(t, what, [&] {
        return "the box (" + std::to_string(info.sharedBoxBytes()) +
               " bytes in shared memory) at shared source " + hex(src) +
               " runs past the end of the CTA's shared memory [" + hex(kSharedWindowBase) + ", " +
               hex(kSharedWindowBase + shared.size()) + ")";
      });
    uint32_t unfencedAt = 0;
    if (const GenericWrites::Write *w = unfencedWrite(offset, unfencedAt))
      fail(t, what, [&] { return unfencedWriteText("the store", *w, unfencedAt); });
    if (asyncOwner.empty() || !asyncOwner[offset / 16])
      return;
    auto load = std::find_if(asyncCopies.begin(), asyncCopies.end(), [&](const AsyncCopy &c) {
      return c.serial == asyncOwner[offset / 16];
    });
    fail(t, what, [&] {
      return "the store reads shared byte " + hex(at) + ", which the TMA load " + copyText(*load) +
             " is still writing; wait on that mbarrier phase first";
    });
  });
  const MemoryMap &globals = launch.globals;
  const uint32_t elementBytes = info.elementBytes();
  forEachTmaBoxRow(info, coords, [&](const TmaBoxRow &r) {
    uint64_t bytes = uint64_t(r.end - r.first) * elementBytes;
    if (r.first < r.end && !globals.find(r.address, bytes))
      fail(t, what, [&] {
        return "the box's in-bounds elements of row " +
               std::to_string(r.imageOffset / info.boxRowBytes()) + ", " + std::to_string(bytes) +
               " bytes at " + hex(r.address) +
               ", lie outside the launch's buffers: " + globals.describeMiss(r.address, bytes);
      });
    return true;
  });

  BulkStore store;
  store.serial = ++bulkStoreSerials;
  store.src = src;
  store.bytes = info.boxBytes();
  store.layout = layout;
  store.info = info;
  std::copy(coords, coords + rank, store.coords);
  store.what = what;
  store.issuer = clusterThreadId(t);
  store.image.resize(store.bytes);
  if (bulkStoreReaders.size() != sharedUnits())
    bulkStoreReaders.assign(sharedUnits(), 0);
  layout.forEachChunk(src, store.bytes, [&](uint32_t byte, uint32_t at) {
    uint32_t offset = at - kSharedWindowBase;
    std::memcpy(store.image.data() + byte, shared.data() + offset, 16);
    ++bulkStoreReaders[offset / 16];
  });
  forEachTmaBoxRow(info, coords, [&](const TmaBoxRow &r) {
    if (r.first == r.end)
      return true;
    uint64_t bytes = uint64_t(r.end - r.first) * elementBytes;
    store.targets.push_back({r.address, bytes});
    store.low = std::min(store.low, r.address);
    store.high = std::max(store.high, r.address + bytes);
    return true;
  });
  bulkGroups[t.index].uncommitted.push_back(store.serial);
  bulkStores.push_back(std::move(store));
  ++unreadBulkStores;
  updatePendingAsync();
  // Global accesses now take the slow path, which checks them against the
  // stores in flight (Thread::checkGlobal).
  for (Thread &other : threads)
    other.cachedSize = 0;
  ++t.effects;
}

void CtaRunner::bulkCommitGroup(Thread &t) {
  BulkGroups &groups = bulkGroups[t.index];
  for (uint32_t serial : groups.uncommitted)
    for (BulkStore &s : bulkStores)
      if (s.serial == serial)
        s.committed = true;
  groups.committed.push_back({std::move(groups.uncommitted), false});
  groups.uncommitted.clear();
}

void CtaRunner::bulkWaitGroup(Thread &t, uint32_t n, bool read, const char *) {
  BulkGroups &groups = bulkGroups[t.index];
  if (groups.committed.size() <= n)
    return;
  size_t retired = groups.committed.size() - n;
  for (size_t g = 0; g < retired; ++g) {
    BulkGroup &group = groups.committed[g];
    for (uint32_t serial : group.stores) {
      auto s = std::find_if(bulkStores.begin(), bulkStores.end(),
                            [&](const BulkStore &x) { return x.serial == serial; });
      if (s == bulkStores.end())
        continue; // completed by an earlier wait
      if (!group.sourcesRead)
        retireBulkStoreSource(*s);
      if (!read)
        completeBulkStore(serial);
    }
    group.sourcesRead = true;
  }
  if (!read)
    groups.committed.erase(groups.committed.begin(),
                           groups.committed.begin() + std::ptrdiff_t(retired));
  ++t.effects;
}

void CtaRunner::retireBulkStoreSource(BulkStore &s) {
  if (s.sourceRead)
    return;
  s.layout.forEachChunk(s.src, s.bytes, [&](uint32_t, uint32_t at) {
    --bulkStoreReaders[(at - kSharedWindowBase) / 16];
  });
  s.sourceRead = true;
  --unreadBulkStores;
  updatePendingAsync();
}

void CtaRunner::completeBulkStore(uint32_t serial) {
  auto s = std::find_if(bulkStores.begin(), bulkStores.end(),
                        [&](const BulkStore &x) { return x.serial == serial; });
  retireBulkStoreSource(*s);
  if (!s->written)
    scatterTmaBox(s->info, s->coords, s->image.data());
  bulkStores.erase(s);
}

void CtaRunner::writeAnyBulkStore(Thread &t) {
  auto unwritten = [](const BulkStore &s) { return !s.written; };
  uint32_t count = 0;
  for (uint32_t r = 0; r < cluster.size(); ++r) {
    const std::vector<BulkStore> &stores = cluster.member(r).bulkStores;
    count += uint32_t(std::count_if(stores.begin(), stores.end(), unwritten));
  }
  if (count == 0 || !cluster.schedule().writeStoreEarly())
    return;
  uint32_t pick = cluster.schedule().latencyBelow(count);
  for (uint32_t r = 0; r < cluster.size(); ++r)
    for (BulkStore &s : cluster.member(r).bulkStores)
      if (unwritten(s) && pick-- == 0) {
        scatterTmaBox(s.info, s.coords, s.image.data());
        s.written = true;
        ++t.effects;
        return;
      }
}

const CtaRunner::BulkStore *CtaRunner::bulkStoreReading(uint32_t offset) const {
  if (bulkStoreReaders.empty() || !bulkStoreReaders[offset / 16])
    return nullptr;
  for (const BulkStore &s : bulkStores) {
    if (s.sourceRead)
      continue;
    const BulkStore *found = nullptr;
    s.layout.forEachChunk(s.src, s.bytes, [&](uint32_t, uint32_t at) {
      if ((at - kSharedWindowBase) / 16 == offset / 16)
        found = &s;
    });
    if (found)
      return found;
  }
  return nullptr;
}

void CtaRunner::checkBulkStoreTargets(Thread &t, uint64_t address, uint64_t width, bool store,
                                      const char *what) {
  for (const BulkStore &s : bulkStores) {
    if (address >= s.high || address + width <= s.low)
      continue;
    for (auto [at, bytes] : s.targets)
      if (address < at + bytes && at < address + width)
        fail(t, what, [&] {
          return std::to_string(width) + "-byte global " + (store ? "store" : "load") + " at " +
                 hex(address) + " touches global memory that the TMA store " + bulkStoreText(s) +
                 " writes when it completes: retire its bulk async-group with "
                 "cp.async.bulk.wait_group (without .read) first";
        });
  }
}

std::string CtaRunner::bulkStoreText(const BulkStore &s) const {
  std::string state = !s.committed    ? "no cp.async.bulk.commit_group of its thread has "
                                        "followed it"
                      : !s.sourceRead ? "its bulk async-group is not retired yet"
                                      : "its group is retired by a wait_group.read only";
  return "'" + std::string(s.what ? s.what : "?") + "' (issued by " +
         issuerText(s.issuer, /*alwaysNameCta=*/false) + "; reads shared [" + hex(s.src) + ", " +
         hex(s.src + s.layout.extent(s.bytes)) + "), writes global memory in [" + hex(s.low) +
         ", " + hex(s.high) + "); " + state + ")";
}

bool CtaRunner::finishBulkStores() {
  size_t unread = size_t(std::count_if(bulkStores.begin(), bulkStores.end(),
                                       [](const BulkStore &s) { return !s.sourceRead; }));
  if (unread) {
    std::string text = ctaName() + ": the CTA ended while " + std::to_string(unread) +
                       " TMA store(s) may still read their shared source, which the CTA's end "
                       "releases (retire each store's bulk async-group with "
                       "cp.async.bulk.wait_group.read before exiting):";
    for (const BulkStore &s : bulkStores)
      if (!s.sourceRead)
        text += "\n  " + bulkStoreText(s);
    launch.reportError(cta, std::move(text));
    failed = true;
    return true;
  }
  while (!bulkStores.empty())
    completeBulkStore(bulkStores.front().serial);
  return false;
}

void CtaRunner::dropBulkStores() {
  bulkStores.clear();
  std::fill(bulkStoreReaders.begin(), bulkStoreReaders.end(), 0);
  unreadBulkStores = 0;
  for (BulkGroups &g : bulkGroups)
    g = {};
  updatePendingAsync();
}

// Thread's entry points.

void Thread::tmaStoreTile(uint32_t src, uint64_t tensorMap, const int32_t *coords, uint32_t rank,
                          const char *what) {
  cta->tmaStoreTile(*this, src, tensorMap, coords, rank, what);
  cta->schedulingPoint(*this);
}

void Thread::bulkCommitGroup(const char *) {
  cta->bulkCommitGroup(*this);
  cta->schedulingPoint(*this);
}

void Thread::bulkWaitGroup(uint32_t n, bool read, const char *what) {
  cta->bulkWaitGroup(*this, n, read, what);
  cta->schedulingPoint(*this);
}

void Thread::prefetchTensormap(uint64_t, const char *) {}

} // namespace cutec::rt
