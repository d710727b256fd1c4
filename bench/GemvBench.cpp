// The NVFP4 GEMV example: how long cutec takes to compile it, and how fast its
// emulation runs (rows x K per second) for M=7168, K=16384, L=1.
//   build/bin/gemv_bench
#include "Nvfp4GemvEmulated.h"

#include "codegen/emu/EmuPrinter.h"
#include "codegen/ptx/PtxPrinter.h"
#include "driver/CompileKernel.h"

#include <benchmark/benchmark.h>

#include <thread>

namespace {

void BM_CompileToPtx(benchmark::State &state) {
  for (auto _ : state) {
    auto compiled = cutec::compileKernelFile(CUTEC_GEMV_EXAMPLE, cutec::CompileStage::MachineIR,
                                             {});
    std::string ptx;
    llvm::raw_string_ostream os(ptx);
    if (!compiled || cutec::ptx::printPtx(*compiled->module, {}, os))
      return state.SkipWithError("the example does not compile");
    benchmark::DoNotOptimize(ptx);
  }
}
BENCHMARK(BM_CompileToPtx)->Unit(benchmark::kMillisecond);

void BM_CompileToEmulation(benchmark::State &state) {
  for (auto _ : state) {
    auto compiled = cutec::compileKernelFile(CUTEC_GEMV_EXAMPLE, cutec::CompileStage::MachineIR,
                                             {});
    std::string cpp;
    llvm::raw_string_ostream os(cpp);
    if (!compiled || cutec::emu::printEmulation(*compiled->module, {}, os))
      return state.SkipWithError("the example does not compile");
    benchmark::DoNotOptimize(cpp);
  }
}
BENCHMARK(BM_CompileToEmulation)->Unit(benchmark::kMillisecond);

void BM_EmulateGemv(benchmark::State &state) {
  const uint32_t m = 7168, k = 16384, l = 1;
  cutec::test::GemvProblem problem = cutec::test::makeGemvProblem(m, k, l, 1);
  std::vector<uint16_t> c(size_t(m) * l);
  for (auto _ : state)
    if (cutec::rt::Status status = cutec::test::runEmulatedGemv(problem, c); !status)
      return state.SkipWithError(status.error().c_str());
  state.counters["rowsK_per_s"] =
      benchmark::Counter(double(m) * k * l * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["workers"] = std::thread::hardware_concurrency();
}
BENCHMARK(BM_EmulateGemv)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
