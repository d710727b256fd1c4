//===- EmuPrinter.cpp - Machine IR to the C++ emulation -------------------===//
#include "codegen/emu/EmuPrinter.h"

#include "codegen/emu/WgmmaRegisterWebs.h"

#include "codegen/host/CxxIntExpr.h"
#include "codegen/host/TensorMapCode.h"

#include "codegen/ptx/MachineIRPrinter.h"
#include "target/ptx/PtxInstructions.h"
#include "ir/core/KernelArguments.h"
#include "ir/core/LaunchChecks.h"

#include "llvm/ADT/StringExtras.h"

#include <bit>
#include <fmt/format.h>

namespace cutec::emu {
namespace {

using ir::OpKind;
using ir::Operation;
using ir::Value;
using ptx::RegisterClass;

/// `s` as a C++ string literal (file names may hold quotes or backslashes).
std::string cxxStringLiteral(llvm::StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string kernelName(const Operation &kernel) { return *kernel.get(ir::attr::name); }

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
    if (arg->type().isTensorMap()) {
      os << "  cutec::rt::TensorMap " << paramName(arg.get())
         << "; // derived: the launch encodes it\n";
      continue;
    }
    bool isPointer = arg->type().isTensor();
    os << "  " << (isPointer ? "uint64_t" : ir::cxxParameterType(kernel, *arg)) << " "
       << paramName(arg.get()) << ";\n";
    if (ir::argumentKind(kernel, *arg) == ir::ArgumentKind::DynamicSize)
      sizes.push_back(paramName(arg.get()));
  }
  os << "};\n";
  if (const int64_t *shared = kernel.get(ir::attr::sharedBytes))
    os << "/// The dynamic shared memory a launch of " << name << " must give.\n"
       << "inline constexpr uint32_t " << name << "_shared_bytes = " << *shared << ";\n";
  os << "extern \"C\" const cutec::rt::KernelDescriptor cutec_kernel_" << name << ";\n";
  std::string args;
  for (size_t i = 0; i < sizes.size(); ++i)
    args += (i ? ", " : "") + std::string("[[maybe_unused]] uint32_t ") + sizes[i];
  if (const IntTuple *block = kernel.get(ir::attr::block))
    os << "inline cutec::rt::Dim3 " << name << "_block() { return " << dim3Expression(*block)
       << "; }\n";
  if (const IntTuple *grid = kernel.get(ir::attr::grid)) {
    // A persistent kernel's grid may depend on the SMs of the GPU it stands
    // for: the caller says how many.
    if (ir::gridUsesSmCount(kernel))
      args += (args.empty() ? "" : ", ") + std::string("uint32_t ") + ir::kSmCountSize;
    os << "inline cutec::rt::Dim3 " << name << "_grid(" << args << ") {\n";
    os << "  auto ceil_div = [](uint32_t a, uint32_t b) { return (a + b - 1) / b; };\n";
    os << "  auto min = [](uint32_t a, uint32_t b) { return a < b ? a : b; };\n";
    os << "  (void)ceil_div, (void)min;\n";
    os << "  return " << dim3Expression(*grid) << ";\n}\n";
  }
}

class BodyPrinter : public ptx::MachineIRPrinter {
public:
  BodyPrinter(const Operation &kernel, const EmuOptions &options)
      : MachineIRPrinter(kernel,
                         [](RegisterClass rc) { return ptx::info(rc).prefix.drop_front().str(); }),
        kernel(kernel), options(options), webs(kernel) {}

