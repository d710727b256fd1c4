//===- main.cpp - The cutec driver ----------------------------------------===//
//
//   cutec KERNEL.cute [-o OUT] [--emit=ast|ir|ptx|cubin|emu|host] [--arch=ARCH]
//         [--print-after=PASS] [--print-after-all] [--time-passes] [--disable-pass=PASS]
//         [--fmad=false]
//         [-Xnvjitlink=OPT]
//   cutec run KERNEL.cute -D M=... --arg NAME=in.npy --out NAME=out.npy
//   cutec layout ['EXPR'] [--check] [--draw] [--svg FILE]
//   cutec ptx-diff A.ptx B.ptx
//
// LLVM-style options (llvm::cl): --help lists them, --version prints the
// version; unknown options and unreadable inputs are errors with exit code 1.
//
//===----------------------------------------------------------------------===//
#include "codegen/emu/EmuPrinter.h"
#include "codegen/host/HostPrinter.h"
#include "codegen/ptx/PtxPrinter.h"
#include "frontend/ASTPrinter.h"
#include "ir/core/Printer.h"
#include "target/ptx/Targets.h"
#include "passes/Passes.h"
#include "target/ptx/isel/InstructionSelection.h"
#include "driver/Pipeline.h"
#include "driver/CompileKernel.h"
#include "tools/cutec/LayoutCommand.h"
#include "codegen/cubin/NvJitLink.h"
#include "tools/cutec/PtxDiffCommand.h"
#include "run/RunCommand.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace {

cl::OptionCategory cutecCategory("cutec options");

// --- cutec layout -----------------------------------------------------------
cl::SubCommand layoutCommand("layout", "Evaluate CuTe layout algebra expressions");
cl::opt<std::string> layoutExpr(cl::Positional, cl::sub(layoutCommand), cl::desc("<expression>"),
                                cl::Optional);
cl::opt<bool> layoutCheck("check", cl::sub(layoutCommand),
                          cl::desc("Compare each 'EXPR => EXPECTED' line and report mismatches"));
cl::opt<bool> layoutDraw("draw", cl::sub(layoutCommand),
                         cl::desc("Draw the result as a 2-D table of indices"));
cl::opt<std::string> layoutSvg("svg", cl::sub(layoutCommand),
                               cl::desc("Write the index table as an SVG picture"),
                               cl::value_desc("file"));

// --- cutec ptx-diff ---------------------------------------------------------
cl::SubCommand ptxDiffCommand(
    "ptx-diff", "Compare two PTX files up to comments, white space and register/label "
                "renaming; exit 0 if equivalent, 1 if different, 2 if unreadable");
cl::list<std::string> ptxDiffFiles(cl::Positional, cl::sub(ptxDiffCommand),
                                   cl::desc("<a.ptx> <b.ptx>"), cl::OneOrMore);

// --- cutec run --------------------------------------------------------------
cl::SubCommand runCommand("run", "Compile a kernel's emulation in-process and run it on .npy "
                                 "inputs");
cl::opt<std::string> runInput(cl::Positional, cl::sub(runCommand), cl::desc("<kernel.cute>"),
                              cl::Required);
cl::list<std::string> runSizes("D", cl::sub(runCommand), cl::Prefix,
                               cl::desc("Value of a dynamic size: -D M=128"),
                               cl::value_desc("NAME=VALUE"));
cl::list<std::string> runArgs("arg", cl::sub(runCommand),
                              cl::desc("Input tensor: --arg mA=a.npy"),
                              cl::value_desc("NAME=FILE.npy"));
cl::list<std::string> runOuts("out", cl::sub(runCommand),
                              cl::desc("Output tensor written after the run: --out mC=c.npy"),
                              cl::value_desc("NAME=FILE.npy"));
cl::opt<std::string> runKernelName("kernel", cl::sub(runCommand),
                                   cl::desc("The kernel to run when the file has several"));
cl::opt<unsigned> runWorkers("workers", cl::sub(runCommand),
                             cl::desc("CPU threads running CTAs (default: all cores)"),
                             cl::init(0));
cl::opt<unsigned> runSms("sms", cl::sub(runCommand),
                         cl::desc("SMs of the GPU the run stands for, the sm_count() of a "
                                  "persistent kernel's grid (default: 148, a B200's)"),
                         cl::init(148));
cl::opt<unsigned> runSchedules("schedules", cl::sub(runCommand),
                               cl::desc("Run under N schedules (seeds S .. S+N-1): random "
                                        "interleavings and async completion times; any report "
                                        "names the seed that reproduces it (default: 1)"),
                               cl::value_desc("N"), cl::init(1));
cl::opt<uint64_t> runSeed("seed", cl::sub(runCommand),
                          cl::desc("The first schedule's seed; 0, the default, is the fixed "
                                   "round-robin schedule"),
                          cl::value_desc("S"), cl::init(0));
