//===- VerifyUniformity.cpp - Collectives reached by whole warps ----------===//
//
// Some instructions must be executed by a whole group of threads together:
// all 32 lanes of a warp execute elect.sync, shfl.sync, the named barriers
// (bar.sync / bar.arrive are .aligned) and the tcgen05 warp instructions
// (alloc, dealloc, relinquish_alloc_permit, ld, st), and all warps of a
// warpgroup (four warps, 128 threads) execute setmaxnreg. This pass proves,
// for each of them, that every condition around it (`if` conditions, loop
// bounds) has one value in each such group, and reports the instruction
// otherwise, with a note at the condition and one where its variation comes
// from.
//
// The analysis gives every value a *granule*: a power of two G such that
// the value is the same for the threads of each aligned group of G
// consecutive linear thread indices (tid.x + tid.y * ntid.x + ...). A
// warp-uniform value has a granule of at least 32, a warpgroup-uniform one
// of at least 128. Constants, block_idx(), the kernel's sizes and
// parameters are uniform over the CTA; warp_idx() has granule 32;
// thread_idx() along the block's only non-trivial dimension has granule 1,
// and lane_idx(), elect_one(), shuffles and tensor-memory loads vary per
// lane. Most operations take the smallest granule of their operands (a load
// from a uniform address gives a uniform value). Thread and warp indices are
// tracked further as `floor(tid / scale) + offset`, so that dividing them
// by a power of two (warp_idx() // 4: granule 128) and comparing them with a
// constant keep what the comparison allows: `warp_idx() < 4` is the same
// for the four warps of each warpgroup, `warp_idx() == 4` is not,
// `thread_idx().x < 128` is warpgroup-uniform. Values carried through loops
// and `if`s take the granules of everything that reaches them (a fixed
// point), and of the conditions that decide which value reaches them.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <limits>

namespace cutec {
namespace {

using namespace ir;

constexpr int64_t kUniform = std::numeric_limits<int64_t>::max();
constexpr int64_t kWarp = 32, kWarpgroup = 128;

/// What the analysis knows of a value.
struct Fact {
  int64_t granule = kUniform;
  /// The value is floor(linear thread index / scale) + offset (scale 0: no
  /// such form).
  int64_t scale = 0, offset = 0;
  /// The operation its variation comes from (null when uniform).
  const Operation *origin = nullptr;