  llvm::Error print(llvm::raw_ostream &os) {
    std::string name = kernelName(kernel);
    if (llvm::Error e = printBlock(*kernel.regions()[0]->blocks().front(), 1))
      return e;
    os << "static void " << name << "_body(cutec::rt::Thread &t, const void *rawParams) {\n";
    os << "  const auto *params = static_cast<const " << name << "_Params *>(rawParams);\n";
    os << "  (void)params;\n";
    for (RegisterClass rc : ptx::kAllRegisterClasses) {
      unsigned n = registerCount(rc);
      if (!n)
        continue;
      // An unpack also defines halves that the kernel may not use.
      os << "  [[maybe_unused]] " << ptx::info(rc).cxxType << " ";
      for (unsigned i = 0; i < n; ++i)
        os << (i ? ", " : "") << ptx::info(rc).prefix.drop_front() << i << "{}";
      os << ";\n";
    }
    os << body << "}\n\n";
    auto derive = printDeriveParams(os);
    if (!derive)
      return derive.takeError();
    os << "// What the code relies on about its arguments (docs/language.md, \"Assumptions\").\n"
       << "static bool " << name
       << "_check_params(const void *rawParams, char *message, size_t size) {\n"
       << "  const auto *p = static_cast<const " << name << "_Params *>(rawParams);\n"
       << "  (void)p, (void)message, (void)size;\n"
       << ir::printLaunchChecks(kernel, "p->", "  ") << "  return true;\n}\n\n";
    const int64_t *shared = kernel.get(ir::attr::sharedBytes);
    size_t regions = printSharedRegions(os);
    os << "extern \"C\" const cutec::rt::KernelDescriptor cutec_kernel_" << name << " = {\n"
       << "    \"" << name << "\", " << name << "_body, sizeof(" << name
       << "_Params), /*usesBarriers=*/" << (blocks ? "true" : "false")
       << ", /*staticSharedBytes=*/0,\n    /*minDynamicSharedBytes=*/" << (shared ? *shared : 0)
       << ", /*deriveParams=*/" << *derive << ", " << name << "_check_params";
    const IntTuple *cluster = kernel.get(ir::attr::cluster);
    const int64_t *registers = kernel.get(ir::attr::maxRegisters);
    // The fields after checkParams are positional: each one present needs
    // those before it.
    if (cluster || registers || regions)
      os << ",\n    /*cluster=*/{"
         << (cluster ? (*cluster)[0].str() + ", " + (*cluster)[1].str() + ", " + (*cluster)[2].str()
                     : std::string("1, 1, 1"))
         << "}";
    if (registers || regions)
      os << ", /*registersPerThread=*/" << (registers ? *registers : 0);
    if (regions)
      os << ",\n    " << name << "_shared_regions, " << regions;
    os << "};\n";
    return llvm::Error::success();
  }

private:
  /// The table of the kernel's named shared regions (isel's
  /// shared_region_bounds/names), for diagnostics; how many it has.
  size_t printSharedRegions(llvm::raw_ostream &os) {
    const IntTuple *bounds = kernel.get(ir::attr::sharedRegionBounds);
    const std::string *names = kernel.get(ir::attr::sharedRegionNames);
    if (!bounds || !names)
      return 0;
    llvm::SmallVector<llvm::StringRef, 8> lines;
    llvm::StringRef(*names).split(lines, '\n', -1, /*KeepEmpty=*/false);
    os << "static const cutec::rt::SharedRegion " << kernelName(kernel) << "_shared_regions[] = {\n";
    for (size_t i = 0; i < bounds->rank(); ++i) {
      const IntTuple &b = (*bounds)[i];
      os << "    {" << b[0].str() << ", " << b[1].str() << ", " << b[2].str() << ", "
         << cxxStringLiteral(lines[i].str()) << "},\n";
    }
    os << "};\n\n";
    return bounds->rank();
  }

  /// The function that encodes the kernel's tensor maps from its tensor
  /// addresses and sizes; its name, or "nullptr" when there are none.
  llvm::Expected<std::string> printDeriveParams(llvm::raw_ostream &os) {
    std::string name = kernelName(kernel);
    const ir::Block &entry = *kernel.regions()[0]->blocks().front();
    llvm::StringSet<> sizes;
    for (const auto &arg : entry.arguments())
      if (ir::argumentKind(kernel, *arg) == ir::ArgumentKind::DynamicSize)
        sizes.insert(paramName(arg.get()));
    host::CxxIntExpr exprs("a tensor map of kernel '" + name + "'", sizes,
                           [](llvm::StringRef size) { return "uint64_t{p." + size.str() + "}"; });
    auto code = host::tensorMapsEncodeCode(
        entry, exprs,
        [](const std::string &map, const std::string &message) {
          return "return " + cxxStringLiteral(map + ": " + message) + ";";
        },
        "",
        "if (std::string e = cutec::rt::encodeTensorMapTiled(p.$map, "
        "cutec::rt::TmaDataType($type), $rank, reinterpret_cast<const void *>(p.$source), dims, "
        "strides, box, elementStrides, cutec::rt::TmaInterleave::None, "
        "cutec::rt::TmaSwizzle($swizzle), cutec::rt::TmaL2Promotion::None, "
        "cutec::rt::TmaOobFill::None); !e.empty())\n      return \"$map: \" + e;",
        "  ");
    if (!code)
      return code.takeError();
    if (code->empty())
      return std::string("nullptr");
    os << "/// Encodes the tensor maps of " << name << " from its tensors and sizes.\n"
       << "static std::string " << name << "_derive_params(void *rawParams) {\n"
       << "  auto &p = *static_cast<" << name << "_Params *>(rawParams);\n"
       << exprs.helperDefinitions("  ") << *code << "  return {};\n}\n\n";
    return name + "_derive_params";
  }

  llvm::Error error(const llvm::Twine &message) const override {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "emulation printer: " + message);
  }

  void line(unsigned indent, const std::string &text) { emit(indent, text, "  "); }

