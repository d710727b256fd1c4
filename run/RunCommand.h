//===- RunCommand.h - `cutec run`: execute a kernel's emulation -----------===//
//
//   cutec run k.cute -D M=128 -D K=256 --arg mA=a.npy ... --out mC=c.npy
//
// The driver parses and lowers the kernel and prints its emulation; this
// engine binds the sizes, reads and checks the .npy inputs, compiles the
// emulation in-process, runs it and writes the outputs. docs/run.md is the
// user's description.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_TOOLS_RUNCOMMAND_H
#define CUTEC_TOOLS_RUNCOMMAND_H

#include "ir/core/IR.h"
#include "cache/DiskCache.h"
#include "runtime/numerics/Tcgen05Numerics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace cutec {

struct RunOptions {
  /// `-D NAME=VALUE`: one per dynamic size of the kernel.
  std::vector<std::string> sizes;
  /// `--arg NAME=FILE.npy`: the inputs, by tensor parameter name.
  std::vector<std::string> args;
  /// `--out NAME=FILE.npy`: the tensors (and buffers) written back after the run.
  std::vector<std::string> outs;
  /// `--buffer NAME=FILE.npy`: global memory that no parameter names.
  std::vector<std::string> buffers;
  /// `--addresses PARAM=NAME,...`: the i64 table PARAM holds these buffers'
  /// addresses (run/RunBuffers.h).
  std::vector<std::string> addresses;
  /// `--kernel NAME`; empty: the module's only kernel.
  std::string kernel;
  /// `--workers N`: threads running CTAs; 0: the hardware's concurrency.
  unsigned workers = 0;
  /// `--sms N`: what sm_count() in the kernel's grid is.
  unsigned sms = 148;
  /// `--schedules N` and `--seed S`: run under N schedules, seeds S to
  /// S + N - 1 (runtime/engine/ScheduleExploration.h); seed 0 is the fixed one.
  unsigned schedules = 1;
  uint64_t seed = 0;
  /// `--tcgen05-numerics=f32-steps|hopper`: the arithmetic of tcgen05.mma's
  /// floating-point kinds (LaunchConfig::tcgen05Numerics).
  rt::Tcgen05Numerics tcgen05Numerics = rt::Tcgen05Numerics::F32Steps;
  /// `--race-check`: the data-race detector (LaunchConfig::raceCheck).
  bool raceCheck = false;
  /// The directory holding runtime/, for the emulation's includes; empty:
  /// the JIT's default (see CxxCompileOptions::runtimeIncludeDir).
  std::string includeRoot;
  /// Where the emulation's object code is kept between runs (`--no-cache`:
  /// none, and it is compiled every run).
  std::optional<DiskCache> cache;
};

/// Runs `cutec run`: `module` is the kernel IR (or machine IR: the kernel
/// ops' attributes and entry-block arguments are the same) and
/// `emulationCpp` its emulation from emu::printEmulation with the
/// declarations inline. Prints what ran and what was written to `out`, one
/// `cutec: error: ...` to `err` on failure. Returns the exit code: 0 on
/// success, 1 on any error.
int runKernel(const ir::Module &module, llvm::StringRef emulationCpp, const RunOptions &options,
              llvm::raw_ostream &out, llvm::raw_ostream &err);

} // namespace cutec

#endif
