//===- RunCommand.cpp - `cutec run`: plan, compile, launch, write ---------===//
#include "run/RunCommand.h"

#include "run/RunCompile.h"
#include "run/RunPlan.h"

#include "llvm/Support/WithColor.h"

namespace cutec {
namespace {

std::string dim3Text(const rt::Dim3 &d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

/// `--schedules N` on success: how many ran, and that they agreed.
std::string schedulesText(const RunOptions &options, uint32_t ran) {
  if (ran == 1)
    return "1 schedule ran: the kernel has no barriers, so its threads run one after another "
           "under every schedule";
  return std::to_string(ran) + " schedules ran (seeds " + std::to_string(options.seed) + " to " +
         std::to_string(options.seed + ran - 1) +
         ") and all wrote the same results as the fixed schedule (seed 0)";
}

llvm::Error run(const ir::Module &module, llvm::StringRef emulationCpp, const RunOptions &options,
                llvm::raw_ostream &out, llvm::raw_ostream &err) {
  llvm::Expected<RunPlan> plan = planRun(module, options);
  if (!plan)
    return plan.takeError();
  llvm::Expected<CompiledKernel> compiled =
      compileEmulation(emulationCpp, plan->kernelName, options.includeRoot, options.cache);
  if (!compiled)
    return compiled.takeError();
  llvm::Expected<uint32_t> ran = launchPlan(*plan, *compiled->descriptor);
  if (!ran)
    return ran.takeError();
  if (options.schedules > 1)
    err << "cutec run: " << schedulesText(options, *ran) << "\n";
  out << "ran " << plan->kernelName << ": grid " << dim3Text(plan->config.grid) << ", block "
      << dim3Text(plan->config.block);
  if (compiled->descriptor->cluster.volume() > 1)
    out << ", cluster " << dim3Text(compiled->descriptor->cluster);
  out << "\n";
  return writeOutputs(plan->tensors, out);
}

} // namespace

int runKernel(const ir::Module &module, llvm::StringRef emulationCpp, const RunOptions &options,
              llvm::raw_ostream &out, llvm::raw_ostream &err) {
  if (llvm::Error e = run(module, emulationCpp, options, out, err)) {
    llvm::WithColor::error(err, "cutec") << llvm::toString(std::move(e)) << "\n";
    return 1;
  }
  return 0;
}

} // namespace cutec
