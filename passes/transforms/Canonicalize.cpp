//===- Canonicalize.cpp - Constant folding, CSE and dead-code removal -----===//
//
// Folds scalar arithmetic on constants with the target's semantics (integers
// wrap at their width, f32 operations round once to nearest even, exactly as
// the .rn PTX instructions do), removes identities (x+0, x*1, the pack of a
// word's unpacked halves), merges equal pure operations whose operands are
// the same values (CSE, scoped so a value is only reused where it is
// visible), and deletes pure operations nobody uses. Runs to a fixed point.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "ir/core/Builder.h"

#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <map>

namespace cutec {
namespace {

using namespace ir;

std::optional<double> floatConstant(const Value *v) {
  const Operation *def = v->definingOp();
  if (!def || def->kind() != OpKind::Constant)
    return std::nullopt;
  if (const double *d = def->get<double>(attr::value))
    return *d;
  return std::nullopt;
}

/// Wraps `v` to the width and signedness of integer type `t`.
int64_t wrap(int64_t v, DataType t) {
  unsigned bits = bitWidth(t);
  if (bits >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << bits) - 1, u = uint64_t(v) & mask;
  if (typeClass(t) == DataTypeClass::SignedInt && (u >> (bits - 1)))
    return int64_t(u | ~mask);
  return int64_t(u);
}

std::optional<int64_t> foldInt(OpKind kind, DataType t, int64_t a, int64_t b) {
  bool isSigned = typeClass(t) == DataTypeClass::SignedInt;
  switch (kind) {
  case OpKind::Add:
    return wrap(int64_t(uint64_t(a) + uint64_t(b)), t);
  case OpKind::Sub:
    return wrap(int64_t(uint64_t(a) - uint64_t(b)), t);
  case OpKind::Mul:
    return wrap(int64_t(uint64_t(a) * uint64_t(b)), t);
  case OpKind::Div:
  case OpKind::Rem:
    // Leave division by zero and overflowing division to run time, where the
    // instruction defines them.
    if (b == 0 || (isSigned && b == -1))
      return std::nullopt;
    return wrap(kind == OpKind::Div ? a / b : a % b, t);
  default:
    return std::nullopt;
  }
}

std::optional<double> foldF32(OpKind kind, double a, double b, double c) {
  float x = float(a), y = float(b), z = float(c);
  switch (kind) {
  case OpKind::Add:
    return double(x + y);
  case OpKind::Sub:
    return double(x - y);
  case OpKind::Mul:
    return double(x * y);
  case OpKind::Fma:
    return double(std::fma(x, y, z));
  default:
    return std::nullopt;
  }
}

class Canonicalizer {
public:
  explicit Canonicalizer(Operation &kernel) : kernel(kernel) {}

  void run() {
    for (int round = 0; round < 16; ++round) {
      changed = false;
      foldAndSimplify();
      applyReplacements();
      eliminateCommonSubexpressions();
      applyReplacements();
      removeDeadCode();
      if (!changed)
        return;
    }
  }

private:
  // Replacements are recorded and applied to each op when it is visited
  // (definitions come before their uses, so every use of a replaced value
  // is visited after the replacement), then to all ops once per phase: one
  // walk of the kernel instead of one per replacement.
  void replace(Operation &op, Value *with) {
    replacements[op.result()] = resolve(with);
    changed = true;
  }

  Value *resolve(Value *v) const {
    for (auto it = replacements.find(v); it != replacements.end(); it = replacements.find(v))
      v = it->second;
    return v;
  }

  void resolveOperands(Operation &op) const {
    for (unsigned i = 0; i < op.operands().size(); ++i)
      op.setOperand(i, resolve(op.operand(i)));
  }

  void applyReplacements() {
    if (replacements.empty())
      return;
    walk(kernel, [&](Operation &op) { resolveOperands(op); });
    replacements.clear();
  }

  void foldAndSimplify() {
    std::vector<Operation *> ops;
    walk(kernel, [&](Operation &op) { ops.push_back(&op); });
    for (Operation *op : ops) {
      resolveOperands(*op);
      simplify(*op);
    }
  }

