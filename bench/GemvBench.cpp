// The NVFP4 GEMV example: how long cutec takes to compile it, and how fast its
// emulation runs (rows x K per second) for M=7168, K=16384, L=1.
//   build/bin/gemv_bench
#include "nvfp4_gemv_emu.h"

#include "codegen/emu/EmuPrinter.h"
#include "codegen/ptx/PtxPrinter.h"
#include "tools/cutec/CompileKernel.h"

#include <benchmark/benchmark.h>

#include <random>
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
  std::mt19937 rng(1);
  std::vector<uint8_t> a(size_t(m) * k * l / 2), b(size_t(128) * k * l / 2);
  std::vector<uint8_t> sfa(size_t(m) * k * l / 16), sfb(size_t(128) * k * l / 16);
  for (auto *image : {&a, &b})
    for (uint8_t &byte : *image)
      byte = uint8_t((rng() % 4) | ((rng() % 4) << 4));
  for (auto *image : {&sfa, &sfb})
    for (uint8_t &byte : *image)
      byte = uint8_t(0x38 + 8 * (rng() % 3));
  std::vector<uint16_t> c(size_t(m) * l);

  cutec::rt::MemoryMap memory;
  for (auto [data, size, name] :
       {std::tuple<const void *, size_t, const char *>{a.data(), a.size(), "mA"},
        {b.data(), b.size(), "mB"},
        {sfa.data(), sfa.size(), "mSFA"},
        {sfb.data(), sfb.size(), "mSFB"},
        {c.data(), c.size() * 2, "mC"}})
    if (!memory.add(data, size, name))
      return state.SkipWithError("cannot register the buffers");
  auto address = [](const void *p) { return uint64_t(reinterpret_cast<uintptr_t>(p)); };
  nvfp4_gemv_Params params{address(a.data()), address(b.data()), address(sfa.data()),
                           address(sfb.data()), address(c.data()), m, k, l};
  cutec::rt::LaunchConfig config;
  config.grid = nvfp4_gemv_grid(m, k, l);
  config.block = nvfp4_gemv_block();
  for (auto _ : state) {
    cutec::rt::Status status = cutec::rt::launch(cutec_kernel_nvfp4_gemv, config, &params, memory);
    if (!status)
      return state.SkipWithError(status.error().c_str());
  }
  state.counters["rowsK_per_s"] =
      benchmark::Counter(double(m) * k * l * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["workers"] = std::thread::hardware_concurrency();
}
BENCHMARK(BM_EmulateGemv)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
