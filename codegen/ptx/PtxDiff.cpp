//===- PtxDiff.cpp - Compare PTX up to comments and register numbering ----===//
#include "codegen/ptx/PtxDiff.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <fmt/format.h>

namespace cutec::ptx {
namespace {

/// Removes // and /* */ comments, keeping string-free PTX text otherwise.
std::string stripComments(llvm::StringRef text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i).starts_with("//")) {
      while (i < text.size() && text[i] != '\n')
        ++i;
      out += '\n';
      continue;
    }
    if (text.substr(i).starts_with("/*")) {
      size_t end = text.find("*/", i + 2);
      // Keep the line structure of the commented-out text.
      for (size_t j = i; j < std::min(end, text.size()); ++j)
        if (text[j] == '\n')
          out += '\n';
      i = end == llvm::StringRef::npos ? text.size() : end + 1;
      continue;
    }
    out += text[i];
  }
  return out;
}

/// Renames virtual registers and labels by order of first appearance.
class Renamer {
public:
  std::string rename(llvm::StringRef line) {
    bool isRegDeclaration = line.starts_with(".reg ");
    std::string out;
    for (size_t i = 0; i < line.size();) {
      char c = line[i];
      if (c == '%' || c == '$') {
        size_t end = i + 1;
        while (end < line.size() && (llvm::isAlnum(line[end]) || line[end] == '_'))
          ++end;
        llvm::StringRef token = line.slice(i, end);
        if (isRegDeclaration && end < line.size() && line[end] == '<') {
          // `.reg .b32 %r<12>;`: the count is a numbering artefact.
          size_t close = line.find('>', end);
          out += token.str() + "<*>";
          i = close == llvm::StringRef::npos ? line.size() : close + 1;
          continue;
        }
        out += mapped(token);
        i = end;
        continue;
      }
      out += c;
      ++i;
    }
    return out;
  }

private:
  /// %r12 -> %r#0 (per prefix); $L__loop_3 -> $L#0. Special registers such
  /// as %tid (no trailing digits) stay as they are.
  std::string mapped(llvm::StringRef token) {
    bool isLabel = token.starts_with("$");
    llvm::StringRef prefix = isLabel ? "$L" : token.rtrim("0123456789");
    if (!isLabel && (prefix == token || prefix.size() < 2))
      return token.str();
    auto [it, inserted] = names.try_emplace(token, "");
    if (inserted)
      it->second = fmt::format("{}#{}", prefix.str(), counters[prefix]++);
    return it->second;
  }

  llvm::StringMap<std::string> names;
  llvm::StringMap<unsigned> counters;
};

/// One space between words and after commas, none before punctuation, so
/// "a , b", "a,b" and "a,  b" agree.
std::string foldWhitespace(llvm::StringRef line) {
  std::string out;
  bool space = false;
  for (char c : line) {
    if (llvm::isSpace(c)) {
      space = !out.empty();
      continue;
    }
    if (space && c != ',' && c != ';' && c != ']' && c != ')' && c != '}' && out.back() != ' ')
      out += ' ';
    space = false;
    out += c;
    if (c == ',')
      out += ' ';
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

/// The edit script of Myers' O(ND) algorithm, as (op, index) pairs: ' ' keep
/// a[i], '-' delete a[i], '+' insert b[j].
std::vector<std::pair<char, size_t>> editScript(const std::vector<std::string> &a,
                                                const std::vector<std::string> &b) {
  int n = int(a.size()), m = int(b.size()), max = n + m;
  std::vector<int> v(2 * max + 2, 0);
  std::vector<std::vector<int>> trace;
  for (int d = 0; d <= max; ++d) {
    trace.push_back(v);
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[max + k - 1] < v[max + k + 1])) ? v[max + k + 1]
                                                                        : v[max + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y])
        ++x, ++y;
      v[max + k] = x;
      if (x >= n && y >= m) {
        // Walk the trace back to recover the script.
        std::vector<std::pair<char, size_t>> script;
        for (int dd = d; dd > 0; --dd) {
          const std::vector<int> &pv = trace[dd];
          int kk = x - y;
          int prevK = (kk == -dd || (kk != dd && pv[max + kk - 1] < pv[max + kk + 1])) ? kk + 1
                                                                                       : kk - 1;
          int prevX = pv[max + prevK], prevY = prevX - prevK;
          while (x > prevX && y > prevY)
            script.push_back({' ', size_t(--x)}), --y;
          if (x == prevX)
            script.push_back({'+', size_t(--y)});
          else
            script.push_back({'-', size_t(--x)});
        }
        while (x > 0)
          script.push_back({' ', size_t(--x)});
        std::reverse(script.begin(), script.end());
        return script;
      }
    }
  }
  return {};
}

} // namespace

std::vector<std::string> normalizePtx(llvm::StringRef text) {
  std::string stripped = stripComments(text);
  std::vector<std::string> lines;
  Renamer renamer;
  llvm::StringRef rest = stripped;
  while (!rest.empty()) {
    auto [line, next] = rest.split('\n');
    rest = next;
    std::string folded = foldWhitespace(line);
    if (!folded.empty())
      lines.push_back(renamer.rename(folded));
  }
  return lines;
}

std::string diffPtx(llvm::StringRef a, llvm::StringRef aName, llvm::StringRef b,
                    llvm::StringRef bName) {
  std::vector<std::string> x = normalizePtx(a), y = normalizePtx(b);
  if (x == y)
    return "";
  auto script = editScript(x, y);
  // Group changes with 3 lines of context into hunks.
  const size_t context = 3;
  std::string out = fmt::format("--- {}\n+++ {}\n", aName.str(), bName.str());
  size_t i = 0;
  while (i < script.size()) {
    if (script[i].first == ' ') {
      ++i;
      continue;
    }
    size_t start = i >= context ? i - context : 0, end = i;
    while (end < script.size()) {
      size_t run = 0;
      while (end + run < script.size() && script[end + run].first == ' ')
        ++run;
      if (end + run == script.size() || run > 2 * context) {
        end = std::min(script.size(), end + std::min(run, context));
        break;
      }
      end += run + 1;
    }
    // Line numbers of the hunk in both normal forms.
    size_t aLine = 0, bLine = 0;
    for (size_t k = 0; k < start; ++k) {
      aLine += script[k].first != '+';
      bLine += script[k].first != '-';
    }
    size_t aCount = 0, bCount = 0;
    std::string lines;
    for (size_t k = start; k < end; ++k) {
      auto [op, index] = script[k];
      aCount += op != '+';
      bCount += op != '-';
      lines += op + (op == '+' ? y[index] : x[index]) + "\n";
    }
    out += fmt::format("@@ -{},{} +{},{} @@\n", aLine + 1, aCount, bLine + 1, bCount) + lines;
    i = end;
  }
  return out;
}

} // namespace cutec::ptx
