//===- CheckMbarriers.cpp - Arrival counts and transaction bytes ----------===//
//
// A phase of an mbarrier completes when as many arrivals as mbarrier_init
// asked for have come and the transaction bytes that expect_tx announced
// have landed. Both are recomputed here from the kernel, pipelines and raw
// mbarriers alike (a pipeline's methods are the same operations), for each
// barrier element and each CTA of the cluster whose barrier it is:
//
// - arrivals: mbarrier_arrive and expect_tx (one per thread that reaches
//   them), umma_commit (one per issuing thread; on both CTAs of the pair
//   with cta_group=2), a remote mbarrier_arrive(cta=) on the CTA it names,
//   a pair's release on the leader's;
// - bytes: each TMA load's box, once per CTA a multicast delivers to, on
//   that CTA's barrier or its pair leader's with cta_group=2, and the 16
//   bytes of a cluster launch control answer.
//
// The model of a phase: a thread arrives once at each barrier operation it
// reaches, per phase; operations of one block between two mbarrier waits
// are one phase (a thread that arrives twice there arrives twice),
// and the phase a thread contributes most to is the one counted. So a
// producer's prologue and its loop body, or the two branches of an `if`,
// are separate phases, while the warps of different roles add up. Where a
// thread reaches TMA loads or expect_tx in more than one such place, bytes
// are not compared. A barrier indexed at run time (`full[s]`) is, for each
// thread, the element its index evaluates to there (`bars[warp_idx()]`),
// or every element of its array where the index is not known (a pipeline
// state's).
//
//===----------------------------------------------------------------------===//
#include "passes/checks/PipelineChecks.h"

#include "passes/analysis/BarrierSites.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/bit.h"

#include <functional>
#include <map>

namespace cutec {

using namespace ir;

std::string barrierName(const Operation &allocation) {
  const std::string *name = allocation.get(attr::name);
  return name ? " '" + *name + "'" : "";
}

namespace {

/// A barrier operation: the points that reach it (null: unknown) and the
/// phase it belongs to, the stretch of its block between two mbarrier
/// waits.
struct Site {
  Operation *op;
  const llvm::BitVector *points;
  std::pair<const Block *, unsigned> segment;
};

using SiteList = std::vector<Site>;

llvm::MapVector<const Operation *, SiteList> collectSites(Operation &kernel,
                                                          const ThreadReach &reach) {
  llvm::MapVector<const Operation *, SiteList> sites;
  std::function<void(Block &)> visit = [&](Block &b) {
    unsigned waits = 0;
    for (auto &op : b.operations()) {
      if (const Value *bar = mbarrierOperand(*op))
        if (const Operation *alloc = allocationOf(bar))
          sites[alloc].push_back({op.get(), reach.reach(*op), {&b, waits}});
      if (op->kind() == OpKind::MbarrierWait)
        ++waits;
      for (auto &region : op->regions())
        visit(region->front());
    }
  };
  visit(kernel.regions()[0]->front());
  return sites;
}

bool isArrival(OpKind kind) {
  return kind == OpKind::MbarrierArrive || kind == OpKind::MbarrierExpectTx ||
         kind == OpKind::UmmaCommit;
}

bool bringsBytes(OpKind kind) { return kind == OpKind::TmaLoad || kind == OpKind::ClcTryCancel; }

std::string plural(int64_t n, llvm::StringRef one, llvm::StringRef many) {
  return std::to_string(n) + " " + (n == 1 ? one : many).str();
}

class MbarrierChecker {
public:
  MbarrierChecker(const ThreadReach &reach, PassContext &context)
      : reach(reach), context(context) {}

