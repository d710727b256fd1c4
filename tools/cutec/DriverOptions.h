//===- DriverOptions.h - What `cutec` and `cutec run` share ---------------===//
//
// `cutec` (compiling, `layout`, `ptx-diff`) and `cutec-run` (what `cutec run`
// executes) are two programs, so that compiling never loads the JIT and
// Clang. These are the options and steps both have: the target, the pass
// pipeline's options, and the emulation source of a compiled kernel.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_CUTEC_DRIVEROPTIONS_H
#define CUTEC_TOOLS_CUTEC_DRIVEROPTIONS_H

#include "driver/CompileKernel.h"
#include "passes/PassManager.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace cutec::cli {

extern llvm::cl::OptionCategory cutecCategory;
extern llvm::cl::opt<std::string> arch;

/// Pass pipeline options. A libLLVM that registers options of the same
/// names for its own pass managers has them removed first
/// (removeLlvmPassOptions), so these are created in main() after it.
struct PipelineOptions {
  llvm::cl::list<std::string> printAfter{"print-after", llvm::cl::CommaSeparated,
                                         llvm::cl::desc("Print the IR after the named passes"),
                                         llvm::cl::value_desc("pass"),
                                         llvm::cl::cat(cutecCategory)};
  llvm::cl::opt<bool> printAfterAll{"print-after-all",
                                    llvm::cl::desc("Print the IR after every pass"),
                                    llvm::cl::cat(cutecCategory)};
  llvm::cl::opt<bool> timePasses{"time-passes", llvm::cl::desc("Print the time each pass took"),
                                 llvm::cl::cat(cutecCategory)};
  llvm::cl::opt<bool> fmad{
      "fmad",
      llvm::cl::desc("Contract f32 a * b + c into fma, as nvcc does (default: true; "
                     "--fmad=false rounds the product and the sum separately)"),
      llvm::cl::init(true), llvm::cl::cat(cutecCategory)};
  llvm::cl::list<std::string> disablePass{
      "disable-pass", llvm::cl::CommaSeparated,
      llvm::cl::desc("Leave out optimisation passes (exact-arith, narrow-pairs, licm); no result "
                     "changes either way"),
      llvm::cl::value_desc("pass"), llvm::cl::cat(cutecCategory)};

  PassManagerOptions passOptions() const;
};

/// Removes the options libLLVM registered under the pipeline options' names.
void removeLlvmPassOptions();

/// Prints `cutec: error: MESSAGE` and returns 1.
int fail(const llvm::Twine &message);

/// 0 if --arch names a target and every --disable-pass an optimisation
/// pass; otherwise says which is wrong and returns 1.
int checkArchAndPasses(const PipelineOptions &pipeline);

/// The emulation C++ of a lowered module; `headerInclude` as EmuOptions.
llvm::Expected<std::string> emulationSource(const CompiledSource &compiled,
                                            llvm::StringRef headerInclude);

/// `cutec --version`'s line.
void printVersion(llvm::raw_ostream &os);

} // namespace cutec::cli

#endif
