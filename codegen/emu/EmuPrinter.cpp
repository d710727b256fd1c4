//===- EmuPrinter.cpp - Machine IR to the C++ emulation -------------------===//
#include "codegen/emu/EmuPrinter.h"

#include "codegen/ptx/MachineTypes.h"
#include "codegen/ptx/PtxInstructions.h"

#include "llvm/ADT/DenseMap.h"

#include <bit>
#include <fmt/format.h>

namespace cutec::emu {
namespace {

using ir::OpKind;
using ir::Operation;
using ir::Value;
using ptx::RegisterClass;

llvm::Error emuError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "emulation printer: " + message);
}

std::string kernelName(const Operation &kernel) { return *kernel.attrAs<std::string>("name"); }

std::string paramName(const Value *arg) {
  return arg->nameHint().empty() ? "param_" + std::to_string(arg->index()) : arg->nameHint();
}

/// The dimensions of `block` or `grid`, as C++ expressions over the dynamic
/// sizes (which the grid helper takes as arguments).
std::string dim3Expression(const IntTuple &t) {
  std::vector<IntTuple> leaves;
  flattenInto(t, leaves);
  std::vector<std::string> parts;
  for (const IntTuple &leaf : leaves) {
    std::string e = leaf.leaf().str();
    // ceil_div(a,b) is spelled as a function of the runtime header.
    parts.push_back("uint32_t(" + e + ")");
  }
  while (parts.size() < 3)
    parts.push_back("1u");
  return "cutec::rt::Dim3{" + parts[0] + ", " + parts[1] + ", " + parts[2] + "}";
}

void printDeclarations(const Operation &kernel, llvm::raw_ostream &os) {
  std::string name = kernelName(kernel);
  const ir::Block &entry = *kernel.regions()[0]->blocks().front();
  os << "/// The parameters of kernel " << name << ", in PTX .param order.\n";
  os << "struct " << name << "_Params {\n";
  std::vector<std::string> sizes;
  for (const auto &arg : entry.arguments()) {
    bool isPointer = arg->type().isTensor();
    os << "  " << (isPointer ? "uint64_t " : "uint32_t ") << paramName(arg.get()) << ";\n";
    if (!isPointer)
      sizes.push_back(paramName(arg.get()));
  }
  os << "};\n";
  os << "extern \"C\" const cutec::rt::KernelDescriptor cutec_kernel_" << name << ";\n";
  std::string args;
  for (size_t i = 0; i < sizes.size(); ++i)
    args += (i ? ", " : "") + std::string("uint32_t ") + sizes[i];
  if (const IntTuple *block = kernel.attrAs<IntTuple>("block"))
    os << "inline cutec::rt::Dim3 " << name << "_block() { return " << dim3Expression(*block)
       << "; }\n";
  if (const IntTuple *grid = kernel.attrAs<IntTuple>("grid")) {
    os << "inline cutec::rt::Dim3 " << name << "_grid(" << args << ") {\n";
    os << "  auto ceil_div = [](uint32_t a, uint32_t b) { return (a + b - 1) / b; };\n";
    os << "  (void)ceil_div;\n";
    os << "  return " << dim3Expression(*grid) << ";\n}\n";
  }
}

class BodyPrinter {
public:
  BodyPrinter(const Operation &kernel, const EmuOptions &options)
      : kernel(kernel), options(options) {}

  llvm::Error print(llvm::raw_ostream &os) {
    std::string name = kernelName(kernel);
    const ir::Block &entry = *kernel.regions()[0]->blocks().front();
    if (llvm::Error e = printBlock(entry, 1))
      return e;
    os << "static void " << name << "_body(cutec::rt::Thread &t, const void *rawParams) {\n";
    os << "  const auto *params = static_cast<const " << name << "_Params *>(rawParams);\n";
    os << "  (void)params;\n";
    for (RegisterClass rc : ptx::kAllRegisterClasses) {
      unsigned n = counts[unsigned(rc)];
      if (!n)
        continue;
      os << "  " << ptx::info(rc).cxxType << " ";
      for (unsigned i = 0; i < n; ++i)
        os << (i ? ", " : "") << prefix(rc) << i << "{}";
      os << ";\n";
    }
    os << body << "}\n\n";
    os << "extern \"C\" const cutec::rt::KernelDescriptor cutec_kernel_" << name << " = {\n"
       << "    \"" << name << "\", " << name << "_body, sizeof(" << name
       << "_Params), /*usesBarriers=*/false, /*staticSharedBytes=*/0};\n";
    return llvm::Error::success();
  }

private:
  static std::string prefix(RegisterClass rc) { return ptx::info(rc).prefix.drop_front().str(); }

