// "Did you mean 'X'?": reordered words, then edit distance over the candidates.
#include "frontend/Suggestions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <vector>

namespace cutec {

/// The optimal-string-alignment distance: insertions, deletions,
/// replacements and swaps of neighbours ('scael' is one edit from 'scale').
static unsigned editDistance(llvm::StringRef a, llvm::StringRef b) {
  size_t n = a.size(), m = b.size();
  std::vector<std::vector<unsigned>> d(n + 1, std::vector<unsigned>(m + 1));
  for (size_t i = 0; i <= n; ++i)
    d[i][0] = unsigned(i);
  for (size_t j = 0; j <= m; ++j)
    d[0][j] = unsigned(j);
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

/// The words of a name ('_'-separated), sorted.
static llvm::SmallVector<llvm::StringRef, 4> sortedWords(llvm::StringRef name) {
  llvm::SmallVector<llvm::StringRef, 4> words;
  name.split(words, '_', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  llvm::sort(words);
  return words;
}

std::string didYouMean(llvm::StringRef typo, llvm::ArrayRef<llvm::StringRef> candidates) {
  // One or two letters are a different name more often than a misspelt one.
  if (typo.size() < 3)
    return "";
  // The same words in another order (CuTe DSL's mbarrier_init_fence is
  // fence_mbarrier_init) beat any spelling: the edit distance between them
  // is large, and a shorter name that is a prefix would win on it.
  llvm::SmallVector<llvm::StringRef, 4> words = sortedWords(typo);
  llvm::StringRef reordered;
  for (llvm::StringRef c : candidates)
    if (words.size() > 1 && c != typo && c.size() == typo.size() && sortedWords(c) == words &&
        (reordered.empty() || c < reordered))
      reordered = c;
  if (!reordered.empty())
    return "; did you mean '" + reordered.str() + "'?";
  unsigned limit = std::max<unsigned>(1, unsigned(typo.size()) / 3);
  llvm::StringRef best;
  unsigned bestDistance = limit + 1;
  for (llvm::StringRef c : candidates) {
    // Far longer or shorter names cannot be close; skip the table work.
    if (c == typo || c.empty() || c.size() > typo.size() + limit || c.size() + limit < typo.size())
      continue;
    unsigned d = editDistance(typo, c);
    if (d < bestDistance || (d == bestDistance && c < best)) {
      best = c;
      bestDistance = d;
    }
  }
  if (bestDistance > limit)
    return "";
  return "; did you mean '" + best.str() + "'?";
}

} // namespace cutec