cl::opt<bool> runRaceCheck("race-check", cl::sub(runCommand),
                           cl::desc("Report data races: plain shared or global accesses of "
                                    "different threads, one a write, that no synchronisation "
                                    "orders, even where the schedule gave the right result"),
                           cl::init(false));
cl::opt<cutec::rt::Tcgen05Numerics> runTcgen05Numerics(
    "tcgen05-numerics", cl::sub(runCommand),
    cl::desc("The arithmetic of tcgen05.mma's floating-point kinds (Blackwell's is unmeasured)"),
    cl::init(cutec::rt::Tcgen05Numerics::F32Steps),
    cl::values(clEnumValN(cutec::rt::Tcgen05Numerics::F32Steps, "f32-steps",
                          "each product rounded to f32, added in k order with f32 "
                          "round-to-nearest additions (default)"),
               clEnumValN(cutec::rt::Tcgen05Numerics::Hopper, "hopper",
                          "the H100's measured wgmma arithmetic: exact products, one "
                          "truncated aligned sum per instruction (f16, bf16, tf32, e4m3, e5m2)")));

// --- cutec KERNEL.cute ------------------------------------------------------
enum class EmitKind { Ast, Ir, Ptx, Cubin, Emu, Host };
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel.cute>"), cl::Optional,
                               cl::cat(cutecCategory));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: standard output)"),
                                cl::value_desc("file"), cl::init("-"), cl::cat(cutecCategory));
cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to produce"), cl::init(EmitKind::Ptx),
    cl::values(clEnumValN(EmitKind::Ast, "ast", "the syntax tree"),
               clEnumValN(EmitKind::Ir, "ir", "the kernel IR"),
               clEnumValN(EmitKind::Ptx, "ptx", "PTX assembly (default)"),
               clEnumValN(EmitKind::Cubin, "cubin",
                          "a cubin (ELF), the PTX assembled by nvJitLink (default for -o "
                          "FILE.cubin)"),
               clEnumValN(EmitKind::Emu, "emu",
                          "the C++ emulation; with -o FILE.cpp also FILE.h declaring it"),
               clEnumValN(EmitKind::Host, "host",
                          "the host launcher header (CUDA driver API)")),
    cl::cat(cutecCategory));
cl::opt<std::string> arch("arch", cl::sub(cl::SubCommand::getTopLevel()), cl::sub(runCommand),
                          cl::desc("Target architecture: sm_100a (Blackwell, default), sm_103a, "
                                   "sm_100f (the sm_10x family), sm_120a, sm_121a (consumer "
                                   "Blackwell: no tensor memory) or sm_90a (Hopper)"),
                          cl::init("sm_100a"), cl::cat(cutecCategory));
cl::list<std::string>
    nvJitLinkOptions("Xnvjitlink",
                     cl::desc("Pass an option to nvJitLink with --emit=cubin (-Xnvjitlink=-O0)"),
                     cl::value_desc("option"), cl::cat(cutecCategory));

/// Pass pipeline options, for compiling and for `run`. libLLVM registers
/// options of the same names for its own pass managers, so these are created
/// in main() once LLVM's have been removed (see replaceLlvmPassOptions).
struct PipelineOptions {
  cl::list<std::string> printAfter{"print-after",
                                   cl::sub(cl::SubCommand::getTopLevel()),
                                   cl::sub(runCommand),
                                   cl::CommaSeparated,
                                   cl::desc("Print the IR after the named passes"),
                                   cl::value_desc("pass"),
                                   cl::cat(cutecCategory)};
  cl::opt<bool> printAfterAll{"print-after-all", cl::sub(cl::SubCommand::getTopLevel()),
                              cl::sub(runCommand), cl::desc("Print the IR after every pass"),
                              cl::cat(cutecCategory)};
  cl::opt<bool> timePasses{"time-passes", cl::sub(cl::SubCommand::getTopLevel()),
                           cl::sub(runCommand), cl::desc("Print the time each pass took"),
                           cl::cat(cutecCategory)};
  cl::opt<bool> fmad{"fmad", cl::sub(cl::SubCommand::getTopLevel()), cl::sub(runCommand),
                     cl::desc("Contract f32 a * b + c into fma, as nvcc does (default: true; "
                              "--fmad=false rounds the product and the sum separately)"),
                     cl::init(true), cl::cat(cutecCategory)};
  cl::list<std::string> disablePass{
      "disable-pass", cl::sub(cl::SubCommand::getTopLevel()), cl::sub(runCommand),
      cl::CommaSeparated,
      cl::desc("Leave out optimisation passes (exact-arith, narrow-pairs, licm); no result "
               "changes either way"),
      cl::value_desc("pass"), cl::cat(cutecCategory)};
};
PipelineOptions *pipelineOptions = nullptr;