  bool operator==(const Fact &o) const {
    return granule == o.granule && scale == o.scale && offset == o.offset && origin == o.origin;
  }
  static Fact index(int64_t scale, const Operation &origin) {
    return Fact{scale, scale, 0, &origin};
  }
  static Fact varying(int64_t granule, const Operation &origin) {
    return Fact{granule, 0, 0, granule == kUniform ? nullptr : &origin};
  }
};

/// The coarser-grained of the two, as a value that may be either.
Fact meet(const Fact &a, const Fact &b) {
  if (a == b)
    return a;
  const Fact &finer = b.granule < a.granule ? b : a;
  return Fact{finer.granule, 0, 0, finer.origin};
}

int64_t lowestBit(int64_t n) { return n & -n; }
bool isPowerOfTwo(int64_t n) { return n > 0 && lowestBit(n) == n; }

const int64_t *constantInt(const Value *v) {
  const Operation *def = v->definingOp();
  return def && def->kind() == OpKind::Constant ? def->get<int64_t>(attr::value) : nullptr;
}

/// What must reach an operation together: a warp (32) or a warpgroup (128),
/// and how messages name the operation; {0, ""} for the others.
struct Requirement {
  int64_t group;
  const char *what;
};

Requirement requirement(const Operation &op) {
  switch (op.kind()) {
  case OpKind::SetMaxNRegInc:
    return {kWarpgroup, "setmaxnreg.inc"};
  case OpKind::SetMaxNRegDec:
    return {kWarpgroup, "setmaxnreg.dec"};
  case OpKind::ElectOne:
    return {kWarp, "elect_one()"};
  case OpKind::WarpSync:
    return {kWarp, "sync_warp()"};
  case OpKind::Shuffle:
    return {kWarp, llvm::StringSwitch<const char *>(*op.get(attr::mode))
                       .Case("up", "shuffle_sync_up")
                       .Case("down", "shuffle_sync_down")
                       .Case("bfly", "shuffle_sync_bfly")
                       .Default("shuffle_sync")};
  case OpKind::BarrierArrive:
    return {kWarp, "the NamedBarrier's bar.arrive"};
  case OpKind::BarrierSync:
    // sync_threads() (no thread count) waits for the CTA's threads that
    // have not exited; the emulator reports the ones that never come.
    return op.has(attr::threads) ? Requirement{kWarp, "the NamedBarrier's bar.sync"}
                                 : Requirement{0, ""};
  case OpKind::TmemAlloc:
    return {kWarp, "tmem_alloc"};
  case OpKind::TmemDealloc:
    return {kWarp, "tmem_dealloc"};
  case OpKind::TmemRelinquish:
    return {kWarp, "tmem_relinquish_alloc_permit"};
  case OpKind::TmemLoad:
    return {kWarp, "tmem_load"};
  case OpKind::TmemStore:
    return {kWarp, "tmem_store"};
  case OpKind::Tcgen05WaitLd:
    return {kWarp, "fence_view_async_tmem_load"};
  case OpKind::Tcgen05WaitSt:
    return {kWarp, "fence_view_async_tmem_store"};
  default:
    return {0, ""};
  }
}

/// How a note names the source of a value's variation.
std::string originText(const Operation &op) {
  switch (op.kind()) {
  case OpKind::ThreadIdx:
    return "thread_idx()";
  case OpKind::WarpIdx:
    return "warp_idx()";
  case OpKind::LaneIdx:
    return "lane_idx()";
  case OpKind::ElectOne:
    return "elect_one()";
  case OpKind::Shuffle:
    return "shuffle_sync_" + *op.get(attr::mode) + "()";
  case OpKind::Atomic:
    return "atomic_" + *op.get(attr::op) + "()";
  case OpKind::TmemLoad:
    return "tmem_load()";
  default:
    return "'" + name(op.kind()).str() + "'";
  }
}

/// A condition around the operations being visited: an `if` and its
/// condition's fact, or a `for` and its bounds'.
struct Control {
  const Operation *op;
  Fact fact;
};

class UniformityAnalysis {
public:
  UniformityAnalysis(Operation &kernel, PassContext &context) : kernel(kernel), context(context) {
    if (const IntTuple *b = kernel.get(attr::block))
      for (size_t d = 0; d < 3 && d < b->rank(); ++d)
        block[d] = (*b)[d].leaf().staticValue();
  }

  void run() {
    // Facts only get finer, over finitely many granules: a fixed point.
    do {
      changed = false;
      visitBlock(kernel.regions()[0]->front());
    } while (changed);
    std::vector<Control> controls;
    check(kernel.regions()[0]->front(), controls);
  }

private:
  int64_t threads() const { return block[0] * block[1] * block[2]; }

  Fact fact(const Value *v) const {
    auto it = facts.find(v);
    return it == facts.end() ? Fact{} : it->second;
  }

  void set(const Value *v, const Fact &f) {
    // A granule that covers the CTA is uniform.
    Fact g = f.granule >= threads() && f.scale == 0 ? Fact{} : f;
    auto [it, inserted] = facts.try_emplace(v, g);
    if (!inserted && !(it->second == g)) {
      it->second = g;
      changed = true;
    }
  }

  /// Merges `f` into what `v` already has (values with several sources).
  void join(const Value *v, const Fact &f) {
    auto it = facts.find(v);
    set(v, it == facts.end() ? f : meet(it->second, f));
  }

  /// A loop runs as often as its bounds say: lo, hi and step.
  Fact loopBounds(const Operation &loop) const {
    return meet(meet(fact(loop.operand(0)), fact(loop.operand(1))), fact(loop.operand(2)));
  }

  Fact operandsMeet(const Operation &op) const {
    Fact f;
    for (const Value *v : op.operands())
      f = meet(f, fact(v));
    return f;
  }

