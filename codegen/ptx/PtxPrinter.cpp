//===- PtxPrinter.cpp - Machine IR to PTX text ----------------------------===//
//
// Registers are virtual: every SSA value gets its own register of its class.
// Loops and conditionals become labels and branches; block arguments are
// registers that `yield` copies into. Branches are plain `bra`, never
// `bra.uni`: a condition on the thread index (or a loop from it) diverges
// within a warp, and ptxas finds the uniform ones itself.
//
//===----------------------------------------------------------------------===//
#include "codegen/ptx/PtxPrinter.h"

#include "codegen/ptx/MachineIRPrinter.h"
#include "target/ptx/PtxInstructions.h"
#include "ir/core/KernelArguments.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <bit>
#include <tuple>
#include <fmt/format.h>

namespace cutec::ptx {
namespace {

using ir::Operation;
using ir::Value;

class KernelPrinter : public MachineIRPrinter {
public:
  KernelPrinter(const Operation &kernel, const llvm::SourceMgr *lineInfo)
      : MachineIRPrinter(kernel, [](RegisterClass rc) { return info(rc).prefix.str(); }),
        kernel(kernel), lineInfo(lineInfo) {}

  llvm::Error print(llvm::raw_ostream &os) {
    const ir::Block &entry = *kernel.regions()[0]->blocks().front();
    if (llvm::Error e = printBlock(entry, 1))
      return e;
    os << ".visible .entry " << *kernel.get(ir::attr::name) << "(\n";
    for (size_t i = 0; i < entry.arguments().size(); ++i) {
      const Value *arg = entry.argument(i);
      if (arg->type().isTensorMap())
        os << "\t.param .align 64 .b8 " << paramName(arg) << "[128]";
      else
        os << "\t.param ." << (arg->type().isTensor() ? "u64" : ir::ptxParameterType(kernel, *arg))
           << " " << paramName(arg);
      os << (i + 1 < entry.arguments().size() ? ",\n" : "\n");
    }
    os << ")\n";
    if (const IntTuple *block = kernel.get(ir::attr::block))
      os << ".reqntid " << flatList(*block) << "\n";
    // setmaxnreg needs ptxas to know each thread's registers at the entry.
    if (const int64_t *registers = kernel.get(ir::attr::maxRegisters))
      os << ".maxnreg " << *registers << "\n";
    if (const IntTuple *cluster = kernel.get(ir::attr::cluster))
      os << ".reqnctapercluster " << flatList(*cluster) << "\n";
    os << "{\n";
    for (RegisterClass rc : kAllRegisterClasses)
      if (registerCount(rc))
        os << "\t.reg " << info(rc).ptxType << " \t" << info(rc).prefix << "<"
           << registerCount(rc) << ">;\n";
    os << "\n" << body << "}\n";
    return llvm::Error::success();
  }

private:
  static std::string flatList(const IntTuple &t) {
    std::vector<IntTuple> leaves;
    flattenInto(t, leaves);
    std::string s;
    for (size_t i = 0; i < leaves.size(); ++i)
      s += (i ? ", " : "") + leaves[i].str();
    return s;
  }

  static std::string paramName(const Value *arg) {
    return arg->nameHint().empty() ? "param_" + std::to_string(arg->index()) : arg->nameHint();
  }

  llvm::Error error(const llvm::Twine &message) const override {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "PTX printer: " + message);
  }

  void line(unsigned indent, const std::string &text) { emit(indent, text, "\t"); }

  std::string label(llvm::StringRef what) {
    return fmt::format("$L__{}_{}", what.str(), labelCount++);
  }

  /// `.loc FILE LINE COLUMN` before the instructions of `op`, when line
  /// information is on and the position differs from the last one given.
  void locate(const Operation &op, unsigned indent) {
    if (!lineInfo || !op.loc().isValid())
      return;
    unsigned file = lineInfo->FindBufferContainingLoc(op.loc());
    if (!file)
      return;
    auto [lineNumber, column] = lineInfo->getLineAndColumn(op.loc(), file);
    std::tuple<unsigned, unsigned, unsigned> position{file, lineNumber, column};
    if (position == lastPosition)
      return;
    lastPosition = position;
    line(indent, fmt::format(".loc {} {} {}", file, lineNumber, column));
  }

