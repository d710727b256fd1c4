//===- Licm.cpp - Hoist loop-invariant computations out of loops ----------===//
//
// An operation in the body of a run-time `for` or `while` loop that is pure
// (arith, conversions, the thread and grid indices; no memory, no warp
// collective, no region) and whose operands are all defined outside the
// loop computes the same value in every iteration: it moves in front of the
// loop, and so do those that then use only such values. Loops are visited
// innermost first, so an invariant climbs out of every loop it does not
// depend on. The address arithmetic lower-indexing emits for tensors whose
// layouts hold the dynamic sizes (a scale-factor tile over (M, K, L), say)
// is where it matters: divisions by those sizes leave the loop.
//
// A pure operation computes the same result wherever it runs, and a loop
// that runs no iteration only lets the hoisted value go unused, so no
// result changes. (An integer division by zero has a defined result in the
// emulation and on the GPU, and traps in neither.)
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "ir/core/Builder.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace cutec {
namespace {

using namespace ir;

/// Moves the invariant operations of `loop`'s regions in front of it.
void hoist(Operation &loop) {
  // Values defined inside the loop: block arguments and results of the ops
  // in its regions, at any depth.
  llvm::SmallPtrSet<const Value *, 32> inside;
  auto addBlockArguments = [&](Operation &op) {
    for (auto &region : op.regions())
      for (auto &block : region->blocks())
        for (const auto &arg : block->arguments())
          inside.insert(arg.get());
  };
  addBlockArguments(loop);
  walk(loop, [&](Operation &nested) {
    for (const auto &r : nested.results())
      inside.insert(r.get());
    addBlockArguments(nested);
  });
  // Only the loop's own blocks: an op in a nested if may not run at all.
  std::vector<Operation *> invariant;
  for (auto &region : loop.regions())
    for (auto &block : region->blocks())
      for (auto &op : block->operations()) {
        if (!isPure(op->kind()) || !op->regions().empty() || op->results().empty())
          continue;
        bool dependsOnLoop = llvm::any_of(op->operands(), [&](Value *v) {
          return inside.contains(v);
        });
        if (dependsOnLoop)
          continue;
        invariant.push_back(op.get());
        for (const auto &r : op->results())
          inside.erase(r.get());
      }
  for (Operation *op : invariant)
    moveBefore(*op, loop);
}

class LicmPass : public Pass {
public:
  llvm::StringRef name() const override { return "licm"; }
  void run(Operation &kernel, PassContext &) override {
    // walk visits an op before the ops of its regions: collect, then go
    // backwards so inner loops come first.
    std::vector<Operation *> loops;
    walk(kernel, [&](Operation &op) {
      if (op.kind() == OpKind::For || op.kind() == OpKind::While)
        loops.push_back(&op);
    });
    for (auto it = loops.rbegin(); it != loops.rend(); ++it)
      hoist(**it);
  }
};

} // namespace

std::unique_ptr<Pass> createLicmPass() { return std::make_unique<LicmPass>(); }

} // namespace cutec