  void run(Operation &kernel) {
    for (auto &[alloc, sites] : collectSites(kernel, reach)) {
      // Bytes sent outside the cluster are missing inside it: one error.
      bool bytesReported = checkClusterTargets(sites);
      std::vector<std::string> elements;
      for (const Site &s : sites) {
        std::string e = barrierElement(mbarrierOperand(*s.op));
        if (e != "*" && llvm::find(elements, e) == elements.end())
          elements.push_back(e);
      }
      if (elements.empty())
        elements.push_back("*");
      bool arrivalsReported = false;
      for (const std::string &e : elements) {
        SiteList element;
        for (const Site &s : sites) {
          std::string own = barrierElement(mbarrierOperand(*s.op));
          if (own == e || own == "*")
            element.push_back(s);
        }
        if (!arrivalsReported)
          arrivalsReported = checkArrivals(*alloc, element, e);
        if (!bytesReported)
          bytesReported = checkBytes(*alloc, element, e);
      }
    }
  }

private:
  int64_t ctas() const { return reach.ctas(); }
  int64_t rank(unsigned point) const { return reach.rankOf(point); }

  /// The CTAs on whose barrier an arrival of `point` at `s` counts.
  std::optional<llvm::SmallVector<int64_t, 2>> arrivalTargets(const Site &s, unsigned point) {
    int64_t own = rank(point);
    const Operation &op = *s.op;
    if (op.kind() == OpKind::MbarrierArrive && op.operands().size() > 1) {
      std::optional<int64_t> r = reach.evaluate(op.operand(1), point, *s.points);
      if (!r)
        return std::nullopt;
      return llvm::SmallVector<int64_t, 2>{*r};
    }
    if (ctaGroupOf(op) != 2 || op.kind() == OpKind::MbarrierExpectTx)
      return llvm::SmallVector<int64_t, 2>{own};
    int64_t leader = own & ~int64_t(1);
    if (op.kind() == OpKind::UmmaCommit)
      return llvm::SmallVector<int64_t, 2>{leader, leader + 1};
    return llvm::SmallVector<int64_t, 2>{leader};
  }

  /// The CTAs a load of `point` at `s` delivers its box to, each on the
  /// barrier of the CTA it names.
  std::optional<llvm::SmallVector<int64_t, 4>> byteTargets(const Site &s, unsigned point) {
    const Operation &op = *s.op;
    llvm::SmallVector<int64_t, 4> targets;
    if (op.kind() == OpKind::ClcTryCancel) {
      const bool *multicast = op.get(attr::multicast);
      for (int64_t d = 0; d < ctas(); ++d)
        if ((multicast && *multicast) || d == rank(point))
          targets.push_back(d);
      return targets;
    }
    llvm::SmallVector<int64_t, 4> dests{rank(point)};
    if (op.operands().size() > 3) {
      std::optional<int64_t> mask = reach.evaluate(op.operand(3), point, *s.points);
      if (!mask)
        return std::nullopt;
      dests.clear();
      for (int64_t d = 0; d < 16; ++d)
        if (*mask >> d & 1)
          dests.push_back(d);
    }
    for (int64_t d : dests)
      targets.push_back(ctaGroupOf(op) == 2 ? d & ~int64_t(1) : d);
    return targets;
  }

  /// A multicast mask or a remote arrival that names a CTA the cluster
  /// does not have; true when one did.
  bool checkClusterTargets(const SiteList &sites) {
    bool reported = false;
    for (const Site &s : sites) {
      bool multicast = s.op->kind() == OpKind::TmaLoad && s.op->operands().size() > 3;
      bool remote = s.op->kind() == OpKind::MbarrierArrive && s.op->operands().size() > 1;
      if (!s.points || !(multicast || remote))
        continue;
      const Value *target = s.op->operand(multicast ? 3 : 1);
      for (unsigned p : s.points->set_bits()) {
        std::optional<int64_t> v = reach.evaluate(target, p, *s.points);
        if (!v)
          break;
        int64_t outside = -1;
        if (multicast && (*v & 0xffff) >> ctas())
          outside = llvm::Log2_64(uint64_t(*v & 0xffff));
        else if (remote && (*v < 0 || *v >= ctas()))
          outside = *v;
        if (outside < 0)
          continue;
        context.error(s.op->loc(),
                      (multicast ? "the multicast mask " + std::to_string(*v) + " of CTA " +
                                       std::to_string(rank(p)) + " names CTA "
                                 : "CTA " + std::to_string(rank(p)) + " arrives on CTA ") +
                          std::to_string(outside) + ", outside its cluster of " +
                          plural(ctas(), "CTA", "CTAs"));
        reported = true;
        break;
      }
    }
    return reported;
  }

