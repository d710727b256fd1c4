//===- NarrowPairs.cpp - e2m1 products two at a time, in f16 pairs --------===//
//
// A fragment of e2m1 values is loaded as words of eight codes, and each
// element becomes `convert(bitcast(and(shr(word, 4i), 15)) : f4e2m1) : f32`;
// a product of two such elements (exact-arith has put a * b together) costs
// two decodes and an f32 multiplication per element. Every product of two
// e2m1 values is exact in f16 (at most 3 * 2^1 squared, 36, with a lowest
// bit of at least 2^-2), so two elements of a word can be decoded as one
// f16 pair and multiplied as one:
//
//   mul(convert(a[i]), convert(b[i])), mul(convert(a[j]), convert(b[j]))
//     -> p = product_x2(wa, wb) {low = 4i, high = 4j}       (an f16 pair)
//        convert(unpack(p).low), convert(unpack(p).high)   (exact in f32)
//
// which gives the same f32 products, bit for bit. Which elements pair up
// is the target's (narrowPairDistance): the two codes of a byte where
// cvt.rn.f16x2.e2m1x2 decodes them at once, codes k and k + 4 of a word on
// sm_90a, whose table lookup decodes four codes at a time.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "ir/core/Builder.h"
#include "target/ptx/Targets.h"

#include <map>
#include <tuple>

namespace cutec {
namespace {

using namespace ir;

/// Where an e2m1 element comes from: a u32 word and the bit its code starts.
struct Code {
  Value *word;
  int64_t shift;
};

bool isU32(const Value *v) { return v->type() == Type::scalar(DataType::U32); }

/// `v` as convert(bitcast(and(shr(word, shift), 15)) : f4e2m1) : f32 (or
/// without the shr for the lowest code).
std::optional<Code> e2m1Code(const Value *v) {
  const Operation *convert = v->definingOp();
  if (!convert || convert->kind() != OpKind::Convert || v->type() != Type::scalar(DataType::F32))
    return std::nullopt;
  const Operation *bitcast = convert->operand(0)->definingOp();
  if (!bitcast || bitcast->kind() != OpKind::Bitcast ||
      bitcast->result()->type() != Type::scalar(DataType::F4E2M1))
    return std::nullopt;
  const Operation *mask = bitcast->operand(0)->definingOp();
  if (!mask || mask->kind() != OpKind::BitAnd || !isU32(mask->result()) ||
      intConstantOf(mask->operand(1)) != 15)
    return std::nullopt;
  Value *source = mask->operand(0);
  const Operation *shr = source->definingOp();
  if (shr && shr->kind() == OpKind::ShiftRight && isU32(shr->result())) {
    std::optional<int64_t> shift = intConstantOf(shr->operand(1));
    if (!shift || *shift < 0 || *shift > 28 || *shift % 4 || !isU32(shr->operand(0)))
      return std::nullopt;
    return Code{shr->operand(0), *shift};
  }
  if (!isU32(source))
    return std::nullopt;
  return Code{source, 0};
}

class NarrowPairs {
public:
  NarrowPairs(Operation &kernel, int64_t distance) : kernel(kernel), distance(distance) {}

  void run() {
    // The products of two e2m1 elements in program order, and by (block,
    // words, shifts) with their place in that order.
    struct Product {
      Operation *op;
      Code a, b;
    };
    using Key = std::tuple<const Block *, const Value *, int64_t, const Value *, int64_t>;
    std::vector<Product> found;
    std::map<Key, size_t> byCodes;
    walk(kernel, [&](Operation &op) {
      if (op.kind() != OpKind::Mul || op.result()->type() != Type::scalar(DataType::F32))
        return;
      std::optional<Code> a = e2m1Code(op.operand(0)), b = e2m1Code(op.operand(1));
      if (!a || !b)
        return;
      byCodes[{op.parentBlock(), a->word, a->shift, b->word, b->shift}] = found.size();
      found.push_back({&op, *a, *b});
    });
    for (size_t i = 0; i < found.size(); ++i) {
      const Product &low = found[i];
      if (low.a.shift != low.b.shift || low.a.shift % (2 * distance) >= distance)
        continue;
      auto high = byCodes.find({low.op->parentBlock(), low.a.word, low.a.shift + distance,
                                low.b.word, low.b.shift + distance});
      if (high != byCodes.end())
        pair(*low.op, *found[high->second].op, low.a, low.b,
             *found[std::min(i, high->second)].op);
    }
    for (Operation *op : replaced)
      erase(*op);
    // The single decodes the pairs replaced, and their nibble extraction.
    eraseDeadPureOps(kernel);
  }

private:
  /// Replaces the products of the low and the high codes of two words by
  /// the halves of one product of f16 pairs, inserted before `first`, the
  /// earlier of the two.
  void pair(Operation &low, Operation &high, Code a, Code b, Operation &first) {
    Builder builder;
    builder.setInsertionPoint(first);
    llvm::SMLoc loc = first.loc();
    const Type word = Type::scalar(DataType::U32), half = Type::scalar(DataType::F16);
    Operation &product = builder.create(OpKind::ProductX2, loc, {a.word, b.word}, {word});
    product.set(attr::from, Type::scalar(DataType::F4E2M1));
    product.set(attr::low, a.shift);
    product.set(attr::high, a.shift + distance);
    Operation &halves = builder.create(OpKind::Unpack, loc, {product.result()}, {half, half});
    Value *f32Low = builder.createValue(OpKind::Convert, loc, Type::scalar(DataType::F32),
                                        {halves.result(0)});
    Value *f32High = builder.createValue(OpKind::Convert, loc, Type::scalar(DataType::F32),
                                         {halves.result(1)});
    replaceAllUsesWith(kernel, low.result(), f32Low);
    replaceAllUsesWith(kernel, high.result(), f32High);
    replaced.push_back(&low);
    replaced.push_back(&high);
  }

  Operation &kernel;
  /// How far apart the codes of a pair are, in bits.
  int64_t distance;
  std::vector<Operation *> replaced;
};

class NarrowPairsPass : public Pass {
public:
  explicit NarrowPairsPass(const TargetFeatures &target) : distance(narrowPairDistance(target)) {}
  llvm::StringRef name() const override { return "narrow-pairs"; }
  void run(Operation &kernel, PassContext &) override { NarrowPairs(kernel, distance).run(); }

private:
  int64_t distance;
};

} // namespace

std::unique_ptr<Pass> createNarrowPairsPass(llvm::StringRef arch) {
  // An unknown arch is isel's to report.
  const TargetFeatures *target = findTargetFeatures(arch);
  return std::make_unique<NarrowPairsPass>(target ? *target : targetFeatureTable().front());
}

} // namespace cutec
