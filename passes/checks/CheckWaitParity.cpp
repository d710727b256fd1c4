//===- CheckWaitParity.cpp - Phase parities of mbarrier waits in loops ----===//
//
// mbarrier.try_wait.parity P returns once the phase of parity P has
// completed, that is at once unless the barrier's current phase has parity
// P. A loop that waits on a barrier which completes a phase every round
// (its arrivals or loads are in a loop too) must flip the parity from one
// wait on an element to the next: a constant parity, `k % 2` over a ring of
// four stages or a PipelineState that is never advanced make the second
// wait return at once, before the phase it stands for.
//
// The check runs the loop around each wait for a few rounds of the
// barrier's elements at compile time: the loop counter and the values the
// loop carries (a PipelineState's index and phase) from their starting
// values, the conditions around the wait, the element and the parity, all
// as ThreadReach evaluates them for a thread that reaches the wait. A value
// it cannot compute ends the run, and then nothing is said. A condition
// that is the same for every thread but not computable (a tile's validity)
// is taken to hold.
//
// The first wait on an element of a barrier that TMA loads complete on
// must wait for parity 0: parity 1 returns at once on a fresh barrier,
// before the bytes land (it is how a producer's first wait on an *empty*
// barrier passes).
//
//===----------------------------------------------------------------------===//
#include "passes/checks/PipelineChecks.h"

#include "passes/analysis/BarrierSites.h"

#include "llvm/ADT/DenseSet.h"

namespace cutec {

using namespace ir;

namespace {

bool isLoop(const Operation &op) { return op.kind() == OpKind::For || op.kind() == OpKind::While; }

/// The innermost loop around `op`, or null.
const Operation *enclosingLoop(const Operation &op) {
  for (const Operation *p = op.parentBlock()->parent()->parent(); p && p->kind() != OpKind::Kernel;
       p = p->parentBlock()->parent()->parent())
    if (isLoop(*p))
      return p;
  return nullptr;
}

/// One execution of a wait in the simulated loop.
struct Event {
  int64_t iteration, element, parity;
};

class ParityChecker {
public:
  ParityChecker(Operation &kernel, const ThreadReach &reach, PassContext &context)
      : reach(reach), context(context) {
    walk(kernel, [&](Operation &op) {
      const Value *bar = mbarrierOperand(op);
      const Operation *alloc = bar ? allocationOf(bar) : nullptr;
      if (!alloc)
        return;
      if (op.kind() == OpKind::MbarrierWait)
        waits.push_back(&op);
      else if (op.kind() != OpKind::MbarrierInit && enclosingLoop(op))
        reused.insert(alloc);
      if (op.kind() == OpKind::TmaLoad)
        loaded.insert(alloc);
    });
  }

  void run() {
    for (const Operation *wait : waits)
      check(*wait);
  }

private:
  void check(const Operation &wait) {
    const Operation *loop = enclosingLoop(wait);
    const llvm::BitVector *points = reach.reach(wait);
    const Operation *alloc = allocationOf(wait.operand(0));
    if (!loop || !points || points->none() || !reused.contains(alloc))
      return;
    int64_t elements = size(alloc->result()->type().tensorLayout()).staticValue();
    std::vector<Event> events;
    std::optional<int64_t> trips =
        simulate(*loop, wait, unsigned(points->find_first()), 2 * elements + 2, events);
    std::map<int64_t, Event> last;
    for (const Event &e : events) {
      auto it = last.find(e.element);
      if (it == last.end()) {
        last.emplace(e.element, e);
        if (e.parity == 1 && loaded.contains(alloc) && firstWaitOn(wait, *alloc, *points) &&
            !enclosingLoop(*loop)) {
          context.error(wait.loc(), "this first wait on " + element(*alloc, e) + " (in iteration " +
                                        std::to_string(e.iteration) +
                                        " of its loop) is for phase parity 1: it returns at "
                                        "once, before the loads that complete on the barrier "
                                        "land (the first phase has parity 0)");
          return;
        }
        continue;
      }
      if (it->second.parity != e.parity) {
        it->second = e;
        continue;
      }
      report(wait, trips, e.iteration,
             "this wait on " + element(*alloc, e) + " uses phase parity " +
                 std::to_string(e.parity) + " in iterations " +
                 std::to_string(it->second.iteration) + " and " + std::to_string(e.iteration) +
                 " of its loop, but the barrier completes a phase every round: the second wait "
                 "returns at once (the parity must alternate from one wait to the next)");
      return;
    }
  }

  /// "'ab.full' stage 0" for a pipeline's barriers, "mbarrier element 0"
  /// for others.
  static std::string element(const Operation &alloc, const Event &e) {
    std::string name = barrierName(alloc);
    return (name.empty() ? "mbarrier element " : name.substr(1) + " stage ") +
           std::to_string(e.element);
  }

  /// An error when the loop certainly runs that many iterations, else a
  /// warning.
  void report(const Operation &wait, std::optional<int64_t> trips, int64_t iteration,
              const std::string &message) {
    if (trips && *trips > iteration)
      context.error(wait.loc(), message);
    else
      context.warning(wait.loc(), message + ", if the loop runs " + std::to_string(iteration + 1) +
                                      " times or more");
  }

