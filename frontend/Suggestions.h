// "Did you mean 'X'?": the closest known spelling to a misspelt name, by
// its words or by edit distance, for the diagnostics about unknown names,
// attributes and keyword arguments.
#ifndef CUTEC_FRONTEND_SUGGESTIONS_H
#define CUTEC_FRONTEND_SUGGESTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace cutec {

/// "; did you mean 'X'?" for the candidate made of the typo's words
/// ('_'-separated) in another order, else for the candidate closest to
/// `typo`, when one is close enough to be a likely misspelling (at most a
/// third of the typo's characters edited, at least one); otherwise "", and
/// always for names of one or two characters. Ties go to the candidate
/// that sorts first, so the message does not depend on the candidates' order.
std::string didYouMean(llvm::StringRef typo, llvm::ArrayRef<llvm::StringRef> candidates);

} // namespace cutec

#endif // CUTEC_FRONTEND_SUGGESTIONS_H
