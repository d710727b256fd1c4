// How long cutec takes to compile each example to PTX, in-process (no
// process start or library loading): source to kernel IR (parse and
// check), the passes (each pass at its best, summed), and printing the
// PTX, each the best of several runs, and the slowest pass of each example
// with its time.
//   build/bin/compile_bench [RUNS]      (default 7)
#include "codegen/ptx/PtxPrinter.h"
#include "driver/CompileKernel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

double secondsOf(auto &&work) {
  auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Times {
  double frontEnd = 1e30, passes = 1e30, print = 1e30;
  /// Each pass of the pipeline, in order, with its best time.
  std::vector<std::pair<std::string, double>> byPass;
};

/// The best of `runs` compilations of `path` for `arch`; false if it does
/// not compile.
bool measure(const std::string &path, llvm::StringRef arch, int runs, Times &best) {
  for (int run = 0; run < runs; ++run) {
    std::unique_ptr<cutec::CompiledSource> compiled;
    double frontEnd = secondsOf([&] {
      compiled = cutec::compileKernelFile(path, cutec::CompileStage::KernelIR, {}, arch);
    });
    if (!compiled)
      return false;
    std::vector<std::pair<std::string, double>> passes;
    cutec::PassManagerOptions options;
    options.passSeconds = &passes;
    compiled = cutec::compileKernelFile(path, cutec::CompileStage::MachineIR, options, arch);
    if (!compiled)
      return false;
    std::string ptx;
    llvm::raw_string_ostream os(ptx);
    double print = secondsOf([&] {
      if (cutec::ptx::printPtx(*compiled->module, {}, os))
        ptx.clear();
    });
    if (best.byPass.empty())
      best.byPass = passes;
    for (size_t i = 0; i < passes.size() && i < best.byPass.size(); ++i)
      best.byPass[i].second = std::min(best.byPass[i].second, passes[i].second);
    // The passes' time: each pass at its best.
    best.passes = 0;
    for (const auto &[name, seconds] : best.byPass)
      best.passes += seconds;
    best.frontEnd = std::min(best.frontEnd, frontEnd);
    best.print = std::min(best.print, print);
  }
  return true;
}

/// The examples that use Hopper's wgmma, which compile for sm_90a only (the
/// golden tests' list).
std::vector<std::string> hopperOnlyExamples() {
  std::vector<std::string> names;
  auto list = llvm::MemoryBuffer::getFile(CUTEC_SOURCE_DIR "/tests/golden/sm_90a-only.txt");
  if (!list)
    return names;
  llvm::SmallVector<llvm::StringRef, 8> lines;
  (*list)->getBuffer().split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines)
    names.push_back(line.trim().str());
  return names;
}

} // namespace

int main(int argc, char **argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 7;
  if (runs < 1) {
    std::fprintf(stderr, "usage: compile_bench [RUNS]\n");
    return 2;
  }
  std::vector<std::string> examples;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(CUTEC_EXAMPLES_DIR, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".cute")
      examples.push_back(it->path());
  std::sort(examples.begin(), examples.end());
  std::vector<std::string> hopperOnly = hopperOnlyExamples();
  std::printf("cutec compile times to PTX (sm_100a; wgmma examples sm_90a), best of %d runs, "
              "in ms\n",
              runs);
  std::printf("%-28s %9s %8s %8s %8s   %s\n", "example", "parse+IR", "passes", "print", "total",
              "slowest pass");
  bool ok = true;
  for (const std::string &path : examples) {
    Times t;
    std::string name = llvm::sys::path::stem(path).str();
    llvm::StringRef arch = llvm::is_contained(hopperOnly, name) ? "sm_90a" : "sm_100a";
    if (!measure(path, arch, runs, t)) {
      std::printf("%-28s does not compile\n", name.c_str());
      ok = false;
      continue;
    }
    auto slowest = std::max_element(t.byPass.begin(), t.byPass.end(),
                                    [](auto &a, auto &b) { return a.second < b.second; });
    std::printf("%-28s %9.2f %8.2f %8.2f %8.2f   %s %.2f\n", name.c_str(), 1e3 * t.frontEnd,
                1e3 * t.passes, 1e3 * t.print, 1e3 * (t.frontEnd + t.passes + t.print),
                slowest == t.byPass.end() ? "-" : slowest->first.c_str(),
                slowest == t.byPass.end() ? 0.0 : 1e3 * slowest->second);
  }
  return ok ? 0 : 1;
}
