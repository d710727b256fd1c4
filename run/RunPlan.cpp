//===- RunPlan.cpp - Everything `cutec run` checks before it compiles -----===//
#include "run/RunPlan.h"

#include "ir/core/LaunchChecks.h"
#include "run/RunBuffers.h"
#include "run/RunParams.h"
#include "runtime/engine/ScheduleExploration.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace cutec {
namespace {

std::string kernelName(const ir::Operation &kernel) { return *kernel.get(ir::attr::name); }

llvm::Expected<const ir::Operation *> selectKernel(const ir::Module &module,
                                                   llvm::StringRef wanted) {
  std::vector<std::string> names;
  for (const auto &kernel : module.kernels()) {
    if (kernelName(*kernel) == wanted)
      return kernel.get();
    names.push_back(kernelName(*kernel));
  }
  if (names.empty())
    return llvm::createStringError("the file defines no kernel");
  std::string list = llvm::join(names, ", ");
  if (!wanted.empty())
    return llvm::createStringError("--kernel " + wanted + ": the file defines no kernel '" +
                                   wanted + "' (its kernels: " + list + ")");
  if (names.size() > 1)
    return llvm::createStringError("the file defines " + llvm::Twine(names.size()) + " kernels (" +
                                   list + "): choose one with --kernel");
  return module.kernels().front().get();
}

} // namespace

llvm::Expected<RunPlan> planRun(const ir::Module &module, const RunOptions &options) {
  RunPlan plan;
  llvm::Expected<const ir::Operation *> kernel = selectKernel(module, options.kernel);
  if (!kernel)
    return kernel.takeError();
  plan.kernel = *kernel;
  plan.kernelName = kernelName(**kernel);

  llvm::Expected<Assignments> defines = parseAssignments(options.sizes, "-D");
  if (!defines)
    return defines.takeError();
  llvm::Expected<Assignments> args = parseAssignments(options.args, "--arg");
  if (!args)
    return args.takeError();
  llvm::Expected<Assignments> outs = parseAssignments(options.outs, "--out");
  if (!outs)
    return outs.takeError();
  llvm::Expected<Assignments> buffers = parseAssignments(options.buffers, "--buffer");
  if (!buffers)
    return buffers.takeError();
  llvm::Expected<Assignments> addresses = parseAssignments(options.addresses, "--addresses");
  if (!addresses)
    return addresses.takeError();
  // --out of a --buffer is the buffer's; the others are the parameters'.
  Assignments parameterOuts;
  llvm::copy_if(*outs, std::back_inserter(parameterOuts),
                [&](const Assignment &a) { return !findAssignment(*buffers, a.name); });

  llvm::Expected<SizeBindings> sizes = bindDynamicSizes(**kernel, *defines);
  if (!sizes)
    return sizes.takeError();
  llvm::Expected<ScalarBindings> scalars = bindScalarParameters(**kernel, *defines);
  if (!scalars)
    return scalars.takeError();
  llvm::Expected<rt::Dim3> block = evaluateDim3(**kernel, "block", *sizes);
  if (!block)
    return block.takeError();
  if (options.sms < 1)
    return llvm::createStringError("--sms 0: a GPU has at least one SM");
  if (options.schedules == 0)
    return llvm::createStringError("--schedules 0: a run needs at least one schedule");
  SizeBindings launchSizes = *sizes;
  launchSizes[ir::kSmCountSize] = options.sms;
  llvm::Expected<rt::Dim3> grid = evaluateDim3(**kernel, "grid", launchSizes);
  if (!grid)
    return grid.takeError();
  plan.config.block = *block;
  plan.config.grid = *grid;
  plan.config.workerThreads = options.workers;
  plan.config.multiprocessors = options.sms;
  plan.config.tcgen05Numerics = options.tcgen05Numerics;
  plan.config.raceCheck = options.raceCheck;
  plan.schedules = options.schedules;
  plan.seed = options.seed;
  if (const int64_t *shared = (*kernel)->get(ir::attr::sharedBytes))
    plan.config.dynamicSharedBytes = uint32_t(*shared);

  llvm::Expected<std::vector<TensorBuffer>> tensors =
      prepareTensors(**kernel, *sizes, *args, parameterOuts, *addresses);
  if (!tensors)
    return tensors.takeError();
  plan.tensors = std::move(*tensors);
  llvm::Expected<std::vector<TensorBuffer>> extra = prepareBuffers(*buffers, *outs, plan.tensors);
  if (!extra)
    return extra.takeError();
  std::move(extra->begin(), extra->end(), std::back_inserter(plan.tensors));
  if (llvm::Error e = fillAddresses(*addresses, plan.tensors))
    return e;

  const ir::Block &entry = (*kernel)->regions()[0]->front();
  llvm::Expected<std::vector<uint64_t>> params =
      packParams(**kernel, plan.tensors, *sizes, *scalars);
  if (!params)
    return params.takeError();
  plan.params = std::move(*params);
  plan.paramsSize = layoutParams(entry).size;
  return plan;
}

llvm::Expected<uint32_t> launchPlan(const RunPlan &plan, const rt::KernelDescriptor &kernel) {
  // A mismatch means the printer and RunParams.h disagree on the struct.
  if (kernel.paramSize != plan.paramsSize)
    return llvm::createStringError("internal error: the emulation's " + plan.kernelName +
                                   "_Params has " + llvm::Twine(kernel.paramSize) +
                                   " bytes, cutec run built " + llvm::Twine(plan.paramsSize));
  rt::MemoryMap globals;
  for (const TensorBuffer &tensor : plan.tensors)
    if (rt::Status added = globals.add(tensor.data.get(), tensor.size, tensor.name); !added)
      return llvm::createStringError(added.error());
  // The runtime's message names the kernel, the CTA and the thread.
  rt::Result<uint32_t> ran = rt::launchSchedules(kernel, plan.config, plan.params.data(), globals,
                                                 plan.schedules, plan.seed);
  if (!ran)
    return llvm::createStringError(ran.error());
  return ran.value();
}

} // namespace cutec
