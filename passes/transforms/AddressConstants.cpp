//===- AddressConstants.cpp - Constant terms of global addresses as immediates =//
//
// lower-indexing addresses element x + k of a global view (k the constant
// terms of its i32 offset, x the rest) as
//
//   base + u64(i64(x + k) * bytes)
//
// so the accesses of one thread's fragment (a tile row stored 32 columns at
// a time) each add, widen and scale an offset of their own. This pass
// writes such an address as
//
//   (base + u64(i64(x) * bytes)) + k * bytes
//
// and folds a constant added to it into k * bytes: the accesses then share
// one 64-bit address, after canonicalize's CSE, and differ by constants,
// which ptxas folds into the instructions' immediate offsets, as CuTe DSL's
// pointer arithmetic does.
//
// Exact: offsets are i32 and a view spans at most 2^31 elements (docs/ir.md,
// "Lowering contract"), so, as CuTe's int32 index arithmetic, the sums
// x + k of the offsets do not wrap, and i64(x + k) = i64(x) + k.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "ir/core/Builder.h"

namespace cutec {
namespace {

using namespace ir;

bool hasType(const Value *v, DataType t) { return v->type() == Type::scalar(t); }

/// The i32 sum `v` as x + constant: the constant terms of its nested adds
/// summed into `constant`, x the sum without them, built at `b` only where
/// a constant was taken out (other sums stay the values they are, so that
/// an offset computed once outside a branch is still shared); null when
/// every term is constant.
Value *withoutConstants(Builder &b, llvm::SMLoc loc, Value *v, int64_t &constant) {
  if (std::optional<int64_t> c = intConstantOf(v)) {
    constant += *c;
    return nullptr;
  }
  Operation *add = v->definingOp();
  if (!add || add->kind() != OpKind::Add || !hasType(v, DataType::I32))
    return v;
  int64_t before = constant;
  Value *lhs = withoutConstants(b, loc, add->operand(0), constant);
  Value *rhs = withoutConstants(b, loc, add->operand(1), constant);
  if (constant == before && lhs == add->operand(0) && rhs == add->operand(1))
    return v;
  if (!lhs || !rhs)
    return lhs ? lhs : rhs;
  return b.createValue(OpKind::Add, loc, v->type(), {lhs, rhs});
}

/// A global address as lower-indexing forms it: base + u64(scaled), scaled
/// i64(offset) or i64(offset) * bytes.
struct ScaledAddress {
  Value *base;
  Value *offset;
  int64_t bytes;
};

std::optional<ScaledAddress> matchScaledAddress(Operation &op) {
  if (op.kind() != OpKind::Add || !hasType(op.result(), DataType::U64))
    return std::nullopt;
  Operation *bitcast = op.operand(1)->definingOp();
  if (!bitcast || bitcast->kind() != OpKind::Bitcast || !hasType(bitcast->operand(0), DataType::I64))
    return std::nullopt;
  Value *scaled = bitcast->operand(0);
  int64_t bytes = 1;
  if (Operation *mul = scaled->definingOp(); mul && mul->kind() == OpKind::Mul) {
    std::optional<int64_t> factor = intConstantOf(mul->operand(1));
    if (!factor)
      return std::nullopt;
    bytes = *factor;
    scaled = mul->operand(0);
  }
  Operation *widen = scaled->definingOp();
  if (!widen || widen->kind() != OpKind::Convert || !hasType(widen->operand(0), DataType::I32))
    return std::nullopt;
  return ScaledAddress{op.operand(0), widen->operand(0), bytes};
}

class AddressConstantsPass : public Pass {
public:
  llvm::StringRef name() const override { return "address-constants"; }
  void run(Operation &kernel, PassContext &) override {
    std::vector<Operation *> adds;
    walk(kernel, [&](Operation &op) {
      if (op.kind() == OpKind::Add && hasType(op.result(), DataType::U64))
        adds.push_back(&op);
    });
    // Definitions come before their uses, so an address is split before a
    // constant added to it is folded in.
    for (Operation *op : adds)
      if (!splitAddress(*op))
        foldConstant(*op);
  }

private:
  /// base + u64(i64(x + k) * bytes) -> (base + u64(i64(x) * bytes)) + k * bytes.
  static bool splitAddress(Operation &op) {
    std::optional<ScaledAddress> address = matchScaledAddress(op);
    if (!address)
      return false;
    Builder b;
    b.setInsertionPoint(op);
    llvm::SMLoc loc = op.loc();
    int64_t constant = 0;
    Value *x = withoutConstants(b, loc, address->offset, constant);
    if (constant == 0)
      return false;
    if (!x)
      x = b.constantInt(loc, DataType::I32, 0);
    Value *scaled = b.createValue(OpKind::Convert, loc, Type::scalar(DataType::I64), {x});
    if (address->bytes != 1)
      scaled = b.createValue(OpKind::Mul, loc, Type::scalar(DataType::I64),
                             {scaled, b.constantInt(loc, DataType::I64, address->bytes)});
    Value *start = b.createValue(
        OpKind::Add, loc, Type::scalar(DataType::U64),
        {address->base, b.createValue(OpKind::Bitcast, loc, Type::scalar(DataType::U64), {scaled})});
    op.setOperand(0, start);
    op.setOperand(1, b.constantInt(loc, DataType::U64, constant * address->bytes));
    return true;
  }

  /// (a + c1) + c2 -> a + (c1 + c2), for u64 addresses.
  static void foldConstant(Operation &op) {
    std::optional<int64_t> outer = intConstantOf(op.operand(1));
    Operation *inner = op.operand(0)->definingOp();
    if (!outer || !inner || inner->kind() != OpKind::Add ||
        !hasType(inner->result(), DataType::U64))
      return;
    std::optional<int64_t> first = intConstantOf(inner->operand(1));
    if (!first)
      return;
    Builder b;
    b.setInsertionPoint(op);
    op.setOperand(0, inner->operand(0));
    op.setOperand(1, b.constantInt(op.loc(), DataType::U64, *first + *outer));
  }
};

} // namespace

std::unique_ptr<Pass> createAddressConstantsPass() {
  return std::make_unique<AddressConstantsPass>();
}

} // namespace cutec