  std::string reg(const Value *v) {
    auto it = registers.find(v);
    if (it != registers.end())
      return it->second;
    RegisterClass rc = ptx::registerClass(v->type().element());
    std::string name = prefix(rc) + std::to_string(counts[unsigned(rc)]++);
    registers[v] = name;
    return name;
  }

  void emit(unsigned indent, const std::string &line) {
    body += std::string(2 * indent, ' ') + line + "\n";
  }

  llvm::Error printBlock(const ir::Block &block, unsigned indent) {
    for (const auto &op : block.operations())
      if (llvm::Error e = printOp(*op, indent))
        return e;
    return llvm::Error::success();
  }

  /// Assigns yielded values to `targets` as one parallel copy.
  void yieldInto(unsigned indent, const Operation &yield, llvm::ArrayRef<const Value *> targets) {
    std::vector<std::string> temps;
    for (size_t i = 0; i < targets.size(); ++i) {
      RegisterClass rc = ptx::registerClass(targets[i]->type().element());
      temps.push_back(fmt::format("{} y{} = {};", ptx::info(rc).cxxType.str(), i,
                                  reg(yield.operand(i))));
    }
    for (size_t i = 0; i < targets.size(); ++i)
      emit(indent, temps[i]);
    for (size_t i = 0; i < targets.size(); ++i)
      emit(indent, fmt::format("{} = y{};", reg(targets[i]), i));
  }

  llvm::Error printRegionBody(const ir::Block &block, unsigned indent,
                              llvm::ArrayRef<const Value *> yieldTargets) {
    for (const auto &inner : block.operations()) {
      if (inner->kind() == OpKind::Yield) {
        emit(indent, "{");
        yieldInto(indent + 1, *inner, yieldTargets);
        emit(indent, "}");
        continue;
      }
      if (llvm::Error e = printOp(*inner, indent))
        return e;
    }
    return llvm::Error::success();
  }

  llvm::Error printFor(const Operation &op, unsigned indent) {
    const ir::Block &loopBody = *op.regions()[0]->blocks().front();
    const Value *iv = loopBody.argument(0);
    std::vector<const Value *> carried;
    for (size_t i = 1; i < loopBody.arguments().size(); ++i)
      carried.push_back(loopBody.argument(i));
    emit(indent, fmt::format("{} = {};", reg(iv), reg(op.operand(0))));
    for (size_t i = 0; i < carried.size(); ++i)
      emit(indent, fmt::format("{} = {};", reg(carried[i]), reg(op.operand(3 + i))));
    emit(indent, fmt::format("for (; int32_t({}) < int32_t({}); {} += {}) {{", reg(iv),
                             reg(op.operand(1)), reg(iv), reg(op.operand(2))));
    if (llvm::Error e = printRegionBody(loopBody, indent + 1, carried))
      return e;
    emit(indent, "}");
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
    emit(indent, fmt::format("if ({}) {{", reg(op.operand(0))));
    for (size_t r = 0; r < op.regions().size(); ++r) {
      if (r == 1)
        emit(indent, "} else {");
      if (llvm::Error e =
              printRegionBody(*op.regions()[r]->blocks().front(), indent + 1, results))
        return e;
    }
    emit(indent, "}");
    return llvm::Error::success();
  }

  std::string immediate(const Operation &op, RegisterClass rc) {
    if (const double *d = op.attrAs<double>("imm"))
      return fmt::format("cutec::rt::ptx::f32FromBits(0x{:08X}u)",
                         std::bit_cast<uint32_t>(float(*d)));
    int64_t v = op.attrAs<int64_t>("imm") ? *op.attrAs<int64_t>("imm") : 0;
    return fmt::format("{}({}ull)", ptx::info(rc).cxxType.str(), uint64_t(v));
  }

