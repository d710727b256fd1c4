//===- DriverOptions.cpp - What `cutec` and `cutec run` share -------------===//
#include "tools/cutec/DriverOptions.h"

#include "codegen/emu/EmuPrinter.h"
#include "driver/Pipeline.h"
#include "target/ptx/isel/InstructionSelection.h"
#include "target/ptx/Targets.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace cutec::cli {

using namespace llvm;

cl::OptionCategory cutecCategory("cutec options");

cl::opt<std::string> arch("arch",
                          cl::desc("Target architecture: sm_100a (Blackwell, default), sm_103a, "
                                   "sm_100f (the sm_10x family), sm_120a, sm_121a (consumer "
                                   "Blackwell: no tensor memory) or sm_90a (Hopper)"),
                          cl::init("sm_100a"), cl::cat(cutecCategory));

PassManagerOptions PipelineOptions::passOptions() const {
  PassManagerOptions options;
  for (const std::string &name : printAfter)
    options.printAfter.insert(name);
  options.printAfterAll = printAfterAll;
  options.timePasses = timePasses;
  for (const std::string &name : disablePass)
    options.skip.insert(name);
  if (!fmad)
    options.skip.insert("fmad");
  return options;
}

void removeLlvmPassOptions() {
  for (const char *name : {"print-after", "print-after-all", "time-passes"}) {
    auto &registered = cl::getRegisteredOptions(cl::SubCommand::getTopLevel());
    if (auto it = registered.find(name); it != registered.end())
      it->second->removeArgument();
  }
}

int fail(const Twine &message) {
  WithColor::error(errs(), "cutec") << message << "\n";
  return 1;
}

int checkArchAndPasses(const PipelineOptions &pipeline) {
  if (!isSupportedArch(arch))
    return fail("unsupported --arch '" + arch + "': cutec targets " + supportedArchList());
  for (const std::string &name : pipeline.disablePass)
    if (!is_contained(optionalPasses(), name))
      return fail("--disable-pass=" + name + ": only the optimisation passes " +
                  join(optionalPasses(), ", ") + " can be left out");
  return 0;
}

Expected<std::string> emulationSource(const CompiledSource &compiled, StringRef headerInclude) {
  emu::EmuOptions options;
  options.headerInclude = headerInclude.str();
  options.describeLocation = [&](SMLoc loc) { return describeLocation(compiled.sourceMgr, loc); };
  std::string text;
  raw_string_ostream os(text);
  if (Error e = emu::printEmulation(*compiled.module, options, os))
    return e;
  return text;
}

void printVersion(raw_ostream &os) {
  os << "cutec " << CUTEC_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
}

} // namespace cutec::cli
