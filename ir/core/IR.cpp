//===- IR.cpp - The kernel IR: values, operations, blocks, regions --------===//
#include "ir/core/IR.h"

#include <functional>

namespace cutec::ir {

namespace {
struct OpInfo {
  llvm::StringRef name;
  bool pure, terminator;
};
enum Trait { None, Pure, Terminator };
const OpInfo opInfos[] = {
#define CUTEC_OP(Enum, Name, Traits, ...) {Name, Traits == Pure, Traits == Terminator},
#include "ir/core/Ops.def"
};
} // namespace

llvm::StringRef name(OpKind kind) { return opInfos[unsigned(kind)].name; }
bool isPure(OpKind kind) { return opInfos[unsigned(kind)].pure; }
bool isTerminator(OpKind kind) { return opInfos[unsigned(kind)].terminator; }

Value *Block::addArgument(Type type, llvm::StringRef nameHint) {
  args.push_back(std::make_unique<Value>(std::move(type), nullptr, this, args.size()));
  args.back()->setNameHint(nameHint.str());
  return args.back().get();
}

namespace {
/// Keeps the values whose index `drop` rejects, renumbered in order.
void eraseValues(std::vector<std::unique_ptr<Value>> &values,
                 llvm::function_ref<bool(unsigned)> drop,
                 llvm::function_ref<void(Value &, unsigned)> renumber) {
  std::vector<std::unique_ptr<Value>> kept;
  for (unsigned i = 0; i < values.size(); ++i)
    if (!drop(i))
      kept.push_back(std::move(values[i]));
  for (unsigned i = 0; i < kept.size(); ++i)
    renumber(*kept[i], i);
  values = std::move(kept);
}
} // namespace

void Block::eraseArguments(llvm::function_ref<bool(unsigned)> drop) {
  eraseValues(args, drop, [](Value &v, unsigned i) { v.position = i; });
}

void Operation::eraseResults(llvm::function_ref<bool(unsigned)> drop) {
  eraseValues(resultList, drop, [](Value &v, unsigned i) { v.position = i; });
}

Operation *Block::terminator() const {
  if (ops.empty() || !isTerminator(ops.back()->kind()))
    return nullptr;
  return ops.back().get();
}

Block &Region::addBlock() {
  blockList.push_back(std::make_unique<Block>(this));
  return *blockList.back();
}

Value *Operation::addResult(Type type) {
  resultList.push_back(std::make_unique<Value>(std::move(type), this, nullptr, resultList.size()));
  return resultList.back().get();
}

const Attribute *Operation::attr(llvm::StringRef key) const {
  auto it = attrs.find(key.str());
  return it == attrs.end() ? nullptr : &it->second;
}

Region &Operation::addRegion() {
  regionList.push_back(std::make_unique<Region>(this));
  return *regionList.back();
}

void walk(Operation &op, const std::function<void(Operation &)> &f) {
  for (auto &region : op.regions())
    for (auto &block : region->blocks())
      for (auto &nested : block->operations()) {
        f(*nested);
        walk(*nested, f);
      }
}

std::vector<Operation *> collect(Operation &root, OpKind kind) {
  std::vector<Operation *> ops;
  walk(root, [&](Operation &op) {
    if (op.kind() == kind)
      ops.push_back(&op);
  });
  return ops;
}

std::optional<int64_t> intConstantOf(const Value *v) {
  const Operation *def = v->definingOp();
  if (def && def->kind() == OpKind::Constant)
    if (const int64_t *i = def->get<int64_t>(attr::value))
      return *i;
  return std::nullopt;
}

void replaceAllUsesWith(Operation &root, Value *from, Value *to) {
  walk(root, [&](Operation &op) {
    for (unsigned i = 0; i < op.operands().size(); ++i)
      if (op.operand(i) == from)
        op.setOperand(i, to);
  });
}

} // namespace cutec::ir
