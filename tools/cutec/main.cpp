//===- main.cpp - The cutec driver ----------------------------------------===//
//
//   cutec KERNEL.cute [-o OUT] [--emit=ast|ir|ptx|cubin|emu|host|json] [--arch=ARCH]
//         [--print-after=PASS] [--print-after-all] [--time-passes] [--disable-pass=PASS]
//         [--fmad=false] [--lineinfo] [--no-cache]
//         [-Xptxas=OPT] [-Xnvjitlink=OPT]
//   (KERNEL.cute may be -, the standard input)
//   cutec run KERNEL.cute -D M=... --arg NAME=in.npy --out NAME=out.npy   (cutec-run)
//   cutec layout ['EXPR'] [--check] [--draw] [--svg FILE]
//   cutec ptx-diff A.ptx B.ptx
//
// LLVM-style options (llvm::cl): --help lists them, --version prints the
// version; unknown options and unreadable inputs are errors with exit code 1.
// `cutec run` executes cutec-run, beside this program, so that compiling
// loads neither the JIT nor Clang (RunMain.cpp).
//
//===----------------------------------------------------------------------===//
#include "codegen/emu/EmuPrinter.h"
#include "codegen/host/HostPrinter.h"
#include "codegen/ptx/PtxPrinter.h"
#include "frontend/ASTPrinter.h"
#include "ir/core/Printer.h"
#include "driver/CompileKernel.h"
#include "driver/KernelSignature.h"
#include "tools/cutec/LayoutCommand.h"
#include "codegen/cubin/CubinAssembler.h"
#include "tools/cutec/DriverOptions.h"
#include "tools/cutec/OutputCache.h"
#include "cache/DiskCache.h"
#include "tools/cutec/PtxDiffCommand.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <cerrno>
#include <cstring>
#include <optional>
#include <unistd.h>
#include <vector>

using namespace llvm;
using cutec::cli::cutecCategory;
using cutec::cli::fail;

namespace {

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

// --- cutec run (cutec-run) ---------------------------------------------------
// Listed for --help; main() executes cutec-run before parsing.
cl::SubCommand runCommand("run", "Compile a kernel's emulation in-process and run it on .npy "
                                 "inputs (cutec run --help)");

// --- cutec KERNEL.cute ------------------------------------------------------
const cutec::cli::PipelineOptions *pipelineOptions = nullptr;

enum class EmitKind { Ast, Ir, Ptx, Cubin, Emu, Host, Json };
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
                          "a cubin (ELF), the PTX assembled by ptxas (default for -o "
                          "FILE.cubin)"),
               clEnumValN(EmitKind::Emu, "emu",
                          "the C++ emulation; with -o FILE.cpp also FILE.h declaring it"),
               clEnumValN(EmitKind::Host, "host",
                          "the host launcher header (CUDA driver API)"),
               clEnumValN(EmitKind::Json, "json",
                          "one JSON object: the PTX, the emulation and each kernel's signature "
                          "(what the Python package reads)")),
    cl::cat(cutecCategory));
cl::opt<bool> lineInfo("lineinfo",
                       cl::desc("Emit .file/.loc line information, so that Nsight Compute and "
                                "cuda-gdb map each instruction to the .cute line that wrote it "
                                "(with --emit=cubin, ptxas keeps it: -lineinfo)"),
                       cl::cat(cutecCategory));
cl::opt<bool> noCache("no-cache",
                      cl::desc("Compile even if the cache holds this output, and keep nothing "
                               "there (the cache: $CUTEC_CACHE_DIR, else ~/.cache/cutec)"),
                      cl::cat(cutecCategory));
cl::list<std::string>
    ptxasOptions("Xptxas", cl::desc("Pass an option to ptxas with --emit=cubin (-Xptxas=-v)"),
                 cl::value_desc("option"), cl::cat(cutecCategory));
cl::list<std::string>
    nvJitLinkOptions("Xnvjitlink",
                     cl::desc("Assemble --emit=cubin with nvJitLink instead of ptxas, passing it "
                              "an option (-Xnvjitlink=-O0)"),
                     cl::value_desc("option"), cl::cat(cutecCategory));

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
    auto source = cutec::cli::emulationSource(compiled, "");
    return source ? writeOutput("-", *source) : fail(toString(source.takeError()));
  }
  SmallString<128> header(outputFile);
  sys::path::replace_extension(header, "h");
  std::string headerText;
  raw_string_ostream headerStream(headerText);
  if (Error e = cutec::emu::printEmulationHeader(*compiled.module, headerStream))
    return fail(toString(std::move(e)));
  auto source = cutec::cli::emulationSource(compiled, sys::path::filename(header));
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