  void copy(unsigned indent, RegisterClass rc, const std::string &to, const std::string &from) {
    if (to != from)
      line(indent, fmt::format("{} \t{}, {};", info(rc).movOpcode.str(), to, from));
  }
  void copy(unsigned indent, const Value *to, const Value *from) {
    copy(indent, registerClass(to->type().element()), reg(to), reg(from));
  }

  // A swap (a yielded value that is itself a target) goes through fresh
  // registers so no target is overwritten before it is read.
  void printYield(const Operation &, llvm::ArrayRef<Value *> values, unsigned indent,
                  llvm::ArrayRef<const Value *> targets) override {
    bool overlaps = false;
    for (const Value *v : values)
      overlaps |= llvm::is_contained(targets, v);
    if (!overlaps) {
      for (size_t i = 0; i < targets.size(); ++i)
        copy(indent, targets[i], values[i]);
      return;
    }
    std::vector<std::string> temps;
    for (size_t i = 0; i < targets.size(); ++i) {
      RegisterClass rc = registerClass(targets[i]->type().element());
      temps.push_back(freshRegister(rc));
      copy(indent, rc, temps.back(), reg(values[i]));
    }
    for (size_t i = 0; i < targets.size(); ++i)
      copy(indent, registerClass(targets[i]->type().element()), reg(targets[i]), temps[i]);
  }

  llvm::Error printFor(const Operation &op, unsigned indent) override {
    locate(op, indent);
    LoopParts loop = loopParts(op);
    copy(indent, loop.inductionVariable, op.operand(0));
    Copies initial = takeInitialRegisters(op, op.operands().drop_front(3), loop.carried);
    for (size_t i = 0; i < initial.to.size(); ++i)
      copy(indent, initial.to[i], initial.from[i]);
    std::string head = label("loop"), end = label("end"), pred = freshRegister(RegisterClass::Pred);
    body += head + ":\n";
    std::string iv = reg(loop.inductionVariable);
    line(indent, fmt::format("setp.ge.s32 \t{}, {}, {};", pred, iv, reg(op.operand(1))));
    line(indent, fmt::format("@{} bra \t{};", pred, end));
    if (llvm::Error e =
            printRegionBody(*op.regions()[0]->blocks().front(), indent + 1, loop.carried))
      return e;
    line(indent + 1, fmt::format("add.s32 \t{}, {}, {};", iv, iv, reg(op.operand(2))));
    line(indent + 1, "bra \t" + head + ";");
    body += end + ":\n";
    aliasResults(op, loop.carried);
    return llvm::Error::success();
  }

  // The condition's forwarded values go to the body's arguments before the
  // exit branch, so that they are also the loop's results after it.
  void beginWhile(const Operation &op, unsigned indent) override {
    locate(op, indent);
    std::string head = label("while");
    whileLabels.emplace_back(head, label("endwhile"));
    body += head + ":\n";
  }
  void exitWhileUnless(const Value *condition, unsigned indent) override {
    line(indent, fmt::format("@!{} bra \t{};", reg(condition), whileLabels.back().second));
  }
  void endWhile(unsigned indent) override {
    line(indent + 1, "bra \t" + whileLabels.back().first + ";");
    body += whileLabels.back().second + ":\n";
    whileLabels.pop_back();
  }

