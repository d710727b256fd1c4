//===- WgmmaRegisterWebs.cpp - Registers a wgmma.mma_async uses asynchronously -===//
#include "codegen/emu/WgmmaRegisterWebs.h"

#include "target/ptx/MachineTypes.h"
#include "target/ptx/PtxInstructions.h"

namespace cutec::emu {
namespace {

/// The syntax of machine instruction `op`, if it is one cutec knows.
std::optional<ptx::PtxSyntax> syntaxOf(const ir::Operation &op) {
  if (op.kind() != ir::OpKind::PtxInst)
    return std::nullopt;
  const std::string *opcode = op.get(ir::attr::opcode);
  const ptx::PtxInstruction *inst = opcode ? ptx::lookupPtxInstruction(*opcode) : nullptr;
  return inst ? std::optional(inst->syntax) : std::nullopt;
}

bool isWgmma(const ir::Operation &op) {
  std::optional<ptx::PtxSyntax> s = syntaxOf(op);
  return s && ptx::isWgmmaSyntax(*s);
}

bool isPackOrUnpack(const ir::Operation &op) {
  std::optional<ptx::PtxSyntax> s = syntaxOf(op);
  return s && (*s == ptx::PtxSyntax::Pack2 || *s == ptx::PtxSyntax::Unpack2);
}

/// A wgmma's registers in use until it retires: the accumulators (its
/// results, and the operands they are tied to, the last ones, where those
/// hand their registers over; the PTX printer copies the others) and the A
/// registers (the other operands, except the 64-bit descriptors and the
/// scale-d predicate).
struct WgmmaRegisters {
  llvm::SmallVector<const ir::Value *, 8> accumulators, a;
};

WgmmaRegisters wgmmaRegisters(const ir::Operation &op, const ptx::RegisterHandOver &handOver) {
  WgmmaRegisters regs;
  const size_t tied = op.operands().size() - op.results().size();
  for (const auto &r : op.results())
    regs.accumulators.push_back(r.get());
  for (size_t i = 0; i < op.operands().size(); ++i) {
    const ir::Value *v = op.operand(unsigned(i));
    ptx::RegisterClass rc = ptx::registerClass(v->type().element());
    if (i >= tied && handOver.takesRegisters(op, v))
      regs.accumulators.push_back(v);
    else if (i < tied && rc != ptx::RegisterClass::B64 && rc != ptx::RegisterClass::Pred)
      regs.a.push_back(v);
  }
  return regs;
}

} // namespace

WgmmaRegisterWebs::WgmmaRegisterWebs(const ir::Operation &kernel) : handOver(kernel) {
  for (const auto &region : kernel.regions())
    for (const auto &block : region->blocks())
      visit(*block);
  for (const ir::Value *v : members)
    numbers.try_emplace(classes.getLeaderValue(v), unsigned(numbers.size()));
}

void WgmmaRegisterWebs::visit(const ir::Block &block) {
  for (const auto &op : block.operations()) {
    if (isWgmma(*op)) {
      WgmmaRegisters regs = wgmmaRegisters(*op, handOver);
      for (const auto *set : {&regs.accumulators, &regs.a}) {
        if (set->empty())
          continue;
        classes.insert(set->front());
        for (const ir::Value *v : *set)
          join(set->front(), v);
        members.push_back(set->front());
      }
      continue;
    }
    if (isPackOrUnpack(*op)) {
      for (const ir::Value *v : op->operands())
        join(op->result(0), v);
      for (const auto &r : op->results())
        join(op->result(0), r.get());
    }
    joinLoopRegisters(*op);
    for (const auto &region : op->regions())
      for (const auto &inner : region->blocks())
        visit(*inner);
  }
}

void WgmmaRegisterWebs::joinLoopRegisters(const ir::Operation &op) {
  // What the printers share: a for's results are its carried arguments'
  // registers, a while's its after region's arguments', and a loop's initial
  // value that hands its registers over is its carried value's. Yields (and
  // the other initial values) are copies, a mov each on the GPU, which the
  // printer checks as a read and a write.
  // Operands from `first` on start the block arguments from `target` on.
  auto joinInitialValues = [&](size_t first, const ir::Block &start, size_t target) {
    for (size_t j = first; j < op.operands().size(); ++j) {
      const ir::Value *init = op.operand(unsigned(j));
      if (handOver.takesRegisters(op, init))
        join(init, start.argument(unsigned(target + j - first)));
    }
  };
  switch (op.kind()) {
  case ir::OpKind::For: {
    const ir::Block &body = *op.regions()[0]->blocks().front();
    for (size_t j = 0; j < op.results().size(); ++j)
      join(op.result(unsigned(j)), body.argument(unsigned(j + 1)));
    // The initial values follow the bounds and step; the carried values, the
    // induction variable.
    joinInitialValues(3, body, 1);
    return;
  }
  case ir::OpKind::While: {
    const ir::Block &before = *op.regions()[0]->blocks().front();
    const ir::Block &after = *op.regions()[1]->blocks().front();
    for (size_t j = 0; j < op.results().size(); ++j)
      join(op.result(unsigned(j)), after.argument(unsigned(j)));
    joinInitialValues(0, before, 0);
    return;
  }
  default:
    return;
  }
}

bool WgmmaRegisterWebs::isRename(const ir::Operation &op) const { return isPackOrUnpack(op); }

std::optional<unsigned> WgmmaRegisterWebs::web(const ir::Value *v) const {
  if (numbers.empty() || classes.findValue(v) == classes.end())
    return std::nullopt;
  auto it = numbers.find(classes.getLeaderValue(v));
  if (it == numbers.end())
    return std::nullopt;
  return it->second;
}

llvm::SmallVector<unsigned, 2> WgmmaRegisterWebs::websOf(const ir::Operation &op) const {
  WgmmaRegisters regs = wgmmaRegisters(op, handOver);
  llvm::SmallVector<unsigned, 2> webs;
  for (const auto *set : {&regs.accumulators, &regs.a})
    if (!set->empty())
      webs.push_back(*web(set->front()));
  return webs;
}

} // namespace cutec::emu
