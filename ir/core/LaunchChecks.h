//===- LaunchChecks.h - What every launcher of a kernel must check --------===//
//
// A kernel's code may rely on facts about its launch arguments: each tensor
// parameter's base address is a multiple of 16 bytes, or of the larger
// alignment an `assume_aligned` fact states for it, and each `assume_divby`
// fact holds for its dynamic size. The emulation's descriptor and the host
// launcher refuse arguments that break one; both print the checks from here,
// so they cannot drift apart.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_LAUNCHCHECKS_H
#define CUTEC_IR_CORE_LAUNCHCHECKS_H

#include "ir/core/IR.h"

#include <string>
#include <vector>

namespace cutec::ir {

/// Every tensor parameter's base address is a multiple of this many bytes.
constexpr int64_t kTensorBaseAlignment = 16;

/// The size that `sm_count()` in a kernel's grid stands for: the number of
/// SMs of the device it is launched on. The host launcher asks the device;
/// the emulation's grid function and `cutec run` take it as an argument.
inline constexpr const char *kSmCountSize = "sm_count";

/// Whether the kernel's grid depends on sm_count().
bool gridUsesSmCount(const Operation &kernel);

/// The alignment in bytes of the base address of the tensor parameter
/// `name`: its `assume_aligned` fact's, else kTensorBaseAlignment.
int64_t tensorBaseAlignment(const Operation &kernel, llvm::StringRef name);

struct LaunchCheck {
  std::string field; // the parameter's name (its field in the argument struct)
  int64_t divisor;   // the value must be a multiple of it
  bool isAddress;    // a tensor base address (else a dynamic size)
};

/// The checks of `kernel`, parameters in order, then the assumptions.
std::vector<LaunchCheck> launchChecks(const Operation &kernel);

/// C++ statements that test each check on `access + field` (e.g. "p->") and,
/// for the first that fails, write a message with std::snprintf to
/// `message` (of `size` bytes) and `return false;`.
std::string printLaunchChecks(const Operation &kernel, const std::string &access,
                              const std::string &indent);

} // namespace cutec::ir

#endif
