//===- PassManager.cpp - Runs the pipeline, verifying and printing --------===//
#include "passes/PassManager.h"

#include "ir/core/Printer.h"
#include "ir/core/Verifier.h"

#include "llvm/Support/Timer.h"

#include <chrono>

namespace cutec {

static bool verifyAfter(const ir::Operation &kernel, const llvm::Twine &stage,
                        PassContext &context) {
  std::vector<ir::VerifierIssue> issues = ir::verify(kernel);
  for (const ir::VerifierIssue &issue : issues)
    context.error(issue.loc, "internal error: the IR does not verify after " + stage + ": " +
                                 issue.message);
  return issues.empty();
}

bool PassManager::run(ir::Module &module, PassContext &context) {
  llvm::raw_ostream &out = options.printStream ? *options.printStream : llvm::errs();
  llvm::TimerGroup timers("cutec", "cutec pass execution times");
  std::vector<std::unique_ptr<llvm::Timer>> passTimers;
  for (const auto &pass : passes)
    passTimers.push_back(std::make_unique<llvm::Timer>(pass->name(), pass->name(), timers));

  for (auto &kernel : module.kernels())
    if (options.verifyEach && !verifyAfter(*kernel, "the front end", context))
      return false;

  for (size_t i = 0; i < passes.size(); ++i) {
    Pass &pass = *passes[i];
    if (options.skip.contains(pass.name()))
      continue;
    auto started = std::chrono::steady_clock::now();
    for (auto &kernel : module.kernels()) {
      unsigned errorsBefore = context.errorCount();
      if (options.timePasses)
        passTimers[i]->startTimer();
      pass.run(*kernel, context);
      if (options.timePasses)
        passTimers[i]->stopTimer();
      if (context.errorCount() != errorsBefore)
        return false;
      if (options.verifyEach && !verifyAfter(*kernel, "'" + pass.name() + "'", context))
        return false;
    }
    if (options.passSeconds)
      options.passSeconds->push_back(
          {pass.name().str(),
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()});
    if (options.printAfterAll || options.printAfter.contains(pass.name())) {
      out << "// -----// IR after " << pass.name() << " //----- //\n";
      ir::print(module, out);
    }
  }
  if (options.timePasses)
    timers.print(llvm::errs(), /*ResetAfterPrint=*/true);
  return true;
}

} // namespace cutec
