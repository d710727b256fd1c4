//===- Cubin.h - What the cubin assemblers take and give ------------------===//
//
// `--emit=cubin` assembles cutec's PTX with the ptxas program (Ptxas.h) or,
// without one, with the nvJitLink library (NvJitLink.h); CubinAssembler.h
// chooses. Both take these options and give this result.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_CODEGEN_CUBIN_CUBIN_H
#define CUTEC_CODEGEN_CUBIN_CUBIN_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cutec {

struct CubinOptions {
  std::string arch = "sm_100a";          // -arch=
  std::vector<std::string> extraOptions; // passed to the assembler as they are
};

struct Cubin {
  std::vector<char> bytes; // an ELF image for options.arch
  std::string infoLog;     // the assembler's messages that are not errors
};

/// An assembler's failure, carrying `message` as the user sees it.
inline llvm::Error cubinFailure(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace cutec

#endif
