// Fuzz target: any bytes as a kernel file, through the whole compiler (parse,
// semantic analysis, every pass, both printers). Inputs must give either
// diagnostics or output, never a crash, hang or sanitizer report.
#include "codegen/emu/EmuPrinter.h"
#include "codegen/ptx/PtxPrinter.h"
#include "frontend/Diagnostics.h"
#include "frontend/Parser.h"
#include "frontend/Sema.h"
#include "driver/Pipeline.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  unsigned id = sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.cute"),
                                             llvm::SMLoc());
  cutec::DiagnosticEngine diags(sourceMgr, llvm::nulls());
  auto syntax = cutec::parseModule(sourceMgr, id, diags);
  if (diags.hasErrors())
    return 0;
  auto module = cutec::buildIR(*syntax, diags);
  if (!module || diags.hasErrors())
    return 0;
  cutec::PassManager pm;
  cutec::addLoweringPipeline(pm);
  cutec::PassContext context([&](llvm::SMLoc loc, const llvm::Twine &m) { diags.error(loc, m); },
                             [&](llvm::SMLoc loc, const llvm::Twine &m) { diags.note(loc, m); });
  if (!pm.run(*module, context))
    return 0;
  llvm::consumeError(cutec::ptx::printPtx(*module, {}, llvm::nulls()));
  llvm::consumeError(cutec::emu::printEmulation(*module, {}, llvm::nulls()));
  return 0;
}