  llvm::Error printIf(const Operation &op, unsigned indent) override {
    locate(op, indent);
    std::vector<const Value *> results = branchResults(op);
    std::string elseLabel = label("else"), end = label("endif");
    bool hasElse = op.regions().size() == 2;
    line(indent, fmt::format("@!{} bra \t{};", reg(op.operand(0)), hasElse ? elseLabel : end));
    for (size_t r = 0; r < op.regions().size(); ++r) {
      if (r == 1)
        body += elseLabel + ":\n";
      if (llvm::Error e =
              printRegionBody(*op.regions()[r]->blocks().front(), indent + 1, results))
        return e;
      if (r == 0 && hasElse)
        line(indent + 1, "bra \t" + end + ";");
    }
    body += end + ":\n";
    return llvm::Error::success();
  }

  void printReturn(unsigned indent) override { line(indent, "ret;"); }

  std::string immediate(const Operation &op, RegisterClass rc) {
    if (const double *d = op.get<double>(ir::attr::imm))
      return fmt::format("0f{:08X}", std::bit_cast<uint32_t>(float(*d)));
    int64_t v = op.get<int64_t>(ir::attr::imm) ? *op.get<int64_t>(ir::attr::imm) : 0;
    if (rc == RegisterClass::B16)
      return fmt::format("0x{:04X}", uint16_t(v));
    return std::to_string(v);
  }

