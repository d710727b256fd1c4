// Helpers for the semantic-analysis tests: build a source string into kernel
// IR, returning the printed IR, the diagnostics, and the verifier's issues.
#ifndef CUTEC_TESTS_FRONTEND_SEMATESTUTIL_H
#define CUTEC_TESTS_FRONTEND_SEMATESTUTIL_H

#include "FrontendTestUtil.h"

#include "frontend/Sema.h"
#include "ir/core/Printer.h"
#include "ir/core/Verifier.h"

namespace cutec::test {

struct BuildResult {
  std::string ir;
  std::string diagnostics;
  std::vector<std::string> verifierIssues;
};

inline BuildResult build(llvm::StringRef source) {
  SourceFixture fixture(source);
  auto module = parseModule(fixture.sourceMgr, fixture.bufferId, fixture.diags);
  BuildResult result;
  if (!fixture.diags.hasErrors()) {
    if (auto ir = buildIR(*module, fixture.diags)) {
      llvm::raw_string_ostream os(result.ir);
      ir::print(*ir, os);
      for (const auto &kernel : ir->kernels())
        for (const ir::VerifierIssue &issue : ir::verify(*kernel))
          result.verifierIssues.push_back(issue.message);
    }
  }
  result.diagnostics = fixture.diagText;
  return result;
}

/// The first message line of the diagnostics, without "test.cute:L:C: ".
inline std::string firstError(const BuildResult &r) {
  llvm::StringRef line = llvm::StringRef(r.diagnostics).split('\n').first;
  size_t at = line.find("error: ");
  return at == llvm::StringRef::npos ? line.str() : line.substr(at + 7).str();
}

} // namespace cutec::test

#endif // CUTEC_TESTS_FRONTEND_SEMATESTUTIL_H