  /// Whether no other wait on the allocation may come before `wait` for
  /// its threads.
  bool firstWaitOn(const Operation &wait, const Operation &alloc, const llvm::BitVector &points) {
    for (const Operation *other : waits) {
      if (other == &wait || allocationOf(other->operand(0)) != &alloc)
        continue;
      const llvm::BitVector *theirs = reach.reach(*other);
      if (!theirs || theirs->anyCommon(points))
        return false;
    }
    return true;
  }

  /// Whether the conditions between `op` and the body of `loop` hold.
  std::optional<bool> executes(const Operation &op, const Operation &loop, unsigned point,
                               const ThreadReach::Bindings &bindings) {
    for (const Operation *p = op.parentBlock()->parent()->parent(); p != &loop;
         p = p->parentBlock()->parent()->parent()) {
      if (p->kind() != OpKind::If)
        return std::nullopt;
      const llvm::BitVector *among = reach.reach(*p);
      std::optional<int64_t> c =
          among ? reach.evaluate(p->operand(0), point, *among, &bindings) : std::nullopt;
      bool thenBranch = isInside(op, *p->regions()[0]);
      if (!c) {
        if (reach.varies(p->operand(0)))
          return std::nullopt;
        continue;
      }
      if ((*c != 0) != thenBranch)
        return false;
    }
    return true;
  }

  static bool isInside(const Operation &op, const Region &region) {
    for (const Operation *p = &op; p && p->parentBlock(); p = p->parentBlock()->parent()->parent())
      if (p->parentBlock()->parent() == &region)
        return true;
    return false;
  }

  /// The element of its array an mbarrier view names in this iteration.
  template <typename Eval>
  static std::optional<int64_t> elementIndex(const Value *bar, Eval &eval) {
    if (const Value *index = barrierIndex(bar))
      return eval(index);
    std::string fixed = barrierElement(bar);
    if (fixed == "*" || fixed.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return std::stoll(fixed);
  }

  /// Runs `loop` for up to `rounds` iterations, recording each execution
  /// of `wait`; returns the loop's trip count when it is known.
  std::optional<int64_t> simulate(const Operation &loop, const Operation &wait, unsigned point,
                                  int64_t rounds, std::vector<Event> &events) {
    const llvm::BitVector &all = *reach.reach(wait);
    ThreadReach::Bindings bindings;
    auto eval = [&](const Value *v) { return reach.evaluate(v, point, all, &bindings); };
    auto bind = [&](const Value *arg, std::optional<int64_t> value) {
      if (value)
        bindings[arg] = *value;
      else
        bindings.erase(arg);
    };
    std::optional<int64_t> trips;
    const Block &body = loop.regions()[loop.kind() == OpKind::For ? 0 : 1]->front();
    std::optional<int64_t> lo, step;
    if (loop.kind() == OpKind::For) {
      lo = eval(loop.operand(0));
      step = eval(loop.operand(2));
      std::optional<int64_t> hi = eval(loop.operand(1));
      if (!lo || !step || *step <= 0)
        return std::nullopt;
      if (hi)
        trips = std::max<int64_t>(0, (*hi - *lo + *step - 1) / *step);
      for (size_t i = 3; i < loop.operands().size(); ++i)
        bind(body.argument(unsigned(i - 2)), eval(loop.operand(unsigned(i))));
    } else {
      const Block &before = loop.regions()[0]->front();
      for (size_t i = 0; i < loop.operands().size(); ++i)
        bind(before.argument(unsigned(i)), eval(loop.operand(unsigned(i))));
    }
    for (int64_t k = 0; k < rounds && (!trips || k < *trips); ++k) {
      if (loop.kind() == OpKind::For) {
        bindings[body.argument(0)] = *lo + k * *step;
      } else {
        const Operation *cond = loop.regions()[0]->front().terminator();
        if (!cond)
          return trips;
        for (size_t i = 1; i < cond->operands().size(); ++i)
          bind(body.argument(unsigned(i - 1)), eval(cond->operand(unsigned(i))));
      }
      std::optional<bool> runs = executes(wait, loop, point, bindings);
      if (!runs)
        return trips;
      if (*runs) {
        std::optional<int64_t> e = elementIndex(wait.operand(0), eval);
        std::optional<int64_t> parity = eval(wait.operand(1));
        if (!e || !parity)
          return trips;
        events.push_back({k, *e, *parity & 1});
      }
      const Operation *yield = body.terminator();
      if (!yield)
        return trips;
      llvm::SmallVector<std::optional<int64_t>, 8> next;
      for (const Value *v : yield->operands())
        next.push_back(eval(v));
      const Block &carried = loop.kind() == OpKind::For ? body : loop.regions()[0]->front();
      unsigned first = loop.kind() == OpKind::For ? 1 : 0;
      for (size_t i = 0; i < next.size(); ++i)
        bind(carried.argument(unsigned(first + i)), next[i]);
    }
    return trips;
  }

  const ThreadReach &reach;
  PassContext &context;
  std::vector<const Operation *> waits;
  llvm::DenseSet<const Operation *> reused, loaded;
};

} // namespace

void checkWaitParity(Operation &kernel, const ThreadReach &reach, PassContext &context) {
  ParityChecker(kernel, reach, context).run();
}

} // namespace cutec
