//===- main.cpp - The cutec driver ----------------------------------------===//
//
//   cutec KERNEL.cute [-o OUT] [--emit=ast|ir|ptx|emu|host] [--arch=sm_100a]
//   cutec layout ['EXPR'] [--check] [--draw] [--svg FILE]
//
// LLVM-style options (llvm::cl): --help lists them, --version prints the
// version; unknown options and unreadable inputs are errors with exit code 1.
//
//===----------------------------------------------------------------------===//
#include "frontend/ASTPrinter.h"
#include "frontend/Parser.h"
#include "frontend/Sema.h"
#include "ir/core/Printer.h"
#include "tools/cutec/LayoutCommand.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
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

// --- cutec KERNEL.cute ------------------------------------------------------
enum class EmitKind { Ast, Ir, Ptx, Emu, Host };
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel.cute>"), cl::Optional,
                               cl::cat(cutecCategory));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: standard output)"),
                                cl::value_desc("file"), cl::init("-"), cl::cat(cutecCategory));
cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to produce"), cl::init(EmitKind::Ptx),
    cl::values(clEnumValN(EmitKind::Ast, "ast", "the syntax tree"),
               clEnumValN(EmitKind::Ir, "ir", "the kernel IR"),
               clEnumValN(EmitKind::Ptx, "ptx", "PTX assembly (default)"),
               clEnumValN(EmitKind::Emu, "emu", "the C++ emulation"),
               clEnumValN(EmitKind::Host, "host", "the host launcher header")),
    cl::cat(cutecCategory));
cl::opt<std::string> arch("arch", cl::desc("Target architecture"), cl::init("sm_100a"),
                          cl::cat(cutecCategory));

int fail(const Twine &message) {
  WithColor::error(errs(), "cutec") << message << "\n";
  return 1;
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

int runCompile() {
  if (inputFile.empty())
    return fail("no input file (see 'cutec --help')");
  auto source = MemoryBuffer::getFile(inputFile, /*IsText=*/true);
  if (!source)
    return fail("cannot open '" + inputFile + "': " + source.getError().message());

  SourceMgr sourceMgr;
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(std::move(*source), SMLoc());
  cutec::DiagnosticEngine diags(sourceMgr);
  std::unique_ptr<cutec::ast::Module> module = cutec::parseModule(sourceMgr, bufferId, diags);
  if (diags.hasErrors())
    return 1;
  std::unique_ptr<cutec::ir::Module> ir;
  if (emitKind != EmitKind::Ast) {
    ir = cutec::buildIR(*module, diags);
    if (!ir)
      return 1;
  }
  if (emitKind != EmitKind::Ast && emitKind != EmitKind::Ir)
    return fail("only --emit=ast and --emit=ir are available yet: the passes and the back ends "
                "are still to come");

  std::error_code ec;
  ToolOutputFile output(outputFile, ec, sys::fs::OF_Text);
  if (ec)
    return fail("cannot write '" + outputFile + "': " + ec.message());
  if (ir)
    cutec::ir::print(*ir, output.os());
  else
    cutec::printAST(*module, sourceMgr, output.os());
  output.keep();
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "cutec " << CUTEC_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
  });
  cl::HideUnrelatedOptions({&cutecCategory});
  if (!cl::ParseCommandLineOptions(argc, argv, "cutec: a compiler for Blackwell tensor-core kernels\n",
                                   &errs()))
    return 1;
  if (layoutCommand)
    return runLayout();
  return runCompile();
}
