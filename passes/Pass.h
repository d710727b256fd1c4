//===- Pass.h - A transformation of one kernel ----------------------------===//
#ifndef CUTEC_PASSES_PASS_H
#define CUTEC_PASSES_PASS_H

#include "ir/core/IR.h"

#include "llvm/ADT/Twine.h"

#include <functional>

namespace cutec {

/// What a pass may use besides the IR: a way to report user errors at a
/// source location (a layout that does not fit, a TMEM budget exceeded...).
class PassContext {
public:
  using ErrorHandler = std::function<void(llvm::SMLoc, const llvm::Twine &)>;
  explicit PassContext(ErrorHandler onError) : onError(std::move(onError)) {}

  void error(llvm::SMLoc loc, const llvm::Twine &message) {
    ++errors;
    onError(loc, message);
  }
  unsigned errorCount() const { return errors; }

private:
  ErrorHandler onError;
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
