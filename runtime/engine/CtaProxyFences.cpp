// Missing proxy fences: shared bytes that a thread wrote (the generic proxy)
// and the async proxy reads before that thread executed fence.proxy.async
// (runtime/race/GenericWrites.h). TMA stores check their source when issued,
// tcgen05.mma/cp and wgmma.mma_async the 16-byte units their descriptors
// read; a thread's fence.proxy.async counts here.
#include "runtime/engine/Cluster.h"
#include "runtime/engine/CtaRunner.h"

#include "runtime/base/DiagnosticText.h"

namespace cutec::rt {

const GenericWrites::Write *CtaRunner::unfencedWrite(uint32_t offset, uint32_t &at) const {
  return genericWrites.unfencedIn(
      offset,
      [&](const GenericWrites::Write &w) {
        const Thread &writer = cluster.member(w.writer >> 10).threads[w.writer & 1023];
        return writer.asyncProxyFences == w.fences;
      },
      at);
}

std::string CtaRunner::unfencedWriteText(const char *reader, const GenericWrites::Write &w,
                                         uint32_t at) const {
  std::string writer = issuerText(w.writer, /*alwaysNameCta=*/false);
  return std::string(reader) + " reads shared byte " + hex(kSharedWindowBase + at) + rankText() +
         ", which " + writer + " wrote with " + quoted(w.what) +
         " and has not fenced since: a thread's shared-memory writes reach the async proxy (TMA, "
         "tcgen05, wgmma) only after it executes fence.proxy.async.shared::cta, so on the GPU " +
         reader + " may read the old value";
}

void CtaRunner::checkOperandsFenced(Thread &t, std::vector<uint32_t> &units, const char *what,
                                    std::vector<uint32_t> *alsoFree) {
  uint32_t at = 0;
  for (uint32_t offset : units)
    if (const GenericWrites::Write *w = unfencedWrite(offset, at)) {
      std::vector<uint32_t>().swap(units);
      if (alsoFree)
        std::vector<uint32_t>().swap(*alsoFree);
      fail(t, what, [&] { return unfencedWriteText("the tensor core", *w, at); });
    }
}

void Thread::fenceProxyAsync(const char *) { ++asyncProxyFences; }

} // namespace cutec::rt