  void visitBlock(const Block &b) {
    for (const auto &op : b.operations())
      visit(*op);
  }

  void visit(const Operation &op) {
    switch (op.kind()) {
    case OpKind::If: {
      Fact cond = fact(op.operand(0));
      for (const auto &region : op.regions()) {
        visitBlock(region->front());
        yieldInto(op, region->front(), cond);
      }
      return;
    }
    case OpKind::For: {
      Fact bounds = loopBounds(op);
      const Block &body = op.regions()[0]->front();
      join(body.argument(0), bounds);
      for (size_t i = 3; i < op.operands().size(); ++i) {
        join(body.argument(unsigned(i - 2)), meet(fact(op.operand(unsigned(i))), bounds));
        join(op.result(unsigned(i - 3)), meet(fact(op.operand(unsigned(i))), bounds));
      }
      visitBlock(body);
      const Operation *yield = body.terminator();
      for (size_t i = 0; yield && i < yield->operands().size(); ++i) {
        join(body.argument(unsigned(i + 1)), meet(fact(yield->operand(unsigned(i))), bounds));
        join(op.result(unsigned(i)), meet(fact(yield->operand(unsigned(i))), bounds));
      }
      return;
    }
    default:
      break;
    }
    if (op.results().empty())
      return;
    set(op.result(), transfer(op));
    for (size_t i = 1; i < op.results().size(); ++i)
      set(op.result(unsigned(i)), fact(op.result()));
  }

  /// The values an `if` region yields reach the `if`'s results.
  void yieldInto(const Operation &op, const Block &region, const Fact &cond) {
    const Operation *yield = region.terminator();
    for (size_t i = 0; yield && i < yield->operands().size() && i < op.results().size(); ++i)
      join(op.result(unsigned(i)), meet(fact(yield->operand(unsigned(i))), cond));
  }

  Fact transfer(const Operation &op) const {
    switch (op.kind()) {
    case OpKind::ThreadIdx:
      return threadIndex(op);
    case OpKind::WarpIdx:
      return Fact::index(kWarp, op);
    case OpKind::LaneIdx:
    case OpKind::ElectOne:
    case OpKind::Shuffle:
    case OpKind::TmemLoad:
    case OpKind::Atomic:
      return Fact::varying(1, op);
    case OpKind::Add:
    case OpKind::Sub:
      return shifted(op);
    case OpKind::Div:
    case OpKind::ShiftRight:
      return divided(op);
    case OpKind::Cmp:
      return compared(op);
    default:
      return operandsMeet(op);
    }
  }

  /// thread_idx() along dimension d: an index when the dimensions below it
  /// are a power of two and none above it is larger than 1.
  Fact threadIndex(const Operation &op) const {
    const int64_t *dim = op.get(attr::dim);
    int64_t d = dim ? *dim : 0;
    if (block[d] == 1)
      return Fact{};
    int64_t below = 1, above = 1;
    for (int64_t i = 0; i < d; ++i)
      below *= block[i];
    for (int64_t i = d + 1; i < 3; ++i)
      above *= block[i];
    if (above == 1 && isPowerOfTwo(below))
      return Fact::index(below, op);
    return Fact::varying(lowestBit(below), op);
  }

  /// `index ± constant` stays an index.
  Fact shifted(const Operation &op) const {
    Fact a = fact(op.operand(0));
    const int64_t *c = constantInt(op.operand(1));
    if (!a.scale || !c)
      return operandsMeet(op);
    a.offset += op.kind() == OpKind::Add ? *c : -*c;
    return a;
  }

  /// `index // 2^k` and `index >> k`: an index of a coarser scale.
  Fact divided(const Operation &op) const {
    Fact a = fact(op.operand(0));
    const int64_t *c = constantInt(op.operand(1));
    if (!c)
      return operandsMeet(op);
    int64_t divisor = op.kind() == OpKind::ShiftRight ? (*c >= 0 && *c < 31 ? 1 << *c : 0) : *c;
    if (!a.scale || !isPowerOfTwo(divisor) || a.offset % divisor != 0)
      return Fact{a.granule, 0, 0, a.origin};
    return Fact{a.scale * divisor, a.scale * divisor, a.offset / divisor, a.origin};
  }

