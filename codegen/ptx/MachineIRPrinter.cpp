//===- MachineIRPrinter.cpp - What the PTX and emulation printers share ---===//
#include "codegen/ptx/MachineIRPrinter.h"

namespace cutec::ptx {

MachineIRPrinter::LoopParts MachineIRPrinter::loopParts(const ir::Operation &loop) {
  const ir::Block &body = *loop.regions()[0]->blocks().front();
  LoopParts parts{body.argument(0), {}};
  for (size_t i = 1; i < body.arguments().size(); ++i)
    parts.carried.push_back(body.argument(i));
  return parts;
}

std::vector<const ir::Value *> MachineIRPrinter::arguments(const ir::Block &block) {
  std::vector<const ir::Value *> args;
  for (const auto &arg : block.arguments())
    args.push_back(arg.get());
  return args;
}

MachineIRPrinter::Copies
MachineIRPrinter::takeInitialRegisters(const ir::Operation &loop, llvm::ArrayRef<ir::Value *> values,
                                       llvm::ArrayRef<const ir::Value *> targets) {
  Copies copies;
  for (size_t i = 0; i < targets.size(); ++i) {
    if (handOver.takesRegisters(loop, values[i]) && alias(targets[i], values[i]))
      continue;
    copies.from.push_back(values[i]);
    copies.to.push_back(targets[i]);
  }
  return copies;
}

void MachineIRPrinter::aliasResults(const ir::Operation &loop,
                                    llvm::ArrayRef<const ir::Value *> values) {
  for (size_t i = 0; i < values.size(); ++i)
    registers[loop.result(i)] = reg(values[i]);
}

bool MachineIRPrinter::alias(const ir::Value *value, const ir::Value *as) {
  auto [it, inserted] = registers.try_emplace(value, "");
  if (inserted)
    it->second = reg(as);
  return it->second == reg(as);
}

std::vector<const ir::Value *> MachineIRPrinter::branchResults(const ir::Operation &branch) {
  std::vector<const ir::Value *> results;
  for (const auto &r : branch.results()) {
    results.push_back(r.get());
    reg(r.get());
  }
  return results;
}

std::string MachineIRPrinter::reg(const ir::Value *v) {
  auto it = registers.find(v);
  if (it != registers.end())
    return it->second;
  std::string name = freshRegister(registerClass(v->type().element()));
  registers[v] = name;
  return name;
}

std::string MachineIRPrinter::freshRegister(RegisterClass rc) {
  return registerPrefix(rc) + std::to_string(counts[unsigned(rc)]++);
}

void MachineIRPrinter::emit(unsigned indent, const std::string &line, const char *indentUnit) {
  for (unsigned i = 0; i < indent; ++i)
    body += indentUnit;
  body += line + "\n";
}

llvm::Error MachineIRPrinter::printBlock(const ir::Block &block, unsigned indent) {
  for (const auto &op : block.operations())
    if (llvm::Error e = printOp(*op, indent))
      return e;
  return llvm::Error::success();
}

llvm::Error MachineIRPrinter::printRegionBody(const ir::Block &block, unsigned indent,
                                              llvm::ArrayRef<const ir::Value *> targets) {
  for (const auto &op : block.operations()) {
    if (op->kind() == ir::OpKind::Yield) {
      printYield(*op, op->operands(), indent, targets);
      continue;
    }
    if (op->kind() == ir::OpKind::Condition) {
      printYield(*op, op->operands().drop_front(), indent, targets);
      continue;
    }
    if (llvm::Error e = printOp(*op, indent))
      return e;
  }
  return llvm::Error::success();
}

llvm::Error MachineIRPrinter::printWhile(const ir::Operation &op, unsigned indent) {
  const ir::Block &before = op.regions()[0]->front(), &after = op.regions()[1]->front();
  std::vector<const ir::Value *> carried = arguments(before), forwarded = arguments(after);
  Copies copies = takeInitialRegisters(op, op.operands(), carried);
  printYield(op, copies.from, indent, copies.to);
  beginWhile(op, indent);
  if (llvm::Error e = printRegionBody(before, indent + 1, forwarded))
    return e;
  exitWhileUnless(before.terminator()->operand(0), indent + 1);
  if (llvm::Error e = printRegionBody(after, indent + 1, carried))
    return e;
  endWhile(indent);
  aliasResults(op, forwarded);
  return llvm::Error::success();
}

llvm::Error MachineIRPrinter::printOp(const ir::Operation &op, unsigned indent) {
  switch (op.kind()) {
  case ir::OpKind::PtxInst:
    return printInstruction(op, indent);
  case ir::OpKind::For:
    return printFor(op, indent);
  case ir::OpKind::If:
    return printIf(op, indent);
  case ir::OpKind::While:
    return printWhile(op, indent);
  case ir::OpKind::Return:
    printReturn(indent);
    return llvm::Error::success();
  default:
    return error("'" + ir::name(op.kind()) + "' should have been lowered to machine IR");
  }
}

} // namespace cutec::ptx