  void simplify(Operation &op) {
    if (op.results().size() != 1 || !op.result()->type().isScalar())
      return;
    // The two halves of a word, packed back in order, are the word.
    if (op.kind() == OpKind::Pack) {
      const Operation *halves = op.operand(0)->definingOp();
      if (halves && halves->kind() == OpKind::Unpack && op.operand(0) == halves->result(0) &&
          op.operand(1) == halves->result(1))
        replace(op, halves->operand(0));
      return;
    }
    DataType t = op.result()->type().element();
    bool binary = op.kind() == OpKind::Add || op.kind() == OpKind::Sub ||
                  op.kind() == OpKind::Mul || op.kind() == OpKind::Div ||
                  op.kind() == OpKind::Rem;
    Builder b;
    b.setInsertionPoint(op);
    // An integer constant bitcast or converted to another integer type.
    if ((op.kind() == OpKind::Bitcast || op.kind() == OpKind::Convert) && isInteger(t) &&
        isInteger(op.operand(0)->type().element())) {
      if (auto x = intConstantOf(op.operand(0)))
        replace(op, b.constantInt(op.loc(), t, wrap(*x, t)));
      return;
    }
    if (!binary && op.kind() != OpKind::Fma)
      return;
    if (isInteger(t) && binary) {
      auto x = intConstantOf(op.operand(0)), y = intConstantOf(op.operand(1));
      if (x && y) {
        if (auto folded = foldInt(op.kind(), t, *x, *y))
          replace(op, b.constantInt(op.loc(), t, *folded));
        return;
      }
      // Identities on integers only: for floats x+0 is not x when x is -0.
      if (y && *y == 0 && (op.kind() == OpKind::Add || op.kind() == OpKind::Sub))
        return replace(op, op.operand(0));
      if (x && *x == 0 && op.kind() == OpKind::Add)
        return replace(op, op.operand(1));
      if (y && *y == 1 && (op.kind() == OpKind::Mul || op.kind() == OpKind::Div))
        return replace(op, op.operand(0));
      if (x && *x == 1 && op.kind() == OpKind::Mul)
        return replace(op, op.operand(1));
      if (((x && *x == 0) || (y && *y == 0)) && op.kind() == OpKind::Mul)
        return replace(op, b.constantInt(op.loc(), t, 0));
      return;
    }
    if (t == DataType::F32) {
      std::vector<double> values;
      for (Value *v : op.operands()) {
        auto c = floatConstant(v);
        if (!c)
          return;
        values.push_back(*c);
      }
      values.resize(3, 0.0);
      if (auto folded = foldF32(op.kind(), values[0], values[1], values[2]))
        replace(op, b.constantFloat(op.loc(), t, *folded));
    }
  }

  /// The identity of a pure operation for CSE: kind, operands, attributes and
  /// result types, as text (attributes print deterministically).
  static std::string key(const Operation &op, llvm::DenseMap<const Value *, unsigned> &ids) {
    std::string k = name(op.kind()).str();
    for (Value *v : op.operands())
      k += " " + std::to_string(ids.try_emplace(v, ids.size()).first->second);
    for (const auto &[attrName, value] : op.attributes())
      k += " " + attrName + "=" + str(value);
    for (const auto &r : op.results())
      k += " :" + r->type().str();
    return k;
  }

  void eliminateCommonSubexpressions() {
    llvm::DenseMap<const Value *, unsigned> ids;
    std::vector<std::map<std::string, Operation *>> scopes;
    std::function<void(Region &)> visitRegion = [&](Region &region) {
      for (auto &block : region.blocks()) {
        scopes.emplace_back();
        for (auto &opPtr : block->operations()) {
          Operation &op = *opPtr;
          for (auto &nested : op.regions())
            visitRegion(*nested);
          resolveOperands(op);
          if (!isPure(op.kind()) || !op.regions().empty() || op.results().size() != 1)
            continue;
          std::string k = key(op, ids);
          Operation *existing = nullptr;
          for (auto &scope : scopes)
            if (auto it = scope.find(k); it != scope.end())
              existing = it->second;
          if (existing)
            replace(op, existing->result());
          else
            scopes.back()[k] = &op;
        }
        scopes.pop_back();
      }
    };
    for (auto &region : kernel.regions())
      visitRegion(*region);
  }

  void removeDeadCode() {
    if (eraseDeadPureOps(kernel))
      changed = true;
  }

  Operation &kernel;
  llvm::DenseMap<Value *, Value *> replacements;
  bool changed = false;
};

class CanonicalizePass : public Pass {
public:
  llvm::StringRef name() const override { return "canonicalize"; }
  void run(Operation &kernel, PassContext &) override { Canonicalizer(kernel).run(); }
};

} // namespace

std::unique_ptr<Pass> createCanonicalizePass() { return std::make_unique<CanonicalizePass>(); }

} // namespace cutec
