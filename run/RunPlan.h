//===- RunPlan.h - Everything `cutec run` checks before it compiles -------===//
//
// A run is planned, then launched. The plan binds the sizes, evaluates the
// grid and block, reads or allocates each tensor and packs the parameter
// struct, so every mistake on the command line is reported before the
// emulation is compiled (about a second) or run.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_RUNPLAN_H
#define CUTEC_TOOLS_RUNPLAN_H

#include "run/RunCommand.h"
#include "run/RunTensors.h"

#include "runtime/engine/Launch.h"

namespace cutec {

struct RunPlan {
  const ir::Operation *kernel = nullptr;
  std::string kernelName;
  rt::LaunchConfig config;
  std::vector<TensorBuffer> tensors;
  /// The `<kernel>_Params` struct (see RunParams.h).
  std::vector<uint64_t> params;
  size_t paramsSize = 0;
  /// The schedules to run under (RunOptions::schedules, seed).
  uint32_t schedules = 1;
  uint64_t seed = 0;
};

/// The plan for running the kernel `options` selects from `module`.
llvm::Expected<RunPlan> planRun(const ir::Module &module, const RunOptions &options);

/// Runs `plan` with the compiled `kernel`; the runtime's report (an access
/// out of bounds, a deadlock) is the error.
/// Runs the plan; gives the number of schedules that ran (all agreeing).
llvm::Expected<uint32_t> launchPlan(const RunPlan &plan, const rt::KernelDescriptor &kernel);

} // namespace cutec

#endif