  // Through scratch locals, so a swap reads every value before writing any.
  // On the GPU each pair is a mov, unless both are one register set.
  void printYield(const Operation &at, llvm::ArrayRef<Value *> values, unsigned indent,
                  llvm::ArrayRef<const Value *> targets) override {
    checkCopies(std::vector<const Value *>(values.begin(), values.end()), targets,
                where(at, "mov"), indent);
    line(indent, "{");
    for (size_t i = 0; i < targets.size(); ++i) {
      RegisterClass rc = ptx::registerClass(targets[i]->type().element());
      line(indent + 1, fmt::format("{} y{} = {};", ptx::info(rc).cxxType.str(), i, reg(values[i])));
    }
    for (size_t i = 0; i < targets.size(); ++i)
      line(indent + 1, fmt::format("{} = y{};", reg(targets[i]), i));
    line(indent, "}");
  }

  llvm::Error printFor(const Operation &op, unsigned indent) override {
    LoopParts loop = loopParts(op);
    std::string iv = reg(loop.inductionVariable);
    line(indent, fmt::format("{} = {};", iv, reg(op.operand(0))));
    Copies initial = takeInitialRegisters(op, op.operands().drop_front(3), loop.carried);
    checkCopies(std::vector<const Value *>(initial.from.begin(), initial.from.end()), initial.to,
                where(op, "mov"), indent);
    for (size_t i = 0; i < initial.to.size(); ++i)
      line(indent, fmt::format("{} = {};", reg(initial.to[i]), reg(initial.from[i])));
    line(indent, fmt::format("for (; int32_t({}) < int32_t({}); {} += {}) {{", iv,
                             reg(op.operand(1)), iv, reg(op.operand(2))));
    if (llvm::Error e =
            printRegionBody(*op.regions()[0]->blocks().front(), indent + 1, loop.carried))
      return e;
    line(indent, "}");
    aliasResults(op, loop.carried);
    return llvm::Error::success();
  }

  // Each iteration counts against Thread::whileIteration's limit, so that an
  // endless loop is reported instead of hanging the emulator.
  void beginWhile(const Operation &op, unsigned indent) override {
    std::string count = fmt::format("n{}", whileCount++);
    line(indent, fmt::format("for (uint64_t {} = 0;; t.whileIteration({}, {})) {{", count, count,
                             cxxStringLiteral(where(op, "while"))));
  }
  void exitWhileUnless(const Value *condition, unsigned indent) override {
    line(indent, fmt::format("if (!{})", reg(condition)));
    line(indent + 1, "break;");
  }
  void endWhile(unsigned indent) override { line(indent, "}"); }

  llvm::Error printIf(const Operation &op, unsigned indent) override {
    std::vector<const Value *> results = branchResults(op);
    line(indent, fmt::format("if ({}) {{", reg(op.operand(0))));
    for (size_t r = 0; r < op.regions().size(); ++r) {
      if (r == 1)
        line(indent, "} else {");
      if (llvm::Error e =
              printRegionBody(*op.regions()[r]->blocks().front(), indent + 1, results))
        return e;
    }
    line(indent, "}");
    return llvm::Error::success();
  }

  void printReturn(unsigned indent) override { line(indent, "return;"); }

  std::string immediate(const Operation &op, RegisterClass rc) {
    if (const double *d = op.get<double>(ir::attr::imm))
      return fmt::format("cutec::rt::ptx::f32FromBits(0x{:08X}u)",
                         std::bit_cast<uint32_t>(float(*d)));
    int64_t v = op.get<int64_t>(ir::attr::imm) ? *op.get<int64_t>(ir::attr::imm) : 0;
    return fmt::format("{}({}ull)", ptx::info(rc).cxxType.str(), uint64_t(v));
  }

  static std::string specialRegister(llvm::StringRef ptxName) {
    // %tid.x -> t.tid.x, %ctaid.y -> t.ctaid.y, %laneid -> t.laneid
    return "t." + ptxName.drop_front().str();
  }