  static std::string specialRegister(llvm::StringRef ptxName) {
    // %tid.x -> t.tid.x, %ctaid.y -> t.ctaid.y, %laneid -> t.laneid
    return "t." + ptxName.drop_front().str();
  }

  llvm::Error printInstruction(const Operation &op, unsigned indent) {
    const std::string *opcode = op.attrAs<std::string>("opcode");
    const ptx::PtxInstruction *inst = opcode ? ptx::lookupPtxInstruction(*opcode) : nullptr;
    if (!inst)
      return emuError("unknown instruction '" + (opcode ? *opcode : "") + "'");
    std::string text = inst->emulation.str();
    auto substitute = [&](const std::string &key, const std::string &value) {
      for (size_t pos = text.find(key); pos != std::string::npos;
           pos = text.find(key, pos + value.size()))
        text.replace(pos, key.size(), value);
    };
    std::vector<std::string> results, operands;
    for (const auto &r : op.results())
      results.push_back(reg(r.get()));
    for (const Value *v : op.operands())
      operands.push_back(reg(v));
    // Longest keys first: $r10 before $r1.
    for (size_t i = results.size(); i-- > 0;)
      substitute("$r" + std::to_string(i), results[i]);
    for (size_t i = operands.size(); i-- > 0;)
      substitute("$" + std::to_string(i), operands[i]);
    if (text.find("$imm") != std::string::npos)
      substitute("$imm", immediate(op, ptx::registerClass(op.result()->type().element())));
    if (const std::string *param = op.attrAs<std::string>("param"))
      substitute("$param", *param);
    if (const std::string *special = op.attrAs<std::string>("special"))
      substitute("$special", specialRegister(*special));
    const int64_t *off = op.attrAs<int64_t>("offset");
    substitute("$off", std::to_string(off ? *off : 0));
    std::string where = *opcode;
    if (options.describeLocation)
      if (std::string loc = options.describeLocation(op.loc()); !loc.empty())
        where += " at " + loc;
    substitute("$where", "\"" + where + "\"");
    emit(indent, text);
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
      emit(indent, "return;");
      return llvm::Error::success();
    default:
      return emuError("'" + ir::name(op.kind()) + "' should have been lowered to machine IR");
    }
  }

  const Operation &kernel;
  const EmuOptions &options;
  llvm::DenseMap<const Value *, std::string> registers;
  unsigned counts[std::size(ptx::kAllRegisterClasses)] = {};
  std::string body;
};

const char *kPreamble = "// Generated by cutec: the C++ emulation of a kernel. Do not edit.\n";

void printIncludes(llvm::raw_ostream &os) {
  os << "#include \"runtime/Emulation.h\"\n\n#include <cstdint>\n\n";
}

} // namespace

llvm::Error printEmulationHeader(const ir::Module &module, llvm::raw_ostream &os) {
  os << kPreamble << "#pragma once\n\n";
  printIncludes(os);
  for (const auto &kernel : module.kernels())
    printDeclarations(*kernel, os);
  return llvm::Error::success();
}

llvm::Error printEmulation(const ir::Module &module, const EmuOptions &options,
                           llvm::raw_ostream &os) {
  os << kPreamble;
  // The instructions are separate statements that must round separately.
  os << "#pragma STDC FP_CONTRACT OFF\n#if defined(__GNUC__) && !defined(__clang__)\n"
     << "#pragma GCC optimize(\"fp-contract=off\")\n#endif\n\n";
  if (options.headerInclude.empty()) {
    printIncludes(os);
    for (const auto &kernel : module.kernels())
      printDeclarations(*kernel, os);
  } else {
    os << "#include \"" << options.headerInclude << "\"\n";
  }
  os << "\n";
  for (const auto &kernel : module.kernels())
    if (llvm::Error e = BodyPrinter(*kernel, options).print(os))
      return e;
  return llvm::Error::success();
}

} // namespace cutec::emu
