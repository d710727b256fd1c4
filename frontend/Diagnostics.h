// Diagnostics: the one place front-end errors and notes are reported.
//
// Every message goes through llvm::SourceMgr so it prints as
// `file:line:col: error: message`, the source line and a caret. The engine
// counts errors (the driver exits non-zero when there are any) and stops
// printing after a limit, so a garbage input cannot flood the terminal; the
// parser asks errorLimitReached() to stop early on such inputs. A message
// identical to one already printed at the same place (an error in the body
// of an `unroll` loop, met once per iteration) is counted but not printed
// again, with its notes, nor counted.
#ifndef CUTEC_FRONTEND_DIAGNOSTICS_H
#define CUTEC_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace cutec {

class DiagnosticEngine {
public:
  /// Messages are printed to `os`. Errors past the first `errorLimit` ones
  /// (0: no limit) are counted but dropped, with one "too many errors" line.
  explicit DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os = llvm::errs(),
                            unsigned errorLimit = 50);

  void error(llvm::SMLoc loc, const llvm::Twine &message,
             llvm::ArrayRef<llvm::SMRange> ranges = {});
  /// A note attaches to the error or warning reported just before it and is
  /// dropped with it when that one was dropped.
  void note(llvm::SMLoc loc, const llvm::Twine &message, llvm::ArrayRef<llvm::SMRange> ranges = {});
  void warning(llvm::SMLoc loc, const llvm::Twine &message,
               llvm::ArrayRef<llvm::SMRange> ranges = {});

  /// Errors reported, including those dropped past the limit (not repeats).
  unsigned errorCount() const { return numErrors; }
  bool hasErrors() const { return numErrors != 0; }
  /// True once an error has been dropped: reporting more is pointless.
  bool errorLimitReached() const { return errorLimit != 0 && numErrors > errorLimit; }

  llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }

private:
  void print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind, const llvm::Twine &message,
             llvm::ArrayRef<llvm::SMRange> ranges);
  /// Whether an error or warning with this text was printed at `loc` before.
  bool isRepeat(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind, const llvm::Twine &message);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned errorLimit;
  unsigned numErrors = 0;
  bool lastDropped = false;
  /// The errors and warnings printed so far: location, kind and text.
  llvm::StringSet<> printed;
};

} // namespace cutec

#endif // CUTEC_FRONTEND_DIAGNOSTICS_H