  /// Whether thread `point` of `s` uses barrier `element` (or "*", any).
  bool usesElement(const Site &s, unsigned point, const std::string &element) const {
    if (element == "*")
      return true;
    const Value *index = barrierIndex(mbarrierOperand(*s.op));
    if (!index)
      return true;
    std::optional<int64_t> i = reach.evaluate(index, point, *s.points);
    return !i || std::to_string(*i) == element;
  }

  /// Arrivals per phase on each CTA's barrier `element`, or nullopt when
  /// unknown.
  std::optional<std::vector<int64_t>> arrivals(const SiteList &sites, const std::string &element,
                                               const Site **first) {
    using Key = std::tuple<int64_t, unsigned, const Block *, unsigned>;
    std::map<Key, int64_t> perPhase;
    for (const Site &s : sites) {
      if (!isArrival(s.op->kind()))
        continue;
      if (!s.points)
        return std::nullopt;
      for (unsigned p : s.points->set_bits()) {
        if (!usesElement(s, p, element))
          continue;
        std::optional<llvm::SmallVector<int64_t, 2>> targets = arrivalTargets(s, p);
        if (!targets)
          return std::nullopt;
        for (int64_t r : *targets)
          if (r >= 0 && r < ctas())
            ++perPhase[{r, p, s.segment.first, s.segment.second}];
      }
      if (!*first)
        *first = &s;
    }
    std::map<std::pair<int64_t, unsigned>, int64_t> perThread;
    for (const auto &[key, n] : perPhase) {
      int64_t &most = perThread[{std::get<0>(key), std::get<1>(key)}];
      most = std::max(most, n);
    }
    std::vector<int64_t> counts(size_t(ctas()), 0);
    for (const auto &[key, n] : perThread)
      counts[size_t(key.first)] += n;
    return counts;
  }

  /// The arrival count every initialisation of the element sets, and the
  /// CTAs that initialise it.
  std::optional<std::pair<int64_t, llvm::BitVector>> initCount(const SiteList &sites,
                                                               const Site **init) {
    std::optional<int64_t> count;
    llvm::BitVector ranks(static_cast<unsigned>(ctas()));
    for (const Site &s : sites) {
      if (s.op->kind() != OpKind::MbarrierInit)
        continue;
      std::optional<int64_t> c = intConstantOf(s.op->operand(1));
      if (!s.points || !c || (count && *count != *c))
        return std::nullopt;
      count = c;
      *init = &s;
      for (unsigned p : s.points->set_bits())
        ranks.set(unsigned(rank(p)));
    }
    if (!count)
      return std::nullopt;
    return std::make_pair(*count, ranks);
  }

  /// Reports the first CTA whose arrivals differ from the count; true when
  /// it did.
  bool checkArrivals(const Operation &alloc, const SiteList &sites, const std::string &element) {
    const Site *init = nullptr, *first = nullptr;
    auto expected = initCount(sites, &init);
    auto counts = expected ? arrivals(sites, element, &first) : std::nullopt;
    if (!counts || !first)
      return false;
    for (int64_t r = 0; r < ctas(); ++r) {
      int64_t n = (*counts)[size_t(r)];
      if (!expected->second.test(unsigned(r)) || n == 0 || n == expected->first)
        continue;
      context.error(
          first->op->loc(),
          plural(n, "thread arrives", "threads arrive") + " on this mbarrier" + barrierName(alloc) +
              " in each phase" + inCta(r) + ", but it was initialised for " +
              plural(expected->first, "arrival", "arrivals") +
              (n < expected->first ? ": the phase never completes"
                                   : ": a phase completes before all of them have arrived"));
      context.note(init->op->loc(),
                   "mbarrier_init sets the count to " + std::to_string(expected->first) + " here");
      for (const Site &s : sites)
        if (&s != first && isArrival(s.op->kind()))
          context.note(s.op->loc(), "threads also arrive here");
      return true;
    }
    return false;
  }

