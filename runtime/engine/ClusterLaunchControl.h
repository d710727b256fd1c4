// Cluster launch control (sm_100a, PTX `clusterlaunchcontrol`): a running
// cluster cancels the launch of one that has not started and does its work.
//
// The emulated GPU runs at most `slots` clusters at once (one CTA per SM:
// LaunchConfig::multiprocessors / CTAs per cluster, at least one). Cluster i
// belongs to slot i % slots, and each slot starts its clusters in order, the
// next one when the previous has ended. `try_cancel` takes the next cluster
// of the issuer's own slot that has not started, so that it never runs; the
// hardware may cancel any cluster that has not started, and this choice is
// one it could make that keeps every slot's work independent of the others',
// so runs do not depend on the number of worker threads.
//
// The response is 16 bytes that PTX leaves opaque. The emulator writes the
// canceled cluster's first CTA id in words 0-2 and a tag in word 3 (see
// clcResponse), so that `query_cancel` can tell a response from other bytes.
#pragma once

#include "runtime/base/Kernel.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cutec::rt {

/// A .b128 register (ld.shared.b128, the query_cancel operand): 16 bytes,
/// word 0 at the lowest address.
struct B128 {
  uint32_t word[4];
};

/// The clusters of a launch that have not started, slot by slot.
class PendingClusters {
public:
  PendingClusters(uint64_t clusters, uint64_t slots);

  uint64_t slots() const { return next.size(); }
  /// Takes the next cluster of `slot` that has not started: the one the
  /// slot runs next, or the one a try_cancel issued in the slot cancels;
  /// none when the slot has no cluster left. Only the worker running the
  /// slot calls it.
  std::optional<uint64_t> take(uint64_t slot);

private:
  uint64_t clusters;
  std::vector<uint64_t> next; // per slot
};

/// The response of a try_cancel that canceled the cluster whose first CTA
/// is `firstCta`, or that canceled none.
B128 clcResponse(std::optional<Dim3> firstCta);

/// Decodes a response: "" with `canceled` and `firstCta` set, or why `r` is
/// not a response a try_cancel wrote.
std::string decodeClcResponse(const B128 &r, bool &canceled, Dim3 &firstCta);

} // namespace cutec::rt
