//===- ExactArith.cpp - Reassociate and fuse f32 products that are exact --===//
//
// The narrow formats hold few significant bits: an e2m1 value is 0 to 3
// times a power of two in [2^-1, 2^1], a ue4m3 or e4m3 value 0 to 15 times
// one in [2^-9, 2^5], a ue8m0 value a power of two. A product of such values
// converted to f32 needs the sum of their bits, and as long as that fits in
// f32's 24 and its exponents stay in f32's range the product is exact: every
// order of the multiplications gives the same value, and rounding never
// happens. This pass tracks, for each f32 value made from narrow formats by
// conversions, constants and multiplications, a bound on its significant
// bits and exponents, and where a product is exact it
//
// - reassociates a tree of single-use multiplications so that the factors
//   that other trees use too (the scale factors of a block of elements)
//   multiply each other first, once per block of trees, and the rest after:
//   ((a * sfa) * b) * sfb becomes (a * b) * (sfa * sfb), and sfa * sfb is
//   computed once for all the elements that share it;
// - contracts an addition of an exact product into one fused multiply-add:
//   fma(x, y, z) rounds x * y + z once, which is what add(mul(x, y), z)
//   does when the multiplication does not round.
//
// Neither rewrite changes a bit of any result, NaNs included (the decoded
// formats have no infinities, and a NaN factor makes every order NaN). The
// emulation, which runs fma.rn.f32 as a fused operation, agrees bit for bit
// with and without the pass (tests/lit/run/exact-arith.test tries every
// code of every operand).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "ir/core/Builder.h"
#include "passes/transforms/FmaContraction.h"

#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <map>

namespace cutec {
namespace {

using namespace ir;

/// A value is ±M·2^E with 0 <= M < 2^bits and lowExp <= E <= highExp (E the
/// exponent of M's lowest bit), or NaN.
struct Exactness {
  int bits;
  int lowExp, highExp;

  /// Whether every such value is an f32 (so computing it does not round).
  bool fitsF32() const { return bits <= 24 && lowExp >= -149 && highExp + bits - 1 <= 127; }
};

Exactness product(Exactness a, Exactness b) {
  return {a.bits + b.bits, a.lowExp + b.lowExp, a.highExp + b.highExp};
}

/// The values a narrow format converts to, exactly.
std::optional<Exactness> formatExactness(DataType t) {
  switch (t) {
  case DataType::F4E2M1: // 0, 0.5, 1, 1.5, 2, 3, 4, 6 = 3 * 2^1
    return Exactness{2, -1, 1};
  case DataType::UE4M3: // subnormals m * 2^-9, normals (8 + m) * 2^(e - 10), 448 = 14 * 2^5
  case DataType::F8E4M3:
    return Exactness{4, -9, 5};
  case DataType::UE8M0: // 2^(e - 127)
    return Exactness{1, -127, 127};
  default:
    return std::nullopt;
  }
}

/// A finite f32 constant as M·2^E with M odd (or zero).
std::optional<Exactness> constantExactness(double value) {
  float f = float(value);
  if (!std::isfinite(f))
    return std::nullopt;
  if (f == 0)
    return Exactness{0, 0, 0};
  int exponent;
  double mantissa = std::frexp(std::fabs(double(f)), &exponent); // in [0.5, 1)
  // f = mantissa * 2^exponent = M * 2^(exponent - 24) with an integer M.
  int64_t m = int64_t(std::ldexp(mantissa, 24));
  int e = exponent - 24;
  while (!(m & 1)) {
    m >>= 1;
    ++e;
  }
  int bits = 0;
  while (m >> bits)
    ++bits;
  return Exactness{bits, e, e};
}

bool isF32(const Value *v) { return v->type().isScalar() && v->type().element() == DataType::F32; }

bool isF32Op(const Operation &op, OpKind kind) {
  return op.kind() == kind && op.results().size() == 1 && isF32(op.result());
}

class ExactArith {
public:
  explicit ExactArith(Operation &kernel) : kernel(kernel) {}

  void run() {
    walk(kernel, [&](Operation &op) {
      for (Value *v : op.operands()) {
        ++uses[v];
        user[v] = &op;
      }
    });
    std::vector<Operation *> ops;
    walk(kernel, [&](Operation &op) { ops.push_back(&op); });
    for (Operation *op : ops)
      if (isF32Op(*op, OpKind::Mul) && exactness(op->result()) && !isInnerNode(*op))
        reassociate(*op);
    for (Operation *op : replaced)
      erase(*op);
    // Additions of exact products: fma rounds x * y + z once, as the
    // addition did when the product did not round.
    contractMultiplyAdds(kernel, [&](const Operation &mul) {
      return exactness(mul.result()).has_value();
    });
  }

private:
  /// The bound of `v`, if it is one of the values this pass knows exactly.
  std::optional<Exactness> exactness(const Value *v) {
    if (!isF32(v))
      return std::nullopt;
    auto known = facts.find(v);
    if (known != facts.end())
      return known->second;
    std::optional<Exactness> fact;
    if (const Operation *def = v->definingOp()) {
      if (def->kind() == OpKind::Convert)
        fact = formatExactness(def->operand(0)->type().element());
      else if (def->kind() == OpKind::Constant)
        if (const double *d = def->get<double>(attr::value))
          fact = constantExactness(*d);
      if (def->kind() == OpKind::Mul) {
        auto a = exactness(def->operand(0)), b = exactness(def->operand(1));
        if (a && b && product(*a, *b).fitsF32())
          fact = product(*a, *b);
      }
    }
    facts[v] = fact;
    return fact;
  }

