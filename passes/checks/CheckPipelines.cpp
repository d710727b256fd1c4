//===- CheckPipelines.cpp - Compile-time checks of barriers and TMEM ------===//
//
// Pass check-pipelines finds the synchronisation mistakes that can be
// decided from the kernel alone, since block and cluster shapes are static:
// mbarrier arrival counts and transaction bytes (pipelines and raw
// mbarriers alike), CTAs outside the cluster, named-barrier thread counts,
// phase parities of waits in loops, and tensor-memory columns shared by an
// accumulator and scale factors. It runs after pipeline-tx (whose byte
// counts it checks in context) and changes nothing. The checks are in
// PipelineChecks.h; where a condition depends on what only the run knows,
// they say nothing, and the emulator's schedules take over.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "passes/checks/PipelineChecks.h"

namespace cutec {
namespace {

class CheckPipelinesPass : public Pass {
public:
  llvm::StringRef name() const override { return "check-pipelines"; }

  void run(ir::Operation &kernel, PassContext &context) override {
    ThreadReach reach(kernel);
    checkMbarriers(kernel, reach, context);
    checkNamedBarriers(kernel, reach, context);
    checkWaitParity(kernel, reach, context);
    checkTmemColumns(kernel, context);
  }
};

} // namespace

std::unique_ptr<Pass> createCheckPipelinesPass() { return std::make_unique<CheckPipelinesPass>(); }

} // namespace cutec