void replaceLlvmPassOptions() {
  for (const char *name : {"print-after", "print-after-all", "time-passes"}) {
    auto &registered = cl::getRegisteredOptions(cl::SubCommand::getTopLevel());
    if (auto it = registered.find(name); it != registered.end())
      it->second->removeArgument();
  }
}

int fail(const Twine &message) {
  WithColor::error(errs(), "cutec") << message << "\n";
  return 1;
}

cutec::PassManagerOptions passOptions() {
  cutec::PassManagerOptions options;
  for (const std::string &name : pipelineOptions->printAfter)
    options.printAfter.insert(name);
  options.printAfterAll = pipelineOptions->printAfterAll;
  options.timePasses = pipelineOptions->timePasses;
  for (const std::string &name : pipelineOptions->disablePass)
    options.skip.insert(name);
  if (!pipelineOptions->fmad)
    options.skip.insert("fmad");
  return options;
}

int runLayout() {
  cutec::LayoutCommandOptions options;
  options.check = layoutCheck;
  options.draw = layoutDraw;
  options.svgPath = layoutSvg;
  if (layoutExpr.getNumOccurrences()) {
    options.expression = layoutExpr;
    return cutec::runLayoutCommand(options, "<command line>", layoutExpr, outs());
  }
  auto input = MemoryBuffer::getSTDIN();
  if (!input)
    return fail("cannot read standard input: " + input.getError().message());
  return cutec::runLayoutCommand(options, "<stdin>", (*input)->getBuffer(), outs());
}

int runPtxDiff() {
  if (ptxDiffFiles.size() != 2) {
    WithColor::error(errs(), "cutec") << "ptx-diff takes two files, got " << ptxDiffFiles.size()
                                      << "\n";
    return 2;
  }
  return cutec::runPtxDiffCommand(ptxDiffFiles[0], ptxDiffFiles[1], outs(), errs());
}

/// The emulation C++ of a lowered module; `headerInclude` as EmuOptions.
Expected<std::string> emulationSource(const cutec::CompiledSource &compiled,
                                      StringRef headerInclude) {
  cutec::emu::EmuOptions options;
  options.headerInclude = headerInclude.str();
  options.describeLocation = [&](SMLoc loc) {
    return cutec::describeLocation(compiled.sourceMgr, loc);
  };
  std::string text;
  raw_string_ostream os(text);
  if (Error e = cutec::emu::printEmulation(*compiled.module, options, os))
    return e;
  return text;
}

int unsupportedArch() {
  return fail("unsupported --arch '" + arch + "': cutec targets " + cutec::ptxTargetList());
}

/// The first --disable-pass that names no optimisation pass, if any.
std::optional<std::string> badDisabledPass() {
  for (const std::string &name : pipelineOptions->disablePass)
    if (!llvm::is_contained(cutec::optionalPasses(), name))
      return name;
  return std::nullopt;
}

int unsupportedDisabledPass(const std::string &name) {
  return fail("--disable-pass=" + name + ": only the optimisation passes " +
              llvm::join(cutec::optionalPasses(), ", ") + " can be left out");
}

int runRun() {
  if (!cutec::isSupportedArch(arch))
    return unsupportedArch();
  if (std::optional<std::string> bad = badDisabledPass())
    return unsupportedDisabledPass(*bad);
  auto compiled =
      cutec::compileKernelFile(runInput, cutec::CompileStage::MachineIR, passOptions(), arch);
  if (!compiled)
    return 1;
  auto source = emulationSource(*compiled, "");
  if (!source)
    return fail(toString(source.takeError()));
  cutec::RunOptions options;
  options.sizes.assign(runSizes.begin(), runSizes.end());
  options.args.assign(runArgs.begin(), runArgs.end());
  options.outs.assign(runOuts.begin(), runOuts.end());
  options.kernel = runKernelName;
  options.workers = runWorkers;
  options.sms = runSms;
  options.schedules = runSchedules;
  options.seed = runSeed;
  options.tcgen05Numerics = runTcgen05Numerics;
  options.raceCheck = runRaceCheck;
  return cutec::runKernel(*compiled->module, *source, options, outs(), errs());
}

/// Writes `text` to `path` ("-" is standard output), as text or bytes.
int writeOutput(StringRef path, StringRef text, sys::fs::OpenFlags flags = sys::fs::OF_Text) {
  std::error_code ec;
  ToolOutputFile output(path, ec, flags);
  if (ec)
    return fail("cannot write '" + path + "': " + ec.message());
  output.os() << text;
  output.keep();
  return 0;
}

