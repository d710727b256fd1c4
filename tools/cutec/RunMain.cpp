//===- RunMain.cpp - `cutec run`: a kernel's emulation on .npy inputs -----===//
//
//   cutec run KERNEL.cute -D M=... --arg NAME=in.npy --out NAME=out.npy
//
// `cutec run` executes this program (cutec-run, beside cutec), which links
// the JIT and the runtime; the compiler itself loads neither.
//
//===----------------------------------------------------------------------===//
#include "cache/DiskCache.h"
#include "run/RunCommand.h"
#include "tools/cutec/DriverOptions.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using cutec::cli::cutecCategory;

namespace {

cl::opt<std::string> runInput(cl::Positional, cl::desc("<kernel.cute>"), cl::Required,
                              cl::cat(cutecCategory));
cl::list<std::string> runSizes("D", cl::Prefix, cl::desc("Value of a dynamic size: -D M=128"),
                               cl::value_desc("NAME=VALUE"), cl::cat(cutecCategory));
cl::list<std::string> runArgs("arg", cl::desc("Input tensor: --arg mA=a.npy"),
                              cl::value_desc("NAME=FILE.npy"), cl::cat(cutecCategory));
cl::list<std::string> runOuts("out", cl::desc("Output tensor written after the run: --out mC=c.npy"),
                              cl::value_desc("NAME=FILE.npy"), cl::cat(cutecCategory));
cl::list<std::string> runBuffers("buffer",
                                 cl::desc("Global memory no parameter names, from a file (a "
                                          "group's tensor): --buffer a0=a0.npy"),
                                 cl::value_desc("NAME=FILE.npy"), cl::cat(cutecCategory));
cl::list<std::string> runAddresses("addresses",
                                   cl::desc("Fill an i64 tensor parameter with the addresses of "
                                            "buffers: --addresses ptrs=a0,b0,a1,b1"),
                                   cl::value_desc("PARAM=NAME,..."), cl::cat(cutecCategory));
cl::opt<std::string> runKernelName("kernel",
                                   cl::desc("The kernel to run when the file has several"),
                                   cl::cat(cutecCategory));
cl::opt<unsigned> runWorkers("workers", cl::desc("CPU threads running CTAs (default: all cores)"),
                             cl::init(0), cl::cat(cutecCategory));
cl::opt<unsigned> runSms("sms",
                         cl::desc("SMs of the GPU the run stands for, the sm_count() of a "
                                  "persistent kernel's grid (default: 148, a B200's)"),
                         cl::init(148), cl::cat(cutecCategory));
cl::opt<unsigned> runSchedules("schedules",
                               cl::desc("Run under N schedules (seeds S .. S+N-1): random "
                                        "interleavings and async completion times; any report "
                                        "names the seed that reproduces it (default: 1)"),
                               cl::value_desc("N"), cl::init(1), cl::cat(cutecCategory));
cl::opt<uint64_t> runSeed("seed",
                          cl::desc("The first schedule's seed; 0, the default, is the fixed "
                                   "round-robin schedule"),
                          cl::value_desc("S"), cl::init(0), cl::cat(cutecCategory));
cl::opt<bool> runNoCache("no-cache",
                         cl::desc("Compile the emulation even if the cache ($CUTEC_CACHE_DIR, "
                                  "default ~/.cache/cutec) holds its object code, and keep "
                                  "nothing there"),
                         cl::init(false), cl::cat(cutecCategory));
cl::opt<bool> runRaceCheck("race-check",
                           cl::desc("Report data races: plain shared or global accesses of "
                                    "different threads, one a write, that no synchronisation "
                                    "orders, even where the schedule gave the right result"),
                           cl::init(false), cl::cat(cutecCategory));
cl::opt<cutec::rt::Tcgen05Numerics> runTcgen05Numerics(
    "tcgen05-numerics",
    cl::desc("The arithmetic of tcgen05.mma's floating-point kinds (Blackwell's is unmeasured)"),
    cl::init(cutec::rt::Tcgen05Numerics::F32Steps),
    cl::values(clEnumValN(cutec::rt::Tcgen05Numerics::F32Steps, "f32-steps",
                          "each product rounded to f32, added in k order with f32 "
                          "round-to-nearest additions (default)"),
               clEnumValN(cutec::rt::Tcgen05Numerics::Hopper, "hopper",
                          "the H100's measured wgmma arithmetic: exact products, one "
                          "truncated aligned sum per instruction (f16, bf16, tf32, e4m3, e5m2)")),
    cl::cat(cutecCategory));

int runRun(const cutec::cli::PipelineOptions &pipeline) {
  if (int rc = cutec::cli::checkArchAndPasses(pipeline))
    return rc;
  auto compiled = cutec::compileKernelFile(runInput, cutec::CompileStage::MachineIR,
                                           pipeline.passOptions(), cutec::cli::arch);
  if (!compiled)
    return 1;
  auto source = cutec::cli::emulationSource(*compiled, "");
  if (!source)
    return cutec::cli::fail(toString(source.takeError()));
  cutec::RunOptions options;
  options.sizes.assign(runSizes.begin(), runSizes.end());
  options.args.assign(runArgs.begin(), runArgs.end());
  options.outs.assign(runOuts.begin(), runOuts.end());
  options.buffers.assign(runBuffers.begin(), runBuffers.end());
  options.addresses.assign(runAddresses.begin(), runAddresses.end());
  options.kernel = runKernelName;
  options.workers = runWorkers;
  options.sms = runSms;
  options.schedules = runSchedules;
  options.seed = runSeed;
  options.tcgen05Numerics = runTcgen05Numerics;
  options.raceCheck = runRaceCheck;
  if (!runNoCache)
    options.cache = cutec::DiskCache::fromEnvironment();
  return cutec::runKernel(*compiled->module, *source, options, outs(), errs());
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::SetVersionPrinter(cutec::cli::printVersion);
  cutec::cli::removeLlvmPassOptions();
  cutec::cli::PipelineOptions pipeline;
  cl::HideUnrelatedOptions({&cutecCategory});
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "cutec run: compile a kernel's emulation in-process and run "
                                   "it on .npy inputs\n",
                                   &errs()))
    return 1;
  return runRun(pipeline);
}
