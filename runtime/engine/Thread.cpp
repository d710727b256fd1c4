// Thread's out-of-line parts: the slow path of the global-memory check, the
// wording of memory faults, and the hand-over of scheduling points to the
// CTA runner.
#include "runtime/engine/Thread.h"

#include "runtime/engine/CtaRunner.h"
#include "runtime/base/DiagnosticText.h"
#include "runtime/memory/MemoryMap.h"

namespace cutec::rt {
namespace {

std::string accessText(uint32_t width, const char *space, bool store, uint64_t address) {
  return std::to_string(width) + "-byte " + space + (store ? " store" : " load") + " at " +
         hex(address);
}

} // namespace

void Thread::checkGlobal(uint64_t address, uint32_t width, bool store, const char *what) {
  const MemoryMap::Buffer *buffer = globals->find(address, width);
  if (address % width)
    failWith(what, [&] {
      std::string where = buffer ? "offset " + std::to_string(address - buffer->base) +
                                       " in buffer '" + buffer->name + "'"
                                 : "also out of bounds: " + globals->describeMiss(address, width);
      return "misaligned " + accessText(width, "global", store, address) +
             ": the address must be a multiple of " + std::to_string(width) + " (" + where + ")";
    });
  if (!buffer)
    failWith(what, [&] {
      return "out-of-bounds " + accessText(width, "global", store, address) + ": " +
             globals->describeMiss(address, width);
    });
  // While the CTA has TMA stores in flight, every access is checked against
  // them, so none is cached.
  if (cta->hasPendingBulkStores()) {
    cta->checkBulkStoreTargets(*this, address, width, store, what);
    return;
  }
  cachedBase = buffer->base;
  cachedSize = buffer->size;
}

void Thread::failShared(uint32_t address, uint32_t width, bool store, const char *what) {
  failWith(what, [&] {
    std::string access = accessText(width, "shared", store, address);
    if (address % width)
      return "misaligned " + access + ": the address must be a multiple of " +
             std::to_string(width);
    uint64_t end = uint64_t(kSharedWindowBase) + sharedSize;
    std::string where;
    if (address < kSharedWindowBase)
      where = "it lies below the start of the shared window";
    else if (address >= end)
      where = "it starts " + std::to_string(address - end) + " bytes past the end";
    else
      where = "it runs " + std::to_string(address + width - end) + " bytes past the end";
    return "out-of-bounds " + access + ": " + where + " of the CTA's shared memory [" +
           hex(kSharedWindowBase) + ", " + hex(end) + ") (" + std::to_string(dynamicSharedOffset) +
           " static + " + std::to_string(sharedSize - dynamicSharedOffset) + " dynamic bytes)";
  });
}

void Thread::barrierSync(uint32_t id, uint32_t count, const char *what) {
  cta->barrier(*this, id, count, what, /*wait=*/true);
  cta->schedulingPoint(*this);
}

void Thread::barrierArrive(uint32_t id, uint32_t count, const char *what) {
  cta->barrier(*this, id, count, what, /*wait=*/false);
  cta->schedulingPoint(*this);
}

void Thread::warpSyncImpl(uint32_t memberMask, void *laneData, const char *what,
                          CollectiveCall call, void *fn) {
  cta->warpSync(*this, memberMask, laneData, what, call, fn);
}

void Thread::yieldThread(const char *what) { cta->yieldThread(*this, what); }

void Thread::setmaxnreg(bool inc, uint32_t count, const char *what) {
  cta->setmaxnreg(*this, inc, count, what);
}

void Thread::fail(std::string_view problem, const char *what) {
  recordFailure(what, problem);
  abandon();
}

void Thread::recordFailure(const char *what, std::string_view problem) {
  cta->recordFailure(*this, what, problem);
}

void Thread::abandon() { cta->abandonRunning(); }

} // namespace cutec::rt
