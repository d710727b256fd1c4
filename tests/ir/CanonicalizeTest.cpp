// canonicalize: folding with the target's semantics, identities, CSE, DCE.
#include "IRTestUtil.h"

#include "ir/core/Printer.h"
#include "passes/Passes.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

using namespace ir;

struct Kernel {
  Operation op{OpKind::Kernel, {}};
  Block *body;
  Builder b;
  Kernel() {
    op.set(ir::attr::name, std::string("k"));
    body = &op.addRegion().addBlock();
    b.setInsertionPointToEnd(*body);
  }
  Value *arg(DataType t, const char *name) { return body->addArgument(Type::scalar(t), name); }
  Value *i32(int64_t v) { return b.constantInt({}, DataType::I32, v); }
  Value *f32(double v) { return b.constantFloat({}, DataType::F32, v); }
  Value *bin(OpKind k, Value *x, Value *y) { return b.createValue(k, {}, x->type(), {x, y}); }
  /// Keeps `v` alive: a store-like side effect the canonicalizer must keep.
  void use(Value *v) {
    Operation &sink = b.create(OpKind::PtxInst, {}, {v});
    sink.set(ir::attr::opcode, std::string("sink"));
  }
  std::string canonicalized() {
    b.create(OpKind::Return, {});
    PassContext context([](llvm::SMLoc, const llvm::Twine &) {});
    createCanonicalizePass()->run(op, context);
    return toString(op);
  }
};

TEST(Canonicalize, FoldsIntegersWithWraparound) {
  Kernel k;
  k.use(k.bin(OpKind::Add, k.i32(0x7fffffff), k.i32(1)));
  k.use(k.bin(OpKind::Mul, k.i32(6), k.i32(7)));
  k.use(k.bin(OpKind::Div, k.i32(-7), k.i32(2)));
  std::string text = k.canonicalized();
  EXPECT_NE(text.find("arith.constant {value = -2147483648} : i32"), std::string::npos) << text;
  EXPECT_NE(text.find("arith.constant {value = 42} : i32"), std::string::npos) << text;
  EXPECT_NE(text.find("arith.constant {value = -3} : i32"), std::string::npos) << text;
  EXPECT_EQ(text.find("arith.add"), std::string::npos) << text;
}

TEST(Canonicalize, LeavesDivisionByZeroToRunTime) {
  Kernel k;
  k.use(k.bin(OpKind::Div, k.i32(7), k.i32(0)));
  EXPECT_NE(k.canonicalized().find("arith.div"), std::string::npos);
}

TEST(Canonicalize, FoldsF32WithOneRounding) {
  Kernel k;
  // 0.1f + 0.2f rounds in single precision: not the double sum.
  k.use(k.bin(OpKind::Add, k.f32(0.1f), k.f32(0.2f)));
  std::string text = k.canonicalized();
  EXPECT_NE(text.find("{value = " + str(Attribute(double(0.1f + 0.2f))) + "} : f32"),
            std::string::npos)
      << text;
}

TEST(Canonicalize, IdentitiesOnIntegersOnly) {
  Kernel k;
  Value *x = k.arg(DataType::I32, "x");
  Value *f = k.arg(DataType::F32, "f");
  k.use(k.bin(OpKind::Add, x, k.i32(0)));
  k.use(k.bin(OpKind::Mul, k.i32(1), x));
  k.use(k.bin(OpKind::Add, f, k.f32(0.0))); // -0 + 0 is +0: not an identity
  std::string text = k.canonicalized();
  EXPECT_NE(text.find("ptx.inst %x {opcode = \"sink\"}\n  ptx.inst %x"), std::string::npos)
      << text;
  EXPECT_NE(text.find("arith.add %f"), std::string::npos) << text;
}

TEST(Canonicalize, MergesEqualPureOpsAndRemovesDeadOnes) {
  Kernel k;
  Value *x = k.arg(DataType::I32, "x");
  Value *a = k.bin(OpKind::Mul, x, x);
  Value *b = k.bin(OpKind::Mul, x, x);
  k.bin(OpKind::Sub, x, x); // dead
  k.use(a);
  k.use(b);
  std::string text = k.canonicalized();
  EXPECT_EQ(text, "kernel {name = \"k\"} {\n"
                  "^bb(%x: i32):\n"
                  "  %0 = arith.mul %x, %x : i32\n"
                  "  ptx.inst %0 {opcode = \"sink\"}\n"
                  "  ptx.inst %0 {opcode = \"sink\"}\n"
                  "  return\n"
                  "}\n");
}

TEST(Canonicalize, CseRespectsScopes) {
  // A value computed inside a loop body is not reused after the loop.
  auto kernel = test::makeSumKernel();
  Block &body = kernel->regions()[0]->front();
  Builder b;
  b.setInsertionPoint(*body.terminator());
  Value *n = body.argument(0);
  Operation &loop = **std::next(body.operations().begin(), 2);
  Builder inner;
  inner.setInsertionPoint(*loop.regions()[0]->front().terminator());
  Value *inLoop = inner.createValue(OpKind::Mul, {}, n->type(), {n, n});
  Operation &useIn = inner.create(OpKind::PtxInst, {}, {inLoop});
  useIn.set(ir::attr::opcode, std::string("sink"));
  Value *after = b.createValue(OpKind::Mul, {}, n->type(), {n, n});
  Operation &useAfter = b.create(OpKind::PtxInst, {}, {after});
  useAfter.set(ir::attr::opcode, std::string("sink"));
  PassContext context([](llvm::SMLoc, const llvm::Twine &) {});
  createCanonicalizePass()->run(*kernel, context);
  std::string text = toString(*kernel);
  size_t first = text.find("arith.mul %n, %n"), second = text.find("arith.mul %n, %n", first + 1);
  EXPECT_NE(second, std::string::npos) << text;
}

TEST(Canonicalize, CseSeesIntoBothRegionsOfAWhileLoop) {
  // n * n before the loop serves both regions; the regions do not share
  // their own values, and the loop (not pure) stays although nothing uses
  // its results.
  auto kernel = test::makeHalvingKernel();
  Block &body = kernel->regions()[0]->front();
  Value *n = body.argument(0);
  Operation &loop = **std::next(body.operations().begin());
  auto square = [&](Operation &before) {
    Builder b;
    b.setInsertionPoint(before);
    Operation &use =
        b.create(OpKind::PtxInst, {}, {b.createValue(OpKind::Mul, {}, n->type(), {n, n})});
    use.set(ir::attr::opcode, std::string("sink"));
  };
  square(*loop.regions()[0]->front().terminator());
  square(*loop.regions()[1]->front().terminator());
  PassContext context([](llvm::SMLoc, const llvm::Twine &) {});
  createCanonicalizePass()->run(*kernel, context);
  std::string separate = toString(*kernel);
  EXPECT_EQ(llvm::StringRef(separate).count("arith.mul %n, %n"), 2u) << separate;
  EXPECT_NE(separate.find("while %n, %0"), std::string::npos) << separate;

  square(loop);
  createCanonicalizePass()->run(*kernel, context);
  std::string shared = toString(*kernel);
  EXPECT_EQ(llvm::StringRef(shared).count("arith.mul %n, %n"), 1u) << shared;
}

} // namespace
} // namespace cutec
