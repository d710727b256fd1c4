// Diagnostics: printing through SourceMgr, counting, the error limit, and
// leaving out repeats.
#include "frontend/Diagnostics.h"

#include "llvm/Support/FormatVariadic.h"

namespace cutec {

DiagnosticEngine::DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os,
                                   unsigned errorLimit)
    : sourceMgr(sourceMgr), os(os), errorLimit(errorLimit) {}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message,
                             llvm::ArrayRef<llvm::SMRange> ranges) {
  // A repeat is not counted either, so that it does not use up the limit.
  if (isRepeat(loc, llvm::SourceMgr::DK_Error, message)) {
    lastDropped = true;
    return;
  }
  ++numErrors;
  lastDropped = errorLimit != 0 && numErrors > errorLimit;
  if (!lastDropped)
    print(loc, llvm::SourceMgr::DK_Error, message, ranges);
  else if (numErrors == errorLimit + 1)
    os << "error: too many errors emitted, stopping now\n";
}

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &message,
                               llvm::ArrayRef<llvm::SMRange> ranges) {
  lastDropped = errorLimitReached() || isRepeat(loc, llvm::SourceMgr::DK_Warning, message);
  if (!lastDropped)
    print(loc, llvm::SourceMgr::DK_Warning, message, ranges);
}

bool DiagnosticEngine::isRepeat(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                                const llvm::Twine &message) {
  std::string key = llvm::formatv("{0}:{1}:{2}", static_cast<const void *>(loc.getPointer()),
                                  int(kind), message.str());
  return !printed.insert(key).second;
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message,
                            llvm::ArrayRef<llvm::SMRange> ranges) {
  if (!lastDropped)
    print(loc, llvm::SourceMgr::DK_Note, message, ranges);
}

void DiagnosticEngine::print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                             const llvm::Twine &message, llvm::ArrayRef<llvm::SMRange> ranges) {
  sourceMgr.PrintMessage(os, loc, kind, message, ranges, /*FixIts=*/{}, /*ShowColors=*/false);
}

} // namespace cutec
