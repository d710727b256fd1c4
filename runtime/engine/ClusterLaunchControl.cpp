// Cluster launch control: the pending clusters of a launch, try_cancel
// (an asynchronous 16-byte write completing on an mbarrier, as a TMA load
// does) and query_cancel.
#include "runtime/engine/ClusterLaunchControl.h"

#include "runtime/engine/Cluster.h"
#include "runtime/base/DiagnosticText.h"

#include <array>
#include <cstring>

namespace cutec::rt {
namespace {

/// Word 3 of a response: this tag, plus 1 when a cluster was canceled.
constexpr uint32_t kResponseTag = 0xC1C0DE00u;

} // namespace

PendingClusters::PendingClusters(uint64_t clusters, uint64_t slots)
    : clusters(clusters), next(slots) {
  for (uint64_t s = 0; s < slots; ++s)
    next[s] = s;
}

std::optional<uint64_t> PendingClusters::take(uint64_t slot) {
  uint64_t &n = next[slot];
  if (n >= clusters)
    return std::nullopt;
  uint64_t cluster = n;
  n += next.size();
  return cluster;
}

B128 clcResponse(std::optional<Dim3> firstCta) {
  if (!firstCta)
    return {{0, 0, 0, kResponseTag}};
  return {{firstCta->x, firstCta->y, firstCta->z, kResponseTag | 1}};
}

std::string decodeClcResponse(const B128 &r, bool &canceled, Dim3 &firstCta) {
  if ((r.word[3] & ~1u) != kResponseTag)
    return "the operand is not a response that clusterlaunchcontrol.try_cancel wrote (words " +
           hex(r.word[0]) + ", " + hex(r.word[1]) + ", " + hex(r.word[2]) + ", " +
           hex(r.word[3]) + "); read it after its mbarrier phase completes";
  canceled = r.word[3] & 1;
  firstCta = {r.word[0], r.word[1], r.word[2]};
  return "";
}

CtaRunner::AsyncCopy CtaRunner::clcResponseCopy(Thread &t, uint32_t response, uint32_t bar,
                                                const char *what) {
  if (!mbarriers.find(bar))
    fail(t, what, [&] {
      return "the try_cancel's mbarrier at " + hex(bar) + rankText() +
             " was never initialised (mbarrier.init)";
    });
  AsyncCopy copy{cluster.nextCopySerial(),
                 AsyncWriter::ClcResponse,
                 response,
                 16,
                 bar,
                 this,
                 mbarriers.find(bar)->phase,
                 TmaSharedLayout{16, 16, TmaSwizzle::None},
                 what,
                 clusterThreadId(t),
                 {}};
  checkAsyncDestination(t, copy, what);
  return copy;
}

void CtaRunner::clcTryCancel(Thread &t, uint32_t response, uint32_t bar, bool multicast,
                             const char *what) {
  if (clcFailureObserved)
    fail(t, what, [] {
      return std::string("this CTA has already seen a try_cancel fail (query_cancel.is_canceled "
                         "gave false): another try_cancel is undefined (PTX ISA)");
    });
  if (response % 16)
    fail(t, what, [&] {
      return "the response address " + hex(response) + " is not 16-byte aligned";
    });
  t.sharedPointer(bar, 8, /*store=*/false, what);
  // The response goes to the issuer's CTA, or with .multicast::cluster::all
  // to the same offset in every CTA of the cluster, each completing on its
  // own mbarrier at `bar`'s offset. Everything is checked before a cluster
  // is taken; the copies hold no bytes until then (a failure abandons this
  // frame, which must own no memory).
  uint32_t first = multicast ? 0 : rank, last = multicast ? cluster.size() : rank + 1;
  std::array<AsyncCopy, kMaxClusterCtas> copies;
  for (uint32_t r = first; r < last; ++r) {
    CtaRunner &target = cluster.member(r);
    if (launch.kernel.usesBarriers && target.liveThreads == 0)
      fail(t, what, [&] {
        return "CTA " + dim3Text(target.ctaid) + " (rank " + std::to_string(r) +
               ") of the cluster has exited: a try_cancel with .multicast::cluster::all is "
               "undefined then (PTX ISA)";
      });
    copies[r] = target.clcResponseCopy(t, response, bar, what);
  }
  std::optional<uint64_t> canceled = cluster.cancelPending();
  B128 value = clcResponse(canceled ? std::optional(cluster.firstCtaOf(*canceled)) : std::nullopt);
  for (uint32_t r = first; r < last; ++r) {
    copies[r].image.resize(16);
    std::memcpy(copies[r].image.data(), &value, 16);
    cluster.member(r).addAsyncCopy(t, std::move(copies[r]));
  }
}

bool CtaRunner::clcIsCanceled(Thread &t, const B128 &response, const char *what) {
  bool canceled = false;
  Dim3 firstCta;
  failIf(t, what, decodeClcResponse(response, canceled, firstCta));
  if (!canceled)
    clcFailureObserved = true;
  return canceled;
}

Dim3 CtaRunner::clcFirstCtaid(Thread &t, const B128 &response, const char *what) {
  bool canceled = false;
  Dim3 firstCta;
  failIf(t, what, decodeClcResponse(response, canceled, firstCta));
  if (!canceled)
    fail(t, what, [] {
      return std::string("get_first_ctaid of a response that canceled no cluster: its result is "
                         "undefined (PTX ISA); ask query_cancel.is_canceled first");
    });
  return firstCta;
}

// Thread's entry points.

void Thread::clcTryCancel(uint32_t response, uint32_t bar, bool multicast, const char *what) {
  cta->clcTryCancel(*this, response, bar, multicast, what);
  cta->schedulingPoint(*this);
}

bool Thread::clcIsCanceled(const B128 &response, const char *what) {
  return cta->clcIsCanceled(*this, response, what);
}

Dim3 Thread::clcFirstCtaid(const B128 &response, const char *what) {
  return cta->clcFirstCtaid(*this, response, what);
}

} // namespace cutec::rt
