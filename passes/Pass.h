//===- Pass.h - A transformation of one kernel ----------------------------===//
#ifndef CUTEC_PASSES_PASS_H
#define CUTEC_PASSES_PASS_H

#include "ir/core/IR.h"

#include "llvm/ADT/Twine.h"

#include <functional>
#include <optional>
#include <string>

namespace cutec {

/// What a pass may use besides the IR: a way to report user errors at a
/// source location (a layout that does not fit, a TMEM budget exceeded...),
/// with notes that point at other places the error involves, and warnings
/// about what is probably, not certainly, a mistake.
class PassContext {
public:
  using ErrorHandler = std::function<void(llvm::SMLoc, const llvm::Twine &)>;
  explicit PassContext(ErrorHandler onError, ErrorHandler onNote = {}, ErrorHandler onWarning = {})
      : onError(std::move(onError)), onNote(std::move(onNote)), onWarning(std::move(onWarning)) {}

  void error(llvm::SMLoc loc, const llvm::Twine &message) {
    ++errors;
    onError(loc, message);
  }
  /// A probable mistake; compilation goes on.
  void warning(llvm::SMLoc loc, const llvm::Twine &message) {
    if (onWarning)
      onWarning(loc, message);
  }
  /// Another place that matters to the last error or warning ("the load is
  /// here").
  void note(llvm::SMLoc loc, const llvm::Twine &message) {
    if (onNote)
      onNote(loc, message);
  }
  unsigned errorCount() const { return errors; }

  /// The built-in call the user wrote at a source location
  /// ("warpgroup.fence()"), if the front end finds one there: messages name
  /// an op by it rather than by the IR op it became.
  using BuiltinNamer = std::function<std::optional<std::string>(llvm::SMLoc)>;
  void setBuiltinNamer(BuiltinNamer namer) { builtinNamer = std::move(namer); }
  /// How a message names `op`: the built-in call at its location, else
  /// 'its.ir_name'.
  std::string opName(const ir::Operation &op) const {
    if (builtinNamer)
      if (std::optional<std::string> name = builtinNamer(op.loc()))
        return *name;
    return ("'" + ir::name(op.kind()) + "'").str();
  }

private:
  ErrorHandler onError, onNote, onWarning;
  BuiltinNamer builtinNamer;
  unsigned errors = 0;
};

class Pass {
public:
  virtual ~Pass() = default;
  /// The name used by --print-after and --time-passes (e.g. "lower-indexing").
  virtual llvm::StringRef name() const = 0;
  /// Rewrites `kernel`; user errors go to `context`.
  virtual void run(ir::Operation &kernel, PassContext &context) = 0;
};

} // namespace cutec

#endif
