// The seed-004 NVFP4 GEMV as the front end builds it, for the tests that
// lower it.
#ifndef CUTEC_TESTS_PASSES_GEMVKERNELIR_H
#define CUTEC_TESTS_PASSES_GEMVKERNELIR_H

#include "PassTestKernels.h"

#include "frontend/Parser.h"
#include "frontend/Sema.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

namespace cutec::test {

/// The kernel IR of tests/frontend/inputs/nvfp4_gemv.cute; null (and a test
/// failure) when the front end reports an error.
inline std::unique_ptr<ir::Module> gemvKernelIR() {
  llvm::SourceMgr sourceMgr;
  auto buffer =
      llvm::MemoryBuffer::getFile(CUTEC_SOURCE_DIR "/tests/frontend/inputs/nvfp4_gemv.cute");
  EXPECT_TRUE(bool(buffer));
  if (!buffer)
    return nullptr;
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  DiagnosticEngine diags(sourceMgr, os, 50);
  std::unique_ptr<ast::Module> ast = parseModule(sourceMgr, id, diags);
  std::unique_ptr<ir::Module> module = ast ? buildIR(*ast, diags) : nullptr;
  EXPECT_EQ(diagnostics, "");
  return module;
}

} // namespace cutec::test

#endif