  llvm::Error printInstruction(const Operation &op, unsigned indent) override {
    const std::string *opcode = op.get(ir::attr::opcode);
    const PtxInstruction *inst = opcode ? lookupPtxInstruction(*opcode) : nullptr;
    if (!inst)
      return error("unknown instruction '" + (opcode ? *opcode : "") + "'");
    if (op.results().size() != inst->numResults || op.operands().size() != inst->numOperands)
      return error("'" + *opcode + "' has the wrong number of operands");
    locate(op, indent);
    // wgmma reads and writes one register list, its last operands: an
    // accumulator register that nothing else reads (RegisterHandOver)
    // becomes its result's, and the others are copied first (ptxas would
    // wait for an in-flight wgmma before copying a register it writes).
    const bool wgmma = isWgmmaSyntax(inst->syntax);
    const size_t firstAccumulator = op.operands().size() - op.results().size();
    std::vector<bool> copied(op.results().size(), false);
    if (wgmma)
      for (size_t i = 0; i < op.results().size(); ++i) {
        const Value *accumulator = op.operand(unsigned(firstAccumulator + i));
        copied[i] = !handOver.takesRegisters(op, accumulator) ||
                    !alias(op.result(unsigned(i)), accumulator);
      }
    std::vector<std::string> r, a;
    for (const auto &v : op.results())
      r.push_back(reg(v.get()));
    for (const Value *v : op.operands())
      a.push_back(reg(v));
    const int64_t *off = op.get<int64_t>(ir::attr::offset);
    std::string offset = !off || *off == 0 ? "" : fmt::format("+{}", *off);
    std::string m = inst->mnemonic.str(), text;
    switch (inst->syntax) {
    case PtxSyntax::Plain:
      text = m + " \t" + llvm::join(r, ", ") + (a.empty() ? "" : ", " + llvm::join(a, ", "));
      break;
    case PtxSyntax::Immediate:
      text = fmt::format("{} \t{}, {}", m, r[0],
                         immediate(op, registerClass(op.result()->type().element())));
      break;
    case PtxSyntax::Special:
      text = fmt::format("{} \t{}, {}", m, r[0], *op.get(ir::attr::special));
      break;
    case PtxSyntax::Param:
      text = fmt::format("{} \t{}, [{}]", m, r[0], *op.get(ir::attr::param));
      break;
    case PtxSyntax::Load:
      text = fmt::format("{} \t{}, [{}{}]", m, r[0], a[0], offset);
      break;
    case PtxSyntax::Store:
      text = fmt::format("{} \t[{}{}], {}", m, a[0], offset, a[1]);
      break;
    case PtxSyntax::StoreVector:
      text = fmt::format("{} \t[{}{}], {{{}}}", m, a[0], offset,
                         llvm::join(llvm::ArrayRef(a).drop_front(), ", "));
      break;
    case PtxSyntax::LoadVector:
      text = fmt::format("{} \t{{{}}}, [{}{}]", m, llvm::join(r, ", "), a[0], offset);
      break;
    case PtxSyntax::LoadVectorImm:
      text = fmt::format("{} \t{{{}}}, [{}], {}", m, llvm::join(r, ", "), a[0],
                         immediate(op, RegisterClass::B32));
      break;
    case PtxSyntax::StoreVectorImm:
      text = fmt::format("{} \t[{}], {}, {{{}}}", m, a[0], immediate(op, RegisterClass::B32),
                         llvm::join(llvm::ArrayRef(a).drop_front(), ", "));
      break;
    case PtxSyntax::Unpack2:
      text = fmt::format("{} \t{{{}, {}}}, {}", m, r[0], r[1], a[0]);
      break;
    case PtxSyntax::Pack2:
      text = fmt::format("{} \t{}, {{{}, {}}}", m, r[0], a[0], a[1]);
      break;
    case PtxSyntax::Symbol:
      text = fmt::format("{} \t{}, {}", m, r[0], *op.get(ir::attr::symbol));
      break;
    case PtxSyntax::LoadArg:
      text = fmt::format("{} \t{}, [{}], {}", m, r[0], a[0],
                         llvm::join(llvm::ArrayRef(a).drop_front(), ", "));
      break;
    case PtxSyntax::Bare:
      text = m;
      break;
    case PtxSyntax::Operands:
      text = m + " \t" + llvm::join(a, ", ");
      break;
    case PtxSyntax::Address:
      text = fmt::format("{} \t[{}]", m, a[0]);
      break;
    case PtxSyntax::Mma:
      text = fmt::format("{} \t[{}], {}", m, a[0], llvm::join(llvm::ArrayRef(a).drop_front(), ", "));
      break;
    case PtxSyntax::MmaBlockScaled:
      text = fmt::format("{} \t[{}], {}, {}, {}, [{}], [{}], {}", m, a[0], a[1], a[2], a[3], a[4],
                         a[5], a[6]);
      break;
    case PtxSyntax::MmaTmemA:
      text = fmt::format("{} \t[{}], [{}], {}", m, a[0], a[1],
                         llvm::join(llvm::ArrayRef(a).drop_front(2), ", "));
      break;
    case PtxSyntax::WaitLoop: {
      std::string again = label("wait"), done = freshRegister(RegisterClass::Pred);
      body += again + ":\n";
      line(indent, fmt::format("{} \t{}, [{}], {};", m, done, a[0], a[1]));
      text = fmt::format("@!{} bra \t{}", done, again);
      break;
    }
    case PtxSyntax::TensorLoad:
      text = fmt::format("{} \t[{}], [{}, {{{}}}], [{}]", m, a[1], a[0],
                         llvm::join(llvm::ArrayRef(a).drop_front(3), ", "), a[2]);
      break;
    case PtxSyntax::Immediates:
      text = m + " \t" + immediateList(op);
      break;
    case PtxSyntax::Elect:
      text = fmt::format("{} \t_|{}, 0x{:08x}", m, r[0],
                         uint32_t((*op.get(ir::attr::imms))[0].leaf().staticValue()));
      break;
    case PtxSyntax::SinkAddress:
      text = fmt::format("{} \t_, [{}]", m, a[0]);
      break;
    case PtxSyntax::AddressPair:
      text = fmt::format("{} \t[{}], [{}]", m, a[0], a[1]);
      break;
    case PtxSyntax::GuardedVector4:
      text = fmt::format("@{} {} \t{{{}, _}}, {}", a[0], m, llvm::join(r, ", "), a[1]);
      break;
    case PtxSyntax::TensorLoadMulticast:
      text = fmt::format("{} \t[{}], [{}, {{{}}}], [{}], {}", m, a[1], a[0],
                         llvm::join(llvm::ArrayRef(a).drop_front(4), ", "), a[2], a[3]);
      break;
    case PtxSyntax::TensorStore:
      text = fmt::format("{} \t[{}, {{{}}}], [{}]", m, a[0],
                         llvm::join(llvm::ArrayRef(a).drop_front(2), ", "), a[1]);
      break;
    case PtxSyntax::BareImmediate:
      text = fmt::format("{} \t{}", m, immediate(op, RegisterClass::B32));
      break;
    case PtxSyntax::Wgmma:
    case PtxSyntax::WgmmaRegisterA: {
      // The accumulator registers that could not be the results' are
      // copied into them first.
      const char *mov = registerClass(op.result()->type().element()) == RegisterClass::F32
                            ? "mov.f32"
                            : "mov.b32";
      for (size_t i = 0; i < r.size(); ++i)
        if (copied[i])
          line(indent, fmt::format("{} \t{}, {};", mov, r[i], a[firstAccumulator + i]));
      // A's descriptor, or its registers in braces; B's descriptor, scale-d.
      llvm::ArrayRef<std::string> aOperands = llvm::ArrayRef(a).take_front(firstAccumulator - 2);
      std::string aText = inst->syntax == PtxSyntax::Wgmma
                              ? aOperands.front()
                              : "{" + llvm::join(aOperands, ", ") + "}";
      std::string imms = immediateList(op);
      text = fmt::format("{} \t{{{}}}, {}, {}, {}{}", m, llvm::join(r, ", "), aText,
                         a[firstAccumulator - 2], a[firstAccumulator - 1],
                         imms.empty() ? "" : ", " + imms);
      break;
    }
    }
    line(indent, text + ";");
    return llvm::Error::success();
  }

