//===- LayoutCommand.cpp - `cutec layout`: evaluate layout algebra --------===//
//
// Evaluates one expression, or one per line of standard input. Lines may read
// `EXPR => EXPECTED` (the reference-vector format): EXPR is evaluated, and with
// --check compared with EXPECTED under the vectors' comparison rule.
// Diagnostics point at the offending column with a caret.
//
//===----------------------------------------------------------------------===//
#include "tools/cutec/LayoutCommand.h"

#include "ir/layout/LayoutDraw.h"
#include "ir/layout/LayoutExprParser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

namespace cutec {
namespace {

class LayoutSession {
public:
  LayoutSession(const LayoutCommandOptions &options, llvm::StringRef inputName,
                llvm::StringRef input, llvm::raw_ostream &out)
      : options(options), out(out) {
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(input, inputName),
                                 llvm::SMLoc());
    buffer = sourceMgr.getMemoryBuffer(1)->getBuffer();
  }

  int run() {
    llvm::StringRef rest = buffer;
    while (!rest.empty()) {
      auto [line, next] = rest.split('\n');
      runLine(line);
      rest = next;
    }
    if (options.check)
      out << passed << " passed, " << failed << " failed\n";
    return failed == 0 ? 0 : 1;
  }

private:
  llvm::SMLoc locAt(llvm::StringRef line, size_t offset) {
    return llvm::SMLoc::getFromPointer(line.data() + std::min(offset, line.size()));
  }

  void error(llvm::SMLoc loc, const llvm::Twine &message) {
    sourceMgr.PrintMessage(llvm::errs(), loc, llvm::SourceMgr::DK_Error, message);
    ++failed;
  }

  /// Evaluates `text` (a slice of the buffer), reporting errors at their column.
  std::optional<LayoutValue> evaluate(llvm::StringRef text) {
    LayoutExprResult result = evaluateLayoutExpr(text);
    if (!result.value)
      error(locAt(text, result.errorOffset), result.error);
    return result.value;
  }

  void runLine(llvm::StringRef line) {
    llvm::StringRef trimmed = line.trim();
    if (trimmed.empty() || trimmed.starts_with("#"))
      return;
    size_t arrow = line.find("=>");
    llvm::StringRef exprText = line.substr(0, arrow);
    std::optional<LayoutValue> value = evaluate(exprText);
    if (!value)
      return;
    if (!options.check || arrow == llvm::StringRef::npos) {
      if (options.check) {
        error(locAt(line, line.size()), "expected '=> EXPECTED' to check against");
        return;
      }
      show(*value);
      return;
    }
    llvm::StringRef expectedText = line.substr(arrow + 2);
    std::optional<LayoutValue> expected = evaluate(expectedText);
    if (!expected)
      return;
    if (layoutValuesMatch(*value, *expected)) {
      ++passed;
      return;
    }
    error(locAt(line, line.find_first_not_of(" \t")),
          "mismatch: " + exprText.trim() + "\n  expected: " + expected->str() +
              "\n  actual:   " + value->str());
  }

  void show(const LayoutValue &value) {
    out << value.str() << "\n";
    if (!options.draw && options.svgPath.empty())
      return;
    auto table = tabulate(value);
    if (!table) {
      llvm::WithColor::error(llvm::errs(), "cutec") << llvm::toString(table.takeError()) << "\n";
      ++failed;
      return;
    }
    if (options.draw)
      out << drawAsText(*table);
    if (!options.svgPath.empty()) {
      std::error_code ec;
      llvm::raw_fd_ostream svg(options.svgPath, ec, llvm::sys::fs::OF_Text);
      if (ec) {
        llvm::WithColor::error(llvm::errs(), "cutec")
            << "cannot write '" << options.svgPath << "': " << ec.message() << "\n";
        ++failed;
        return;
      }
      svg << drawAsSvg(*table);
    }
  }

  const LayoutCommandOptions &options;
  llvm::raw_ostream &out;
  llvm::SourceMgr sourceMgr;
  llvm::StringRef buffer;
  int passed = 0, failed = 0;
};

} // namespace

int runLayoutCommand(const LayoutCommandOptions &options, llvm::StringRef inputName,
                     llvm::StringRef input, llvm::raw_ostream &out) {
  return LayoutSession(options, inputName, input, out).run();
}

} // namespace cutec
