// Diagnostics: printing through SourceMgr, counting, and the error limit.
#include "frontend/Diagnostics.h"

namespace cutec {

DiagnosticEngine::DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os,
                                   unsigned errorLimit)
    : sourceMgr(sourceMgr), os(os), errorLimit(errorLimit) {}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message,
                             llvm::ArrayRef<llvm::SMRange> ranges) {
  ++numErrors;
  lastDropped = errorLimit != 0 && numErrors > errorLimit;
  if (!lastDropped)
    print(loc, llvm::SourceMgr::DK_Error, message, ranges);
  else if (numErrors == errorLimit + 1)
    os << "error: too many errors emitted, stopping now\n";
}

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &message,
                               llvm::ArrayRef<llvm::SMRange> ranges) {
  lastDropped = errorLimitReached();
  if (!lastDropped)
    print(loc, llvm::SourceMgr::DK_Warning, message, ranges);
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
