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

llvm::Error run(const ir::Module &module, llvm::StringRef emulationCpp, const RunOptions &options,
                llvm::raw_ostream &out) {
  llvm::Expected<RunPlan> plan = planRun(module, options);
  if (!plan)
    return plan.takeError();
  llvm::Expected<CompiledKernel> compiled =
      compileEmulation(emulationCpp, plan->kernelName, options.includeRoot, options.cache);
  if (!compiled)
    return compiled.takeError();
  if (llvm::Error e = launchPlan(*plan, *compiled->descriptor))
    return e;
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
  if (llvm::Error e = run(module, emulationCpp, options, out)) {
    llvm::WithColor::error(err, "cutec") << llvm::toString(std::move(e)) << "\n";
    return 1;
  }
  return 0;
}

} // namespace cutec
