// IRGenTileScheduler: the IRGen domain (IRGen::schedulers()) of persistent tile
// schedulers: the static one and the one driven by cluster launch control.
#ifndef CUTEC_FRONTEND_IRGEN_IRGENTILESCHEDULER_H
#define CUTEC_FRONTEND_IRGEN_IRGENTILESCHEDULER_H

#include "frontend/irgen/IRGenBase.h"

namespace cutec {

class IRGenTileScheduler : public IRGenBase {
public:
  using IRGenBase::IRGenBase;

  struct SchedulerArith;
  SemaValue tileSchedulerParams(CallSite &site);
  SemaValue createStaticScheduler(CallSite &site);
  SemaValue schedulerCurrentWork(CallSite &site);
  SemaValue schedulerAdvance(CallSite &site);
  /// The params object of `site`'s create call (argument 0) checked against
  /// `className` and the kernel's cluster shape; null after an error.
  const SemaValue *schedulerParams(CallSite &site, llvm::StringRef className);
  SemaValue createClcScheduler(CallSite &site);
  SemaValue clcSchedulerInitialWork(CallSite &site);
  SemaValue clcSchedulerCurrentWork(CallSite &site);
  SemaValue clcSchedulerAdvance(CallSite &site);
};

} // namespace cutec

#endif // CUTEC_FRONTEND_IRGEN_IRGENTILESCHEDULER_H