  std::string inCta(int64_t r) const { return ctas() > 1 ? " of CTA " + std::to_string(r) : ""; }

  /// Compares the bytes expect_tx announces for each CTA's barrier with
  /// those its loads bring, unless a site's threads or a thread's phase are
  /// unknown; true when it reported.
  bool checkBytes(const Operation &alloc, const SiteList &sites, const std::string &element) {
    std::vector<int64_t> expected(size_t(ctas()), 0), delivered(size_t(ctas()), 0);
    std::map<const Operation *, std::vector<int64_t>> brought;
    llvm::DenseMap<unsigned, std::pair<const Block *, unsigned>> phaseOf;
    const Operation *expect = nullptr;
    for (const Site &s : sites) {
      OpKind kind = s.op->kind();
      if (kind != OpKind::MbarrierExpectTx && !bringsBytes(kind))
        continue;
      if (!s.points)
        return false;
      std::optional<int64_t> bytes =
          kind == OpKind::MbarrierExpectTx ? intConstantOf(s.op->operand(1))
          : kind == OpKind::TmaLoad ? std::optional<int64_t>(tensorBytes(s.op->operand(1)->type()))
                                    : std::optional<int64_t>(16);
      if (!bytes)
        return false;
      std::vector<int64_t> &mine = brought[s.op];
      mine.assign(size_t(ctas()), 0);
      for (unsigned p : s.points->set_bits()) {
        if (!usesElement(s, p, element))
          continue;
        auto [it, inserted] = phaseOf.try_emplace(p, s.segment);
        if (!inserted && it->second != s.segment)
          return false;
        if (kind == OpKind::MbarrierExpectTx) {
          expected[size_t(rank(p))] += *bytes;
          continue;
        }
        std::optional<llvm::SmallVector<int64_t, 4>> targets = byteTargets(s, p);
        if (!targets)
          return false;
        for (int64_t r : *targets)
          if (r >= 0 && r < ctas()) {
            delivered[size_t(r)] += *bytes;
            mine[size_t(r)] += *bytes;
          }
      }
      if (kind == OpKind::MbarrierExpectTx && !expect)
        expect = s.op;
    }
    for (int64_t r = 0; r < ctas(); ++r) {
      int64_t want = expected[size_t(r)], got = delivered[size_t(r)];
      if (!expect || want == 0 || want == got)
        continue;
      context.error(expect->loc(),
                    "this mbarrier" + barrierName(alloc) + " expects " + std::to_string(want) +
                        " transaction bytes per phase" + inCta(r) +
                        ", but the loads that complete on it bring " + std::to_string(got) +
                        (got < want ? ": the phase never completes"
                                    : ": the phase may complete before the last bytes land"));
      for (const Site &s : sites)
        if (bringsBytes(s.op->kind()) && brought[s.op][size_t(r)])
          context.note(s.op->loc(), "this load brings " + std::to_string(brought[s.op][size_t(r)]) +
                                        " bytes" + inCta(r));
      return true;
    }
    return false;
  }

  const ThreadReach &reach;
  PassContext &context;
};

} // namespace

void checkMbarriers(Operation &kernel, const ThreadReach &reach, PassContext &context) {
  MbarrierChecker(reach, context).run(kernel);
}

} // namespace cutec
