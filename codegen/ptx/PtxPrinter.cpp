//===- PtxPrinter.cpp - Machine IR to PTX text ----------------------------===//
//
// Registers are virtual: every SSA value gets its own register of its class,
// numbered in order of definition, so the output is deterministic. Loops and
// conditionals become labels and branches; block arguments are registers
// that `yield` copies into.
//
//===----------------------------------------------------------------------===//
#include "codegen/ptx/PtxPrinter.h"

#include "codegen/ptx/MachineTypes.h"
#include "codegen/ptx/PtxInstructions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

#include <bit>
#include <fmt/format.h>

namespace cutec::ptx {
namespace {

using ir::OpKind;
using ir::Operation;
using ir::Value;

llvm::Error printerError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "PTX printer: " + message);
}

class KernelPrinter {
public:
  explicit KernelPrinter(const Operation &kernel) : kernel(kernel) {}

  llvm::Error print(llvm::raw_ostream &os) {
    const ir::Block &entry = *kernel.regions()[0]->blocks().front();
    if (llvm::Error e = printBlock(entry, 1))
      return e;
    std::string name = *kernel.attrAs<std::string>("name");
    os << ".visible .entry " << name << "(\n";
    for (size_t i = 0; i < entry.arguments().size(); ++i) {
      const Value *arg = entry.argument(i);
      bool isPointer = arg->type().isTensor();
      os << "\t.param ." << (isPointer ? "u64 " : "u32 ") << paramName(arg)
         << (i + 1 < entry.arguments().size() ? ",\n" : "\n");
    }
    os << ")\n";
    if (const IntTuple *block = kernel.attrAs<IntTuple>("block"))
      os << ".reqntid " << flatList(*block) << "\n";
    os << "{\n";
    for (RegisterClass rc : kAllRegisterClasses)
      if (counts[unsigned(rc)])
        os << "\t.reg " << info(rc).ptxType << " \t" << info(rc).prefix << "<"
           << counts[unsigned(rc)] << ">;\n";
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

  std::string reg(const Value *v) {
    auto it = registers.find(v);
    if (it != registers.end())
      return it->second;
    RegisterClass rc = registerClass(v->type().element());
    std::string name = (info(rc).prefix + llvm::Twine(counts[unsigned(rc)]++)).str();
    registers[v] = name;
    return name;
  }

  std::string freshPred() {
    return (info(RegisterClass::Pred).prefix + llvm::Twine(counts[0]++)).str();
  }

  std::string label(llvm::StringRef what) {
    return fmt::format("$L__{}_{}", what.str(), labelCount++);
  }

  void emit(unsigned indent, const std::string &line) {
    body += std::string(indent, '\t') + line + "\n";
  }

  void copy(unsigned indent, const Value *to, const Value *from) {
    RegisterClass rc = registerClass(to->type().element());
    emit(indent, fmt::format("{} \t{}, {};", info(rc).movOpcode.str(), reg(to), reg(from)));
  }

  llvm::Error printBlock(const ir::Block &block, unsigned indent) {
    for (const auto &op : block.operations())
      if (llvm::Error e = printOp(*op, indent))
        return e;
    return llvm::Error::success();
  }

  /// Copies yielded values into `targets`, through temporaries when a
  /// yielded value is itself one of the targets (a swap).
  void yieldInto(unsigned indent, const Operation &yield, llvm::ArrayRef<const Value *> targets) {
    bool overlaps = false;
    for (const Value *v : yield.operands())
      overlaps |= llvm::is_contained(targets, v);
    std::vector<std::unique_ptr<Value>> temps;
    for (size_t i = 0; i < targets.size(); ++i) {
      if (!overlaps) {
        copy(indent, targets[i], yield.operand(i));
        continue;
      }
      temps.push_back(std::make_unique<Value>(targets[i]->type(), nullptr, nullptr, 0));
      copy(indent, temps.back().get(), yield.operand(i));
    }
    for (size_t i = 0; i < temps.size(); ++i)
      copy(indent, targets[i], temps[i].get());
    // The temporaries' registers stay allocated; forget the dead pointers.
    for (auto &t : temps)
      registers.erase(t.get());
  }

  llvm::Error printFor(const Operation &op, unsigned indent) {
    const ir::Block &loopBody = *op.regions()[0]->blocks().front();
    const Value *iv = loopBody.argument(0);
    std::vector<const Value *> carried;
    for (size_t i = 1; i < loopBody.arguments().size(); ++i)
      carried.push_back(loopBody.argument(i));
    copy(indent, iv, op.operand(0));
    for (size_t i = 0; i < carried.size(); ++i)
      copy(indent, carried[i], op.operand(3 + i));
    std::string head = label("loop"), end = label("end"), pred = freshPred();
    body += head + ":\n";
    emit(indent, fmt::format("setp.ge.s32 \t{}, {}, {};", pred, reg(iv), reg(op.operand(1))));
    emit(indent, fmt::format("@{} bra.uni \t{};", pred, end));
    for (const auto &inner : loopBody.operations()) {
      if (inner->kind() == OpKind::Yield) {
        yieldInto(indent + 1, *inner, carried);
        continue;
      }
      if (llvm::Error e = printOp(*inner, indent + 1))
        return e;
    }
    emit(indent + 1,
         fmt::format("add.s32 \t{}, {}, {};", reg(iv), reg(iv), reg(op.operand(2))));
    emit(indent + 1, "bra.uni \t" + head + ";");
    body += end + ":\n";
    for (size_t i = 0; i < carried.size(); ++i)
      registers[op.result(i)] = reg(carried[i]);
    return llvm::Error::success();
  }

  llvm::Error printIf(const Operation &op, unsigned indent) {
    std::vector<const Value *> results;
    for (const auto &r : op.results())
      results.push_back(r.get());
    for (const Value *r : results)
      reg(r);
    std::string elseLabel = label("else"), end = label("endif");
    bool hasElse = op.regions().size() == 2;
    emit(indent, fmt::format("@!{} bra.uni \t{};", reg(op.operand(0)), hasElse ? elseLabel : end));
    for (size_t r = 0; r < op.regions().size(); ++r) {
      if (r == 1)
        body += elseLabel + ":\n";
      for (const auto &inner : op.regions()[r]->blocks().front()->operations()) {
        if (inner->kind() == OpKind::Yield) {
          yieldInto(indent + 1, *inner, results);
          continue;
        }
        if (llvm::Error e = printOp(*inner, indent + 1))
          return e;
      }
      if (r == 0 && hasElse)
        emit(indent + 1, "bra.uni \t" + end + ";");
    }
    body += end + ":\n";
    return llvm::Error::success();
  }

  std::string immediate(const Operation &op, RegisterClass rc) {
    if (const double *d = op.attrAs<double>("imm"))
      return fmt::format("0f{:08X}", std::bit_cast<uint32_t>(float(*d)));
    int64_t v = op.attrAs<int64_t>("imm") ? *op.attrAs<int64_t>("imm") : 0;
    if (rc == RegisterClass::B16)
      return fmt::format("0x{:04X}", uint16_t(v));
    return std::to_string(v);
  }

  llvm::Error printInstruction(const Operation &op, unsigned indent) {
    const std::string *opcode = op.attrAs<std::string>("opcode");
    const PtxInstruction *inst = opcode ? lookupPtxInstruction(*opcode) : nullptr;
    if (!inst)
      return printerError("unknown instruction '" + (opcode ? *opcode : "") + "'");
    if (op.results().size() != inst->numResults || op.operands().size() != inst->numOperands)
      return printerError("'" + *opcode + "' has the wrong number of operands");
    std::vector<std::string> r, a;
    for (const auto &v : op.results())
      r.push_back(reg(v.get()));
    for (const Value *v : op.operands())
      a.push_back(reg(v));
    auto offset = [&] {
      const int64_t *off = op.attrAs<int64_t>("offset");
      return !off || *off == 0 ? std::string() : fmt::format("+{}", *off);
    };
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
      text = fmt::format("{} \t{}, {}", m, r[0], *op.attrAs<std::string>("special"));
      break;
    case PtxSyntax::Param:
      text = fmt::format("{} \t{}, [{}]", m, r[0], *op.attrAs<std::string>("param"));
      break;
    case PtxSyntax::Load:
      text = fmt::format("{} \t{}, [{}{}]", m, r[0], a[0], offset());
      break;
    case PtxSyntax::Store:
      text = fmt::format("{} \t[{}{}], {}", m, a[0], offset(), a[1]);
      break;
    case PtxSyntax::Unpack2:
      text = fmt::format("{} \t{{{}, {}}}, {}", m, r[0], r[1], a[0]);
      break;
    case PtxSyntax::Pack2:
      text = fmt::format("{} \t{}, {{{}, {}}}", m, r[0], a[0], a[1]);
      break;
    }
    emit(indent, text + ";");
    return llvm::Error::success();
  }

  llvm::Error printOp(const Operation &op, unsigned indent) {
    switch (op.kind()) {
    case OpKind::PtxInst:
      return printInstruction(op, indent);
    case OpKind::For:
      return printFor(op, indent);
    case OpKind::If:
      return printIf(op, indent);
    case OpKind::Return:
      emit(indent, "ret;");
      return llvm::Error::success();
    default:
      return printerError("'" + ir::name(op.kind()) + "' should have been lowered to machine IR");
    }
  }

  const Operation &kernel;
  llvm::DenseMap<const Value *, std::string> registers;
  unsigned counts[std::size(kAllRegisterClasses)] = {};
  unsigned labelCount = 0;
  std::string body;
};

} // namespace

llvm::Error printPtx(const ir::Module &module, const PtxTarget &target, llvm::raw_ostream &os) {
  os << "//\n// Generated by cutec\n//\n\n";
  os << ".version " << target.version << "\n.target " << target.arch
     << "\n.address_size 64\n";
  for (const auto &kernel : module.kernels()) {
    os << "\n";
    if (llvm::Error e = KernelPrinter(*kernel).print(os))
      return e;
  }
  return llvm::Error::success();
}

} // namespace cutec::ptx