  /// "1, 128": the "imms" attribute of an Immediates instruction.
  static std::string immediateList(const Operation &op) {
    std::string text;
    if (const IntTuple *imms = op.get(ir::attr::imms))
      for (const IntTuple &v : imms->elements())
        text += (text.empty() ? "" : ", ") + v.str();
    return text;
  }

  const Operation &kernel;
  const llvm::SourceMgr *lineInfo;
  /// The (file, line, column) of the last `.loc`.
  std::tuple<unsigned, unsigned, unsigned> lastPosition{0, 0, 0};
  unsigned labelCount = 0;
  /// The head and exit labels of the `while` loops being printed.
  std::vector<std::pair<std::string, std::string>> whileLabels;
};

} // namespace

llvm::Error printPtx(const ir::Module &module, const PtxTarget &target, llvm::raw_ostream &os) {
  os << "//\n// Generated by cutec\n//\n\n";
  os << ".version " << target.version << "\n.target " << target.arch
     << "\n.address_size 64\n";
  if (target.lineInfo) {
    // Absolute paths, as nvcc writes them, so that tools find the files
    // from any folder.
    os << "\n";
    for (unsigned file = 1; file <= target.lineInfo->getNumBuffers(); ++file) {
      llvm::SmallString<256> path(target.lineInfo->getMemoryBuffer(file)->getBufferIdentifier());
      llvm::sys::fs::make_absolute(path);
      llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
      os << ".file " << file << " \"";
      for (char c : path) // a PTX string: quotes and backslashes escaped
        os << (c == '"' || c == '\\' ? "\\" : "") << c;
      os << "\"\n";
    }
  }
  // The dynamic shared memory that shared_tensor allocates from, aligned for
  // the most demanding allocation of any kernel.
  int64_t sharedAlign = 0;
  for (const auto &kernel : module.kernels())
    if (const int64_t *align = kernel->get(ir::attr::sharedAlign))
      sharedAlign = std::max(sharedAlign, *align);
  if (sharedAlign)
    os << "\n.extern .shared .align " << sharedAlign << " .b8 cutec_smem[];\n";
  for (const auto &kernel : module.kernels()) {
    os << "\n";
    if (llvm::Error e = KernelPrinter(*kernel, target.lineInfo).print(os))
      return e;
  }
  return llvm::Error::success();
}

} // namespace cutec::ptx
