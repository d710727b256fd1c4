// CxxToModule: the clang driver and frontend, run in-process on a buffer.
#include "codegen/jit/CxxToModule.h"

#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>

namespace cutec {

std::string resolveRuntimeIncludeDir(const CxxCompileOptions &options) {
  if (!options.runtimeIncludeDir.empty())
    return options.runtimeIncludeDir;
  // An installed cutec points here at its installed headers.
  if (const char *fromEnv = std::getenv("CUTEC_INCLUDE_DIR"); fromEnv && *fromEnv)
    return fromEnv;
  return CUTEC_JIT_DEFAULT_INCLUDE_DIR;
}

std::vector<std::string> cxxDriverArgs(llvm::StringRef bufferName,
                                       const CxxCompileOptions &options) {
  std::vector<std::string> args = {
      "clang++",
      // The JIT runs the code in this process, whatever clang's default is.
      "--target=" + llvm::sys::getProcessTriple(),
      "-std=c++20",
      "-O" + std::to_string(options.optLevel),
      // Diagnostics go into an error message, not to a terminal.
      "-fno-color-diagnostics",
      "-resource-dir",
      CUTEC_JIT_CLANG_RESOURCE_DIR,
      "-I" + resolveRuntimeIncludeDir(options),
  };
  for (const std::string &dir : options.includeDirs)
    args.push_back("-I" + dir);
  for (const std::string &define : options.defines)
    args.push_back("-D" + define);
  args.insert(args.end(), options.extraArgs.begin(), options.extraArgs.end());
  // -x c++: the buffer name need not end in .cpp.
  for (llvm::StringRef arg : {"-x", "c++", "-c"})
    args.push_back(arg.str());
  args.push_back(bufferName.str());
  return args;
}

namespace {

/// The real file system with `source` visible as the file `bufferName`, for
/// both the driver (which checks that inputs exist) and the frontend.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> overlaySource(llvm::StringRef source,
                                                              llvm::StringRef bufferName) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real = llvm::vfs::getRealFileSystem();
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  // A relative name resolves against the working directory, as it would on
  // disk, so diagnostics show the name exactly as given.
  if (llvm::ErrorOr<std::string> cwd = real->getCurrentWorkingDirectory())
    memory->setCurrentWorkingDirectory(*cwd);
  memory->addFile(bufferName, 0, llvm::MemoryBuffer::getMemBufferCopy(source, bufferName));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(real);
  overlay->pushOverlay(memory);
  return overlay;
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::Module>> compileCxxToModule(llvm::StringRef source,
                                                                 llvm::StringRef bufferName,
                                                                 const CxxCompileOptions &options,
                                                                 llvm::LLVMContext &context) {
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  auto failure = [&] {
    diagStream.flush();
    return llvm::createStringError(llvm::inconvertibleErrorCode(), diagnostics);
  };

  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> files = overlaySource(source, bufferName);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> driverDiagOptions =
      new clang::DiagnosticOptions();
  clang::CreateInvocationOptions invocationOptions;
  invocationOptions.Diags = clang::CompilerInstance::createDiagnostics(
      driverDiagOptions.get(),
      new clang::TextDiagnosticPrinter(diagStream, driverDiagOptions.get()));
  invocationOptions.VFS = files;

  std::vector<std::string> args = cxxDriverArgs(bufferName, options);
  std::vector<const char *> argv;
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());
  std::shared_ptr<clang::CompilerInvocation> invocation =
      clang::createInvocation(argv, invocationOptions);
  // The driver reports some errors (unknown arguments) and goes on.
  if (!invocation || invocationOptions.Diags->hasErrorOccurred())
    return failure();
  // The driver asks the frontend to leak its AST and module, which saves time
  // at the exit of a one-shot compiler; we compile many times per process.
  invocation->getFrontendOpts().DisableFree = false;

  clang::CompilerInstance compiler;
  compiler.setInvocation(std::move(invocation));
  compiler.createDiagnostics(
      new clang::TextDiagnosticPrinter(diagStream, &compiler.getDiagnosticOpts()));
  compiler.createFileManager(files);
  // "N errors generated." belongs with the diagnostics, not on our stderr.
  compiler.setVerboseOutputStream(diagStream);

  clang::EmitLLVMOnlyAction action(&context);
  if (!compiler.ExecuteAction(action))
    return failure();
  std::unique_ptr<llvm::Module> module = action.takeModule();
  if (!module)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "clang produced no module for " + bufferName);
  return module;
}

} // namespace cutec
