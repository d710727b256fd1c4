// IRGenPipeline: the IRGen domain (IRGen::pipelines()) of CuTe DSL's pipelines:
// CooperativeGroup, PipelineState and the Pipeline*.create objects with their
// producer and consumer methods.
#ifndef CUTEC_FRONTEND_IRGEN_IRGENPIPELINE_H
#define CUTEC_FRONTEND_IRGEN_IRGENPIPELINE_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenPipeline : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  SemaValue cooperativeGroup(CallSite &site);
  SemaValue makePipelineState(CallSite &site);
  SemaValue pipelineStateAdvance(CallSite &site);
  SemaValue pipelineStateResetCount(CallSite &site);
  SemaValue createPipeline(CallSite &site);
  SemaValue pipelineProducerAcquire(CallSite &site);
  SemaValue pipelineProducerCommit(CallSite &site);
  SemaValue pipelineProducerGetBarrier(CallSite &site);
  SemaValue pipelineProducerTail(CallSite &site);
  SemaValue pipelineConsumerWait(CallSite &site);
  SemaValue pipelineConsumerRelease(CallSite &site);
  const SemaValue *pipelineStateArgument(CallSite &site);
  void waitStage(const SemaValue &barriers, const SemaValue &state, llvm::SMLoc loc);
  void commitStage(const SemaValue &pipeline, ir::Value *bar, CallSite &site);
  ir::Value *stageBarrier(const SemaValue &barriers, const SemaValue &index, llvm::SMLoc loc);
  /// `a + c` or `a ^ c` on an i32 (folded when `a` is compile-time).
  SemaValue pipelineArith(ir::OpKind kind, const SemaValue &a, int64_t c, llvm::SMLoc loc);
  ir::Value *equalsConstant(ir::Value *v, int64_t c, llvm::SMLoc loc);
  /// A run-time `if condition:` whose then-block `body` fills.
  void emitIf(ir::Value *condition, llvm::SMLoc loc, llvm::function_ref<void()> body);
  ir::Value *firstThreadOfCta(llvm::SMLoc loc);
  ir::Value *isPairLeader(llvm::SMLoc loc);
  ir::Value *electOne(CallSite &site);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENPIPELINE_H
