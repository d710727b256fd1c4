// Without libFuzzer: runs a fuzz target once on each file or directory
// entry given, so the checked-in corpus (crashes found included) is a
// regression test in every build.
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay(llvm::StringRef path, unsigned &count) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer) {
    llvm::errs() << "cannot read " << path << "\n";
    return 1;
  }
  llvm::StringRef bytes = (*buffer)->getBuffer();
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
  ++count;
  return 0;
}

int main(int argc, char **argv) {
  unsigned count = 0;
  for (int i = 1; i < argc; ++i) {
    if (!llvm::sys::fs::is_directory(argv[i])) {
      if (replay(argv[i], count))
        return 1;
      continue;
    }
    std::error_code ec;
    std::vector<std::string> files;
    for (llvm::sys::fs::directory_iterator it(argv[i], ec), end; it != end && !ec;
         it.increment(ec))
      files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const std::string &file : files)
      if (replay(file, count))
        return 1;
  }
  llvm::outs() << "replayed " << count << " inputs\n";
  return count ? 0 : 1;
}
