// Runs ptxas on PTX text: the acceptance test of everything cutec prints.
#ifndef CUTEC_TESTS_CODEGEN_PTXASSEMBLER_H
#define CUTEC_TESTS_CODEGEN_PTXASSEMBLER_H

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace cutec::test {

/// Assembles `ptx` for `arch`; returns "" on success, else ptxas's messages.
inline std::string assembleWithPtxas(const std::string &ptx, const std::string &arch) {
  auto ptxas = llvm::sys::findProgramByName(CUTEC_PTXAS);
  if (!ptxas)
    return "ptxas not found at '" CUTEC_PTXAS "': install the CUDA toolkit";
  llvm::SmallString<128> input, output, log;
  llvm::sys::fs::createTemporaryFile("cutec", "ptx", input);
  llvm::sys::fs::createTemporaryFile("cutec", "cubin", output);
  llvm::sys::fs::createTemporaryFile("cutec", "log", log);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    os << ptx;
  }
  std::string archFlag = "-arch=" + arch;
  llvm::StringRef args[] = {*ptxas, archFlag, input, "-o", output};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(), log.str()};
  int rc = llvm::sys::ExecuteAndWait(*ptxas, args, std::nullopt, redirects);
  std::string messages;
  if (auto buffer = llvm::MemoryBuffer::getFile(log))
    messages = (*buffer)->getBuffer().str();
  for (const auto &path : {input, output, log})
    llvm::sys::fs::remove(path);
  return rc == 0 ? "" : "ptxas failed (" + std::to_string(rc) + "): " + messages;
}

} // namespace cutec::test

#endif