/// The driver's phases, timed for --time-passes: cutec's own work, and the
/// assembler's (ptxas or nvJitLink) with --emit=cubin.
struct PhaseTimers {
  /// `assembler` is the cubin assembler's name; empty without one.
  explicit PhaseTimers(StringRef assembler)
      : group("cutec-phases",
              assembler.empty() ? "cutec times" : ("cutec and " + assembler + " times").str()) {
    compile.init("compile", "cutec: parse, check, passes", group);
    print.init("print", "cutec: print PTX", group);
    load.init("load", (assembler + ": load the library").str(), group);
    assemble.init("assemble", (assembler + ": PTX to cubin").str(), group);
  }
  TimerGroup group;
  Timer compile, print, load, assemble;
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

/// The kernel's source text: the input file, or standard input for "-".
std::optional<std::string> readSource() {
  auto source = MemoryBuffer::getFileOrSTDIN(inputFile, /*IsText=*/true);
  if (!source) {
    fail("cannot open '" + inputFile + "': " + source.getError().message());
    return std::nullopt;
  }
  return (*source)->getBuffer().str();
}

/// The file name diagnostics show.
std::string sourceName() { return inputFile == "-" ? std::string("<stdin>") : inputFile.getValue(); }

/// What --emit=cubin asks the assembler for.
cutec::CubinRequest cubinRequest() {
  cutec::CubinRequest request;
  request.arch = cutec::cli::arch;
  request.lineInfo = lineInfo;
  request.ptxasOptions.assign(ptxasOptions.begin(), ptxasOptions.end());
  request.nvJitLinkOptions.assign(nvJitLinkOptions.begin(), nvJitLinkOptions.end());
  return request;
}

/// What `emit` writes, from the compiled kernel; an error message on failure.
/// For --emit=cubin, `assembler` makes the cubin and its messages that are
/// not errors (warnings, -Xptxas=-v) go to `messages`.
Expected<std::string> produce(EmitKind emit, const cutec::CompiledSource &compiled,
                              PhaseTimers &timers, cutec::CubinAssembler *assembler,
                              std::string &messages) {
  std::string text;
  raw_string_ostream os(text);
  auto ptx = [&]() -> Error {
    cutec::ptx::PtxTarget target;
    target.arch = cutec::cli::arch;
    if (lineInfo)
      target.lineInfo = &compiled.sourceMgr;
    return timed(timers.print, [&] { return cutec::ptx::printPtx(*compiled.module, target, os); });
  };
  switch (emit) {
  case EmitKind::Ast:
    cutec::printAST(*compiled.syntax, compiled.sourceMgr, os);
    return text;
  case EmitKind::Ir:
    cutec::ir::print(*compiled.module, os);
    return text;
  case EmitKind::Ptx:
    if (Error e = ptx())
      return e;
    return text;
  case EmitKind::Cubin: {
    if (Error e = ptx())
      return e;
    if (std::string warning = assembler->fallbackWarning(); !warning.empty())
      messages += "cutec: warning: " + warning + "\n";
    if (!assembler->usesPtxas())
      if (Error e = timed(timers.load, [&] { return assembler->load(); }))
        return e;
    auto cubin = timed(timers.assemble, [&] { return assembler->assemble(text); });
    if (!cubin)
      return cubin.takeError();
    if (!cubin->infoLog.empty())
      messages += cubin->infoLog + "\n";
    return std::string(cubin->bytes.begin(), cubin->bytes.end());
  }
  case EmitKind::Json: {
    if (Error e = ptx())
      return e;
    auto emulation = cutec::cli::emulationSource(compiled, "");
    if (!emulation)
      return emulation.takeError();
    json::Object bundle{{"ptx", std::move(text)},
                        {"emulation", std::move(*emulation)},
                        {"signature", cutec::describeKernels(*compiled.module)}};
    std::string out;
    raw_string_ostream bundleStream(out);
    bundleStream << json::Value(std::move(bundle)) << "\n";
    return out;
  }
  case EmitKind::Emu:
    break;
  case EmitKind::Host:
    if (Error e = cutec::host::printHostLauncher(*compiled.module, os))
      return e;
    return text;
  }
  return createStringError("unreachable emit kind");
}

/// The cache that holds this compile's output: for PTX, cubins and JSON,
/// unless --no-cache, or an option that prints while compiling, asks for a
/// compile.
std::optional<cutec::DiskCache> outputCache(EmitKind emit) {
  if (noCache || (emit != EmitKind::Ptx && emit != EmitKind::Cubin && emit != EmitKind::Json) ||
      pipelineOptions->timePasses || pipelineOptions->printAfterAll ||
      !pipelineOptions->printAfter.empty())
    return std::nullopt;
  cutec::DiskCache cache = cutec::DiskCache::fromEnvironment();
  return cache.enabled() ? std::optional<cutec::DiskCache>(cache) : std::nullopt;
}

std::string cacheKey(EmitKind emit, const std::string &source, const char *argv0,
                     const cutec::CubinAssembler *assembler) {
  cutec::cli::OutputKeyParts parts;
  parts.identity = cutec::cli::executableIdentity(argv0);
  parts.emit = emit == EmitKind::Ptx ? "ptx" : emit == EmitKind::Cubin ? "cubin" : "json";
  parts.arch = cutec::cli::arch;
  parts.fmad = pipelineOptions->fmad;
  parts.lineInfo = lineInfo;
  parts.disabledPasses.assign(pipelineOptions->disablePass.begin(),
                              pipelineOptions->disablePass.end());
  if (emit == EmitKind::Cubin) {
    parts.nvJitLinkOptions.assign(nvJitLinkOptions.begin(), nvJitLinkOptions.end());
    parts.assembler = assembler->cacheKey();
  }
  parts.fileName = sourceName();
  if (lineInfo && inputFile != "-") {
    SmallString<256> path(inputFile);
    sys::fs::make_absolute(path);
    parts.lineInfoPath = std::string(path);
  }
  parts.source = source;
  return cutec::cli::outputCacheKey(parts);
}

int writeResult(EmitKind emit, StringRef output) {
  return writeOutput(outputFile, output,
                     emit == EmitKind::Cubin ? sys::fs::OF_None : sys::fs::OF_Text);
}

int runCompile(const char *argv0) {
  if (inputFile.empty())
    return fail("no input file (see 'cutec --help')");
  if (int rc = cutec::cli::checkArchAndPasses(*pipelineOptions))
    return rc;
  EmitKind emit = requestedEmit();
  std::optional<std::string> source = readSource();
  if (!source)
    return 1;
  // The assembler is chosen first: which one it is, and its options, are
  // part of the cache key.
  std::optional<cutec::CubinAssembler> assembler;
  if (emit == EmitKind::Cubin) {
    auto chosen = cutec::CubinAssembler::choose(cubinRequest());
    if (!chosen)
      return fail(toString(chosen.takeError()));
    assembler.emplace(std::move(*chosen));
  }
  std::optional<cutec::DiskCache> cache = outputCache(emit);
  std::string key = cache ? cacheKey(emit, *source, argv0, assembler ? &*assembler : nullptr) : "";
  if (cache)
    if (auto entry = cache->get(cutec::cli::kOutputCacheKind, key))
      if (auto hit = cutec::cli::decodeOutputEntry(entry->getBuffer())) {
        errs() << hit->first;
        return writeResult(emit, hit->second);
      }

  cutec::CompileStage stage = emit == EmitKind::Ast  ? cutec::CompileStage::Syntax
                              : emit == EmitKind::Ir ? cutec::CompileStage::KernelIR
                                                     : cutec::CompileStage::MachineIR;
  PhaseTimers timers(assembler ? assembler->name() : "");
  std::string diagnostics;
  raw_string_ostream diagnosticStream(diagnostics);
  auto compiled = timed(timers.compile, [&] {
    return cutec::compileKernelSource(sourceName(), *source, stage,
                                       pipelineOptions->passOptions(), cutec::cli::arch,
                                       diagnosticStream);
  });
  errs() << diagnostics;
  if (!compiled)
    return 1;
  if (emit == EmitKind::Emu)
    return emitEmulation(*compiled);
  // The assembler's messages are kept with the output, as cutec's are.
  std::string assemblerMessages;
  Expected<std::string> output =
      produce(emit, *compiled, timers, assembler ? &*assembler : nullptr, assemblerMessages);
  errs() << assemblerMessages;
  diagnostics += assemblerMessages;
  if (!output)
    return fail(toString(output.takeError()));
  if (cache)
    cache->put(cutec::cli::kOutputCacheKind, key,
               cutec::cli::encodeOutputEntry(diagnostics, *output));
  return writeResult(emit, *output);
}

/// `cutec run ARGS...`: executes cutec-run ARGS... from this program's folder.
int execRun(int argc, char **argv) {
  static int anchor;
  SmallString<256> program(sys::path::parent_path(sys::fs::getMainExecutable(argv[0], &anchor)));
  sys::path::append(program, "cutec-run");
  std::vector<char *> args = {const_cast<char *>("cutec run")};
  args.insert(args.end(), argv + 2, argv + argc);
  args.push_back(nullptr);
  execv(program.c_str(), args.data());
  return fail("cannot execute '" + program + "' for 'cutec run': " + std::strerror(errno) +
              " (it is the build's target cutec-run)");
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && StringRef(argv[1]) == "run")
    return execRun(argc, argv);
  InitLLVM init(argc, argv);
  cl::SetVersionPrinter(cutec::cli::printVersion);
  cutec::cli::removeLlvmPassOptions();
  cutec::cli::PipelineOptions pipeline;
  pipelineOptions = &pipeline;
  cl::HideUnrelatedOptions({&cutecCategory});
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "cutec: a compiler for Blackwell tensor-core kernels\n", &errs()))
    return 1;
  if (layoutCommand)
    return runLayout();
  if (ptxDiffCommand)
    return runPtxDiff();
  return runCompile(argv[0]);
}
