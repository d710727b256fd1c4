//===- CompileKernel.cpp - Source to kernel IR or machine IR --------------===//
#include "driver/CompileKernel.h"

#include "frontend/Builtins.h"
#include "frontend/Diagnostics.h"
#include "frontend/Parser.h"
#include "frontend/Sema.h"
#include "driver/Pipeline.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

namespace cutec {

namespace {

std::unique_ptr<CompiledSource> compileBuffer(std::unique_ptr<llvm::MemoryBuffer> source,
                                              CompileStage stage, PassManagerOptions passOptions,
                                              llvm::StringRef arch,
                                              llvm::raw_ostream &diagnostics) {
  auto compiled = std::make_unique<CompiledSource>();
  unsigned bufferId = compiled->sourceMgr.AddNewSourceBuffer(std::move(source), llvm::SMLoc());
  DiagnosticEngine diags(compiled->sourceMgr, diagnostics);
  compiled->syntax = parseModule(compiled->sourceMgr, bufferId, diags);
  if (diags.hasErrors())
    return nullptr;
  if (stage == CompileStage::Syntax)
    return compiled;

  compiled->module = buildIR(*compiled->syntax, diags);
  if (!compiled->module || diags.hasErrors())
    return nullptr;
  if (stage == CompileStage::KernelIR)
    return compiled;

  PassManager pm(std::move(passOptions));
  addLoweringPipeline(pm, arch);
  PassContext context([&](llvm::SMLoc loc, const llvm::Twine &m) { diags.error(loc, m); },
                      [&](llvm::SMLoc loc, const llvm::Twine &m) { diags.note(loc, m); },
                      [&](llvm::SMLoc loc, const llvm::Twine &m) { diags.warning(loc, m); });
  context.setBuiltinNamer(builtinCalledAt);
  if (!pm.run(*compiled->module, context))
    return nullptr;
  return compiled;
}

} // namespace

std::unique_ptr<CompiledSource> compileKernelFile(llvm::StringRef path, CompileStage stage,
                                                  PassManagerOptions passOptions,
                                                  llvm::StringRef arch) {
  auto source = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!source) {
    llvm::WithColor::error(llvm::errs(), "cutec")
        << "cannot open '" << path << "': " << source.getError().message() << "\n";
    return nullptr;
  }
  return compileBuffer(std::move(*source), stage, std::move(passOptions), arch, llvm::errs());
}

std::unique_ptr<CompiledSource> compileKernelSource(llvm::StringRef bufferName,
                                                    llvm::StringRef text, CompileStage stage,
                                                    PassManagerOptions passOptions,
                                                    llvm::StringRef arch,
                                                    llvm::raw_ostream &diagnostics) {
  return compileBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), stage,
                       std::move(passOptions), arch, diagnostics);
}

std::string describeLocation(const llvm::SourceMgr &sourceMgr, llvm::SMLoc loc) {
  if (!loc.isValid())
    return "";
  unsigned buffer = sourceMgr.FindBufferContainingLoc(loc);
  if (!buffer)
    return "";
  auto [line, column] = sourceMgr.getLineAndColumn(loc, buffer);
  llvm::StringRef file = sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier();
  return (file + ":" + llvm::Twine(line) + ":" + llvm::Twine(column)).str();
}

} // namespace cutec
