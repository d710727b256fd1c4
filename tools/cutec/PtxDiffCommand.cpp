//===- PtxDiffCommand.cpp - `cutec ptx-diff A.ptx B.ptx` ------------------===//
#include "tools/cutec/PtxDiffCommand.h"

#include "codegen/ptx/PtxDiff.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

namespace cutec {

int runPtxDiffCommand(llvm::StringRef pathA, llvm::StringRef pathB, llvm::raw_ostream &out,
                      llvm::raw_ostream &err) {
  auto read = [&](llvm::StringRef path) -> std::unique_ptr<llvm::MemoryBuffer> {
    auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
    if (!buffer) {
      llvm::WithColor::error(err, "cutec")
          << "cannot read '" << path << "': " << buffer.getError().message() << "\n";
      return nullptr;
    }
    return std::move(*buffer);
  };
  auto a = read(pathA), b = read(pathB);
  if (!a || !b)
    return 2;
  std::string diff = ptx::diffPtx(a->getBuffer(), pathA, b->getBuffer(), pathB);
  out << diff;
  return diff.empty() ? 0 : 1;
}

} // namespace cutec