  llvm::Error printInstruction(const Operation &op, unsigned indent) override {
    const std::string *opcode = op.get(ir::attr::opcode);
    const ptx::PtxInstruction *inst = opcode ? ptx::lookupPtxInstruction(*opcode) : nullptr;
    if (!inst)
      return error("unknown instruction '" + (opcode ? *opcode : "") + "'");
    std::string text = inst->emulation.str();
    blocks |= inst->has(ptx::PtxFlag::MayBlock);
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
    substitute("$results", llvm::join(results, ", "));
    // $tail3, $tail6 (before $tail): the operands after the first three or
    // six; $tail: after the first.
    for (size_t skip : {6, 3})
      if (operands.size() >= skip)
        substitute("$tail" + std::to_string(skip),
                   llvm::join(llvm::ArrayRef(operands).drop_front(skip), ", "));
    if (!operands.empty())
      substitute("$tail", llvm::join(llvm::ArrayRef(operands).drop_front(), ", "));
    // Longest keys first: $r10 before $r1.
    for (size_t i = results.size(); i-- > 0;)
      substitute("$r" + std::to_string(i), results[i]);
    for (size_t i = operands.size(); i-- > 0;)
      substitute("$" + std::to_string(i), operands[i]);
    // $imm0, $imm1...: the "imms" list of an instruction with immediate
    // operands (bar.sync 1, 128).
    if (const IntTuple *imms = op.get(ir::attr::imms))
      for (size_t i = imms->rank(); i-- > 0;)
        substitute("$imm" + std::to_string(i),
                   std::to_string(uint32_t((*imms)[i].leaf().staticValue())) + "u");
    if (text.find("$imm") != std::string::npos)
      substitute("$imm", immediate(op, op.results().empty()
                                           ? RegisterClass::B32
                                           : ptx::registerClass(op.result()->type().element())));
    if (const std::string *param = op.get(ir::attr::param))
      substitute("$param", *param);
    if (const std::string *symbol = op.get(ir::attr::symbol))
      substitute("$symbol", *symbol);
    if (const std::string *special = op.get(ir::attr::special))
      substitute("$special", specialRegister(*special));
    const int64_t *off = op.get<int64_t>(ir::attr::offset);
    substitute("$off", std::to_string(off ? *off : 0));
    std::string what = cxxStringLiteral(where(op, *opcode));
    substitute("$where", what);
    if (ptx::isWgmmaSyntax(inst->syntax)) {
      line(indent, text);
      for (unsigned web : webs.websOf(op))
        line(indent, fmt::format("t.wgmmaRegistersInUse({}u, {});", web, what));
      return llvm::Error::success();
    }
    std::vector<const Value *> written;
    for (const auto &r : op.results())
      written.push_back(r.get());
    if (!webs.isRename(op))
      checkWgmmaRegisters(op.operands(), written, what, indent);
    line(indent, text);
    return llvm::Error::success();
  }

  /// Before an instruction (or a copy) that reads `reads` and writes
  /// `writes`: one run-time check for each register web of a wgmma that it
  /// touches (runtime/engine/CtaWgmmaHazards.cpp), a read if it reads the web.
  void checkWgmmaRegisters(llvm::ArrayRef<const Value *> reads,
                           llvm::ArrayRef<const Value *> writes, const std::string &what,
                           unsigned indent) {
    std::vector<std::pair<unsigned, bool>> touched; // web, written only
    auto note = [&](const Value *v, bool write) {
      std::optional<unsigned> web = webs.web(v);
      if (!web)
        return;
      auto it = llvm::find_if(touched, [&](const auto &t) { return t.first == *web; });
      if (it == touched.end())
        touched.push_back({*web, write});
      else
        it->second &= write;
    };
    for (const Value *v : reads)
      note(v, false);
    for (const Value *v : writes)
      note(v, true);
    for (auto [web, write] : touched)
      line(indent, fmt::format("t.wgmmaRegisterAccess({}u, {}, {});", web, write, what));
  }

  /// Copies from[i] to to[i], each touching registers unless both are one
  /// web's.
  void checkCopies(llvm::ArrayRef<const Value *> from, llvm::ArrayRef<const Value *> to,
                   const std::string &what, unsigned indent) {
    std::vector<const Value *> reads, writes;
    for (size_t i = 0; i < to.size(); ++i)
      if (std::optional<unsigned> web = webs.web(to[i]); !web || web != webs.web(from[i])) {
        reads.push_back(from[i]);
        writes.push_back(to[i]);
      }
    checkWgmmaRegisters(reads, writes, cxxStringLiteral(what), indent);
  }

  /// `what` and where in the source `op` is, for diagnostics.
  std::string where(const Operation &op, const std::string &what) const {
    if (options.describeLocation)
      if (std::string loc = options.describeLocation(op.loc()); !loc.empty())
        return what + " at " + loc;
    return what;
  }

  const Operation &kernel;
  const EmuOptions &options;
  WgmmaRegisterWebs webs;
  bool blocks = false;
  unsigned whileCount = 0;
};

const char *kPreamble = "// Generated by cutec: the C++ emulation of a kernel. Do not edit.\n";

void printIncludes(llvm::raw_ostream &os) {
  os << "#include \"runtime/Emulation.h\"\n\n#include <cstdint>\n#include <string>\n\n";
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
  os << "#if defined(__clang__)\n#pragma STDC FP_CONTRACT OFF\n#elif defined(__GNUC__)\n"
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
