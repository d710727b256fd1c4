//===- CheckNamedBarriers.cpp - NamedBarrier thread counts ----------------===//
//
// A named barrier (bar.sync / bar.arrive id, count) completes a phase when
// `count` threads, whole warps, have arrived. Every warp that reaches one of
// its operations takes part in each phase (a warp arrives once per phase,
// docs/language.md "Named barriers"), so the warps that reach any of them,
// in each CTA, must make up the count: fewer and the barrier never
// completes, more and a phase completes early and the late warps complete
// the next one.
//
//===----------------------------------------------------------------------===//
#include "passes/checks/PipelineChecks.h"

#include "llvm/ADT/MapVector.h"

namespace cutec {

using namespace ir;

namespace {

struct Use {
  const Operation *op;
  int64_t threads;
};

void checkBarrier(int64_t id, const std::vector<Use> &uses, const ThreadReach &reach,
                  PassContext &context) {
  // Uses that disagree on the count are the emulator's to report.
  for (const Use &u : uses)
    if (u.threads != uses.front().threads)
      return;
  // The warps of each CTA that reach the barrier, CTA by CTA.
  const int64_t perCta = (reach.threadsPerCta() + 31) / 32;
  llvm::BitVector warps(unsigned(reach.ctas() * perCta));
  for (const Use &u : uses) {
    const llvm::BitVector *points = reach.reach(*u.op);
    if (!points)
      return;
    for (unsigned p : points->set_bits())
      warps.set(unsigned(reach.rankOf(p) * perCta + reach.threadOf(p) / 32));
  }
  for (int64_t r = 0; r < reach.ctas(); ++r) {
    int64_t n = 0;
    for (int64_t w = 0; w < perCta; ++w)
      n += warps.test(unsigned(r * perCta + w));
    int64_t expected = uses.front().threads;
    if (n == 0 || 32 * n == expected)
      continue;
    context.error(uses.front().op->loc(),
                  "NamedBarrier " + std::to_string(id) + " counts " + std::to_string(expected) +
                      " threads, but " + std::to_string(n) + (n == 1 ? " warp" : " warps") + " (" +
                      std::to_string(32 * n) + " threads) reach it" +
                      (32 * n < expected ? ": the barrier never completes"
                                         : ": a phase completes before all of them have arrived"));
    for (const Use &u : uses)
      if (u.op != uses.front().op)
        context.note(u.op->loc(), "it is also reached here");
    return;
  }
}

} // namespace

void checkNamedBarriers(Operation &kernel, const ThreadReach &reach, PassContext &context) {
  llvm::MapVector<int64_t, std::vector<Use>> byId;
  walk(kernel, [&](Operation &op) {
    if (op.kind() != OpKind::BarrierSync && op.kind() != OpKind::BarrierArrive)
      return;
    const int64_t *id = op.get(attr::barrier);
    const int64_t *threads = op.get(attr::threads);
    if (id && threads)
      byId[*id].push_back({&op, *threads});
  });
  for (const auto &[id, uses] : byId)
    checkBarrier(id, uses, reach, context);
}

} // namespace cutec
