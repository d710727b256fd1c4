// CxxToModule: compiles one C++20 translation unit held in memory to an LLVM
// module with the Clang libraries, as `clang++ -c` would, without starting a
// process.
//
// The clang driver builds the compiler invocation, so the compiled code finds
// the same headers as `clang++` on this machine: the GCC libstdc++ headers and
// the Clang resource headers (stddef.h, intrinsics). On top of that the
// directory holding cutec's runtime/ is on the include path, so the emitted
// emulation can `#include "runtime/numerics/Numerics.h"`.
#ifndef CUTEC_CODEGEN_JIT_CXXTOMODULE_H
#define CUTEC_CODEGEN_JIT_CXXTOMODULE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace cutec {

struct CxxCompileOptions {
  /// The directory that holds runtime/ (the include root of the runtime
  /// headers). Empty: $CUTEC_INCLUDE_DIR if set, else the source tree cutec
  /// was built from.
  std::string runtimeIncludeDir;
  /// Further -I directories, searched after the runtime include directory.
  std::vector<std::string> includeDirs;
  /// Macro definitions, each `NAME` or `NAME=VALUE`.
  std::vector<std::string> defines;
  /// -O level, 0 to 3.
  unsigned optLevel = 2;
  /// Further clang++ driver arguments, e.g. "-march=native".
  std::vector<std::string> extraArgs;
};

/// The runtime include directory `options` selects (see runtimeIncludeDir).
std::string resolveRuntimeIncludeDir(const CxxCompileOptions &options);

/// The clang++ command line that compiles `bufferName` under `options`.
std::vector<std::string> cxxDriverArgs(llvm::StringRef bufferName,
                                       const CxxCompileOptions &options);

/// Compiles `source` as a C++20 file named `bufferName` into a module in
/// `context`. On failure the error message is the compiler's diagnostics,
/// `file:line:col: error: ...` with source lines and carets.
llvm::Expected<std::unique_ptr<llvm::Module>> compileCxxToModule(llvm::StringRef source,
                                                                 llvm::StringRef bufferName,
                                                                 const CxxCompileOptions &options,
                                                                 llvm::LLVMContext &context);

} // namespace cutec

#endif // CUTEC_CODEGEN_JIT_CXXTOMODULE_H