/// --emit=emu with -o FILE.cpp also writes FILE.h, which FILE.cpp includes.
int emitEmulation(const cutec::CompiledSource &compiled) {
  if (outputFile == "-") {
    auto source = emulationSource(compiled, "");
    return source ? writeOutput("-", *source) : fail(toString(source.takeError()));
  }
  SmallString<128> header(outputFile);
  sys::path::replace_extension(header, "h");
  std::string headerText;
  raw_string_ostream headerStream(headerText);
  if (Error e = cutec::emu::printEmulationHeader(*compiled.module, headerStream))
    return fail(toString(std::move(e)));
  auto source = emulationSource(compiled, sys::path::filename(header));
  if (!source)
    return fail(toString(source.takeError()));
  if (int rc = writeOutput(header, headerText))
    return rc;
  return writeOutput(outputFile, *source);
}

/// What to produce: --emit, or a cubin for `-o FILE.cubin` without it.
EmitKind requestedEmit() {
  if (!emitKind.getNumOccurrences() && sys::path::extension(outputFile) == ".cubin")
    return EmitKind::Cubin;
  return emitKind;
}

/// The driver's phases, timed for --time-passes: cutec's own work, and
/// nvJitLink's assembly of its PTX (what ptxas would do).
struct PhaseTimers {
  TimerGroup group{"cutec-phases", "cutec and nvJitLink times"};
  Timer compile{"compile", "cutec: parse, check, passes", group};
  Timer print{"print", "cutec: print PTX", group};
  Timer load{"load", "nvJitLink: load the library", group};
  Timer assemble{"assemble", "nvJitLink: PTX to cubin", group};
  ~PhaseTimers() {
    if (pipelineOptions->timePasses)
      group.print(errs(), /*ResetAfterPrint=*/true);
  }
};

/// Runs `work` under `timer` when --time-passes asks for times.
template <typename F> auto timed(Timer &timer, F work) {
  TimeRegion region(pipelineOptions->timePasses ? &timer : nullptr);
  return work();
}

int runCompile() {
  if (inputFile.empty())
    return fail("no input file (see 'cutec --help')");
  if (!cutec::isSupportedArch(arch))
    return unsupportedArch();
  if (std::optional<std::string> bad = badDisabledPass())
    return unsupportedDisabledPass(*bad);
  EmitKind emit = requestedEmit();
  cutec::CompileStage stage = emit == EmitKind::Ast  ? cutec::CompileStage::Syntax
                              : emit == EmitKind::Ir ? cutec::CompileStage::KernelIR
                                                     : cutec::CompileStage::MachineIR;
  PhaseTimers timers;
  auto compiled = timed(timers.compile, [&] {
    return cutec::compileKernelFile(inputFile, stage, passOptions(), arch);
  });
  if (!compiled)
    return 1;

  std::string text;
  raw_string_ostream os(text);
  switch (emit) {
  case EmitKind::Ast:
    cutec::printAST(*compiled->syntax, compiled->sourceMgr, os);
    break;
  case EmitKind::Ir:
    cutec::ir::print(*compiled->module, os);
    break;
  case EmitKind::Ptx:
  case EmitKind::Cubin: {
    cutec::ptx::PtxTarget target;
    target.arch = arch;
    if (Error e = timed(timers.print,
                        [&] { return cutec::ptx::printPtx(*compiled->module, target, os); }))
      return fail(toString(std::move(e)));
    if (emit == EmitKind::Ptx)
      break;
    cutec::CubinOptions options;
    options.arch = arch;
    options.extraOptions.assign(nvJitLinkOptions.begin(), nvJitLinkOptions.end());
    auto nvJitLink = timed(timers.load, [] { return cutec::NvJitLink::load(); });
    if (!nvJitLink)
      return fail(toString(nvJitLink.takeError()));
    auto cubin = timed(timers.assemble, [&] { return nvJitLink->assemble(text, options); });
    if (!cubin)
      return fail(toString(cubin.takeError()));
    if (!cubin->infoLog.empty())
      errs() << cubin->infoLog << "\n";
    return writeOutput(outputFile, StringRef(cubin->bytes.data(), cubin->bytes.size()),
                       sys::fs::OF_None);
  }
  case EmitKind::Emu:
    return emitEmulation(*compiled);
  case EmitKind::Host:
    if (Error e = cutec::host::printHostLauncher(*compiled->module, os))
      return fail(toString(std::move(e)));
    break;
  }
  return writeOutput(outputFile, text);
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "cutec " << CUTEC_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
  });
  replaceLlvmPassOptions();
  PipelineOptions pipeline;
  pipelineOptions = &pipeline;
  cl::HideUnrelatedOptions({&cutecCategory});
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "cutec: a compiler for Blackwell tensor-core kernels\n", &errs()))
    return 1;
  if (layoutCommand)
    return runLayout();
  if (ptxDiffCommand)
    return runPtxDiff();
  if (runCommand)
    return runRun();
  return runCompile();
}