  /// `index < c` (and the other orders) changes only at thread c' = (c -
  /// offset) * scale: the same in aligned groups of c''s lowest set bit.
  /// `==`/`!=` change at both ends of one index value: granule `scale`.
  Fact compared(const Operation &op) const {
    const std::string *predicate = op.get(attr::predicate);
    bool swapped = !constantInt(op.operand(1)) && constantInt(op.operand(0));
    Fact a = fact(op.operand(swapped ? 1 : 0));
    const int64_t *c = constantInt(op.operand(swapped ? 0 : 1));
    if (!a.scale || !c || !predicate)
      return operandsMeet(op);
    std::string p = *predicate;
    if (swapped) // c < x is x > c
      p = p == "lt" ? "gt" : p == "gt" ? "lt" : p == "le" ? "ge" : p == "ge" ? "le" : p;
    if (p == "eq" || p == "ne")
      return Fact{a.granule, 0, 0, a.origin};
    // x < c and x >= c switch at index c, x <= c and x > c at c + 1.
    int64_t edge = *c - a.offset + (p == "le" || p == "gt" ? 1 : 0);
    if (edge <= 0 || edge >= (threads() + a.scale - 1) / a.scale)
      return Fact{}; // every thread is on one side
    return Fact{a.scale * lowestBit(edge), 0, 0, a.origin};
  }

  void check(const Block &b, std::vector<Control> &controls) {
    for (const auto &op : b.operations()) {
      checkOp(*op, controls);
      if (op->kind() != OpKind::If && op->kind() != OpKind::For)
        continue;
      controls.push_back(
          {op.get(), op->kind() == OpKind::If ? fact(op->operand(0)) : loopBounds(*op)});
      for (const auto &region : op->regions())
        check(region->front(), controls);
      controls.pop_back();
    }
  }

  void checkOp(const Operation &op, const std::vector<Control> &controls) {
    Requirement need = requirement(op);
    if (!need.group)
      return;
    std::string group = need.group == kWarp ? "lanes of a warp" : "warps of a warpgroup";
    if (op.kind() == OpKind::ElectOne || op.kind() == OpKind::Shuffle ||
        op.kind() == OpKind::WarpSync)
      if (threads() % kWarp)
        return context.error(op.loc(), std::string(need.what) +
                                           " works on all 32 lanes of a warp, but the block's " +
                                           std::to_string(threads()) + " threads leave warp " +
                                           std::to_string(threads() / kWarp) + " with " +
                                           std::to_string(threads() % kWarp) + " lanes");
    // The innermost condition that may differ within the group.
    for (auto it = controls.rbegin(); it != controls.rend(); ++it) {
      if (it->fact.granule >= need.group)
        continue;
      context.error(op.loc(), std::string(need.what) + " must be executed by all " + group +
                                  " together, but it is under a condition that may differ "
                                  "between the " +
                                  group);
      bool loop = it->op->kind() == OpKind::For;
      context.note(it->op->loc(), std::string(loop ? "the bounds of this loop" : "this condition") +
                                      " may differ between the " + group);
      if (it->fact.origin)
        context.note(it->fact.origin->loc(), (loop ? "they depend on " : "it depends on ") +
                                                 originText(*it->fact.origin) + " here");
      return;
    }
  }

  Operation &kernel;
  PassContext &context;
  int64_t block[3] = {1, 1, 1};
  llvm::DenseMap<const Value *, Fact> facts;
  bool changed = false;
};

class VerifyUniformityPass : public Pass {
public:
  llvm::StringRef name() const override { return "verify-uniformity"; }
  void run(Operation &kernel, PassContext &context) override {
    UniformityAnalysis(kernel, context).run();
  }
};

} // namespace

std::unique_ptr<Pass> createVerifyUniformityPass() {
  return std::make_unique<VerifyUniformityPass>();
}

} // namespace cutec
