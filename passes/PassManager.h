//===- PassManager.h - Runs the pipeline, verifying and printing ----------===//
#ifndef CUTEC_PASSES_PASSMANAGER_H
#define CUTEC_PASSES_PASSMANAGER_H

#include "passes/Pass.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <vector>

namespace cutec {

struct PassManagerOptions {
  llvm::StringSet<> printAfter; // pass names
  bool printAfterAll = false;
  bool timePasses = false;
  bool verifyEach = true;
  /// Passes left out: the optimisations of optionalPasses(), and fmad for
  /// cutec --fmad=false.
  llvm::StringSet<> skip;
  /// If set, receives each pass run's name and wall-clock seconds over all
  /// kernels, in pipeline order (for benchmarks).
  std::vector<std::pair<std::string, double>> *passSeconds = nullptr;
  llvm::raw_ostream *printStream = nullptr; // default: llvm::errs()
};

class PassManager {
public:
  explicit PassManager(PassManagerOptions options = {}) : options(std::move(options)) {}

  void add(std::unique_ptr<Pass> pass) { passes.push_back(std::move(pass)); }
  llvm::ArrayRef<std::unique_ptr<Pass>> pipeline() const { return passes; }

  /// Runs every pass on every kernel. Stops at the first pass that reports a
  /// user error (returns false). A verifier failure after a pass is a
  /// compiler bug: reported through `context` with the pass's name.
  bool run(ir::Module &module, PassContext &context);

private:
  PassManagerOptions options;
  std::vector<std::unique_ptr<Pass>> passes;
};

} // namespace cutec

#endif