  /// An exact multiplication whose only use is another exact one in its
  /// block: a node inside that one's tree, not a tree of its own.
  bool isInnerNode(const Operation &mul) {
    if (!isF32Op(mul, OpKind::Mul) || uses.lookup(mul.result()) != 1)
      return false;
    const Operation *next = user.lookup(mul.result());
    return next && isF32Op(*next, OpKind::Mul) && next->parentBlock() == mul.parentBlock() &&
           exactness(next->result());
  }

  /// The exact, single-use multiplications below `op` are the tree's inner
  /// nodes; everything else it multiplies is a leaf.
  void collectLeaves(const Operation &op, std::vector<Value *> &leaves,
                     std::vector<Operation *> &inner) {
    for (Value *v : op.operands()) {
      Operation *def = v->definingOp();
      if (def && isInnerNode(*def)) {
        inner.push_back(def);
        collectLeaves(*def, leaves, inner);
      } else {
        leaves.push_back(v);
      }
    }
  }

  /// The bound of `factors` multiplied left to right; none if a partial
  /// product would not be exact.
  std::optional<Exactness> productOf(llvm::ArrayRef<Value *> factors) {
    std::optional<Exactness> p = exactness(factors.front());
    for (Value *f : factors.drop_front()) {
      std::optional<Exactness> c = exactness(f);
      if (!p || !c || !product(*p, *c).fitsF32())
        return std::nullopt;
      p = product(*p, *c);
    }
    return p;
  }

  /// Multiplies `factors` left to right before `b`'s insertion point.
  static Value *multiply(Builder &b, llvm::SMLoc loc, llvm::ArrayRef<Value *> factors) {
    Value *p = factors.front();
    for (Value *f : factors.drop_front())
      p = b.create(OpKind::Mul, loc, {p, f}, {Type::scalar(DataType::F32)}).result();
    return p;
  }

  /// The factors of the tree rooted at `root` that other trees multiply too
  /// (used more than once) go first, as one product shared by the trees of
  /// the block; then the factors of this tree alone.
  void reassociate(Operation &root) {
    std::vector<Value *> leaves;
    std::vector<Operation *> inner;
    collectLeaves(root, leaves, inner);
    std::vector<Value *> shared, own;
    for (Value *leaf : leaves)
      (uses.lookup(leaf) > 1 && !isConstant(leaf) ? shared : own).push_back(leaf);
    if (shared.size() < 2 || own.empty())
      return;
    // Both groups as the operands' order in the block, for deterministic
    // output and one key per set of shared factors.
    std::vector<Value *> key = shared;
    llvm::stable_sort(key, [&](Value *x, Value *y) { return order(x) < order(y); });
    // Every product the new order forms must be exact: check before
    // building anything.
    std::optional<Exactness> sharedBound = productOf(key), ownBound = productOf(own);
    if (!sharedBound || !ownBound || !product(*ownBound, *sharedBound).fitsF32())
      return;
    Exactness whole = product(*ownBound, *sharedBound);
    Builder b;
    b.setInsertionPoint(root);
    Value *&common = sharedProducts[{root.parentBlock(), key}];
    if (!common)
      common = multiply(b, root.loc(), key);
    Value *mine = multiply(b, root.loc(), own);
    Value *result =
        b.create(OpKind::Mul, root.loc(), {mine, common}, {Type::scalar(DataType::F32)}).result();
    result->setNameHint(root.result()->nameHint());
    facts[result] = whole;
    replaceAllUsesWith(kernel, root.result(), result);
    uses[result] = uses.lookup(root.result());
    user[result] = user.lookup(root.result());
    replaced.push_back(&root);
    replaced.insert(replaced.end(), inner.begin(), inner.end());
  }

  static bool isConstant(const Value *v) {
    return v->definingOp() && v->definingOp()->kind() == OpKind::Constant;
  }

  /// A value's place in program order (block arguments first).
  size_t order(const Value *v) {
    if (positions.empty()) {
      size_t next = 0;
      walk(kernel, [&](Operation &op) {
        for (const auto &r : op.results())
          positions[r.get()] = ++next;
      });
    }
    return positions.lookup(v);
  }

  Operation &kernel;
  llvm::DenseMap<const Value *, unsigned> uses;
  llvm::DenseMap<const Value *, std::optional<Exactness>> facts;
  llvm::DenseMap<const Value *, size_t> positions;
  /// The one user of a value used once (the last user of the others).
  llvm::DenseMap<const Value *, Operation *> user;
  /// The operations a rewrite has replaced: dead, erased at the end.
  std::vector<Operation *> replaced;
  std::map<std::pair<const Block *, std::vector<Value *>>, Value *> sharedProducts;
};

class ExactArithPass : public Pass {
public:
  llvm::StringRef name() const override { return "exact-arith"; }
  void run(Operation &kernel, PassContext &) override { ExactArith(kernel).run(); }
};

} // namespace

std::unique_ptr<Pass> createExactArithPass() { return std::make_unique<ExactArithPass>(); }

} // namespace cutec
