// The argument lists of built-in functions, as the built-in table
// (frontend/Builtins.def) writes them:
//
//   "bar: mbarrier, parity: i32"      positional parameters and their kinds
//   "n: int[24..256 step 8]"          a compile-time integer in a range
//   "id: i32, *, threads: i32 = 0"    after `*`, keyword-only parameters
//   "-> i32"                          the result (intrinsics only)
//   "..."                             the handler checks its arguments itself
//
// Kinds: `i32` (an integer, compile-time or run-time, passed as an i32
// value), `bool` (a bool, passed as a value), `int` (a compile-time integer,
// optionally with a range `[lo..hi]` and `step k`), `flag` (a compile-time
// bool), `mbarrier` (one u64 element of a shared tensor), `smem` (a shared
// tensor), `gmem` (a tensor in global memory), `tensor` (any tensor),
// `str` (a string), `clc_response` (one u128 element of a shared tensor,
// where try_cancel writes its response) and `any`. A default is an integer, True, False or None
// (the argument may be left out, and is then the value None).
#ifndef CUTEC_FRONTEND_BUILTINSIGNATURE_H
#define CUTEC_FRONTEND_BUILTINSIGNATURE_H

#include "ir/core/Type.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cutec {

enum class ArgKind {
  I32,
  Bool,
  Int,
  Flag,
  Mbarrier,
  ClcResponse,
  Smem,
  Gmem,
  Tensor,
  String,
  Any
};

struct BuiltinParam {
  std::string name;
  ArgKind kind = ArgKind::Any;
  bool keywordOnly = false;
  /// `int[lo..hi step k]`.
  std::optional<int64_t> lo, hi;
  int64_t step = 1;
  /// Whether the parameter may be left out, and its default then: an
  /// integer (a flag's is 0 or 1), or none for None.
  bool optional = false;
  std::optional<int64_t> defaultValue;
};

struct BuiltinSignature {
  /// "...": the handler checks the arguments itself.
  bool unchecked = false;
  std::vector<BuiltinParam> params;
  /// What an intrinsic returns, if anything.
  std::optional<ir::DataType> result;

  size_t positionalCount() const;
  size_t requiredCount() const;
  /// The index of the parameter called `name`, or -1.
  int find(llvm::StringRef name) const;
};

/// Parses a signature of the built-in table. The table is part of the
/// compiler, so a malformed one is a programming error (reported by the
/// unit test that parses every row).
std::optional<BuiltinSignature> parseBuiltinSignature(llvm::StringRef text, std::string &error);

/// How a kind reads in messages: "a compile-time integer", "an mbarrier".
llvm::StringRef describeArgKind(ArgKind kind);

} // namespace cutec

#endif // CUTEC_FRONTEND_BUILTINSIGNATURE_H
