//===- PipelineTx.cpp - The bytes a TMA pipeline stage expects ------------===//
//
// A stage of a TMA pipeline (PipelineTmaUmma, PipelineTmaAsync) completes
// when its producer has arrived with `mbarrier.arrive.expect_tx` and the TMA
// loads of the stage have delivered the bytes it expects. The pipeline's producer_acquire emits
// that expect_tx (IRGenPipeline.cpp) with the attribute `pipeline_tx` and a placeholder
// count, or `pipeline_tx_declared` with the tx_count= the kernel gave. This pass sums the bytes of
// the TMA loads that complete on the same barrier array, as they arrive at the barrier the
// expect_tx is on, and writes the sum into the placeholder or reports a declared count that
// differs, with a note at each load.
//
// Which loads are a stage's: those that follow its expect_tx in program
// order, up to the next expect_tx on the same barriers, so that a ring
// whose stages receive different tiles in turn (K, then V) has each
// acquire's own bytes. Where an expect_tx has no load after it that way
// (loads issued before the acquire, or elsewhere), every load on the
// barriers counts for every stage.
//
// What a load brings to its stage's barrier: its box's bytes, once per
// destination CTA of a multicast (each copy completes its own bytes), and
// twice for `cta_group=2`, whose loads of both CTAs of the pair complete on
// the leader's barrier. So the sum assumes, as the pair and multicast
// examples do, that every CTA of a pair (or multicast group) issues the
// same loads; a multicast mask known only at run time cannot be summed, and
// then tx_count= must be given.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "passes/analysis/BarrierSites.h"

#include "ir/core/Builder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/bit.h"

namespace cutec {
namespace {

using namespace ir;

class PipelineTxPass : public Pass {
public:
  llvm::StringRef name() const override { return "pipeline-tx"; }

  void run(Operation &kernel, PassContext &context) override {
    llvm::DenseMap<const Operation *, std::vector<Operation *>> loadsByBarriers;
    llvm::DenseMap<const Operation *, std::vector<Operation *>> loadsAfter;
    llvm::DenseMap<const Operation *, Operation *> lastExpect;
    std::vector<Operation *> expects;
    walk(kernel, [&](Operation &op) {
      if (op.kind() == OpKind::MbarrierExpectTx && isPipelineExpect(op)) {
        expects.push_back(&op);
        if (const Operation *barriers = allocationOf(op.operand(0)))
          lastExpect[barriers] = &op;
      }
      if (op.kind() != OpKind::TmaLoad)
        return;
      if (const Operation *barriers = allocationOf(op.operand(2))) {
        loadsByBarriers[barriers].push_back(&op);
        if (Operation *expect = lastExpect.lookup(barriers))
          loadsAfter[expect].push_back(&op);
      }
    });
    // Barrier arrays with an expect_tx that no load follows: every load counts.
    llvm::DenseSet<const Operation *> unordered;
    for (Operation *expect : expects)
      if (loadsAfter.lookup(expect).empty())
        unordered.insert(allocationOf(expect->operand(0)));
    for (Operation *expect : expects) {
      bool derive = expect->get(attr::pipelineTx) != nullptr;
      const Operation *barriers = allocationOf(expect->operand(0));
      const std::vector<Operation *> &loads = unordered.contains(barriers)
                                                  ? loadsByBarriers[barriers]
                                                  : loadsAfter[expect];
      std::optional<int64_t> sum = stageBytes(loads, *expect, context);
      if (!sum)
        continue;
      if (derive) {
        Builder b;
        b.setInsertionPoint(*expect);
        expect->setOperand(1, b.constantInt(expect->loc(), DataType::I32, *sum));
        continue;
      }
      int64_t declared = *intConstantOf(expect->operand(1));
      if (declared == *sum)
        continue;
      context.error(expect->loc(), "the pipeline expects tx_count=" + llvm::Twine(declared) +
                                       " bytes per stage, but the TMA loads that complete on "
                                       "its barriers bring " +
                                       llvm::Twine(*sum));
      for (const Operation *load : loads)
        context.note(load->loc(), "this load brings " + llvm::Twine(*loadBytes(*load, context)) +
                                      " bytes to the stage");
    }
  }

private:
  static bool isPipelineExpect(const Operation &expect) {
    return expect.get(attr::pipelineTx) || expect.get(attr::pipelineTxDeclared);
  }

  /// What one load brings to its stage's barrier, or nullopt (reported)
  /// when its multicast mask is not a compile-time constant.
  std::optional<int64_t> loadBytes(const Operation &load, PassContext &context) {
    int64_t copies = 1;
    if (load.operands().size() > 3) {
      std::optional<int64_t> mask = intConstantOf(load.operand(3));
      if (!mask) {
        context.error(load.loc(), "the bytes this multicast load brings to its pipeline stage "
                                  "depend on a run-time CTA mask; give the pipeline tx_count=");
        return std::nullopt;
      }
      copies = llvm::popcount(uint64_t(*mask) & 0xffff);
    }
    if (ctaGroupOf(load) == 2)
      copies *= 2;
    return tensorBytes(load.operand(1)->type()) * copies;
  }

  std::optional<int64_t> stageBytes(const std::vector<Operation *> &loads, const Operation &expect,
                                    PassContext &context) {
    if (loads.empty()) {
      context.error(expect.loc(), "no TMA load completes on this pipeline's barriers: pass "
                                  "producer_get_barrier(state) to the tma_load calls");
      return std::nullopt;
    }
    int64_t sum = 0;
    for (const Operation *load : loads) {
      std::optional<int64_t> bytes = loadBytes(*load, context);
      if (!bytes)
        return std::nullopt;
      sum += *bytes;
    }
    if (sum >= (1 << 20)) {
      context.error(expect.loc(), "a pipeline stage of " + llvm::Twine(sum) +
                                      " bytes is more than an mbarrier's tx-count holds (2^20-1)");
      return std::nullopt;
    }
    return sum;
  }
};

} // namespace

std::unique_ptr<Pass> createPipelineTxPass() { return std::make_unique<PipelineTxPass>(); }

} // namespace cutec
