// The table-driven part of the verifier: each op's row in Ops.def (operand
// and result counts, attributes and their kinds), with the message each
// fault gives.
#include "ir/core/OpSignature.h"
#include "ir/core/Builder.h"
#include "ir/core/Verifier.h"

#include <gtest/gtest.h>

namespace cutec::ir {
namespace {

struct Kernel {
  Operation kernel{OpKind::Kernel, {}};
  Builder b;
  Kernel() {
    kernel.set(attr::name, "k");
    b.setInsertionPointToEnd(kernel.addRegion().addBlock());
  }
  Value *i32(int64_t v) { return b.constantInt({}, DataType::I32, v); }
  /// The verifier's messages once the kernel returns.
  std::vector<std::string> issues() {
    b.create(OpKind::Return, {});
    std::vector<std::string> messages;
    for (const VerifierIssue &issue : verify(kernel))
      messages.push_back(issue.message);
    return messages;
  }
};

const Type kI32 = Type::scalar(DataType::I32);

TEST(OpSignature, RejectsWrongOperandAndResultCounts) {
  Kernel k;
  Value *one = k.i32(1);
  k.b.createValue(OpKind::Neg, {}, kI32, {one, one});
  k.b.create(OpKind::Select, {}, {one, one, one}, {kI32, kI32});
  k.b.createValue(OpKind::Slice, {}, kI32, {});
  k.b.create(OpKind::TmaLoad, {}, {one, one});
  EXPECT_EQ(k.issues(), (std::vector<std::string>{
                            "'arith.neg': expected 1 operand(s), found 2",
                            "'arith.select': expected 1 result(s), found 2",
                            "'cute.slice': expected at least 1 operand(s), found 0",
                            "'cute.slice': needs an int tuple 'coord'",
                            "'nvgpu.tma_load': expected 3 to 4 operand(s), found 2",
                        }));
}

TEST(OpSignature, GivesTheRowsMessageForACount) {
  Kernel k;
  Value *x = k.i32(1);
  k.b.createValue(OpKind::MathCall, {}, kI32, {x, x, x})->definingOp()->set(attr::fn, "max");
  EXPECT_EQ(k.issues(), std::vector<std::string>{"'math.call': takes one or two operands"});
}

TEST(OpSignature, RejectsMissingAttributes) {
  Kernel k;
  k.b.create(OpKind::Cmp, {}, {k.i32(1), k.i32(2)}, {Type::scalar(DataType::Bool)});
  k.b.create(OpKind::WgmmaWait, {});
  EXPECT_EQ(k.issues(), (std::vector<std::string>{"'arith.cmp': needs a 'predicate'",
                                                  "'nvgpu.wgmma_wait_group': needs an int "
                                                  "'pending'"}));
}

TEST(OpSignature, RejectsAttributesOfAnotherKind) {
  Kernel k;
  k.b.create(OpKind::ThreadIdx, {}, {}, {kI32}).setAttr("dim", std::string("x"));
  k.b.create(OpKind::Constant, {}, {}, {kI32}).setAttr("value", std::string("1"));
  Value *zero = k.i32(0);
  Operation &loop = k.b.create(OpKind::For, {}, {zero, zero, zero});
  loop.setAttr("unroll", int64_t(1));
  Block &body = loop.addRegion().addBlock();
  body.addArgument(kI32, "i");
  Builder(body).create(OpKind::Yield, {});
  EXPECT_EQ(k.issues(), (std::vector<std::string>{
                            "'cute.thread_idx': needs a 'dim' of 0, 1 or 2",
                            "'arith.constant': needs an integer, float or bool 'value'",
                            "'for': 'unroll' must be a bool",
                        }));
}

TEST(OpSignature, RejectsUndeclaredAttributes) {
  Kernel k;
  Value *one = k.i32(1);
  Value *sum = k.b.createValue(OpKind::Add, {}, kI32, {one, one});
  sum->definingOp()->set(ir::attr::rounding, std::string("rz"));
  k.kernel.setAttr("block_size", int64_t(128));
  EXPECT_EQ(k.issues(), (std::vector<std::string>{"'kernel': unknown attribute 'block_size'",
                                                  "'arith.add': unknown attribute 'rounding'"}));
}

TEST(OpSignature, DescribesTheRows) {
  const OpSignature &shuffle = signature(OpKind::Shuffle);
  EXPECT_EQ(shuffle.results.min, 1u);
  EXPECT_EQ(shuffle.results.max, 1u);
  const AttributeDecl *offset = findAttribute(OpKind::Shuffle, "offset");
  ASSERT_NE(offset, nullptr);
  EXPECT_FALSE(offset->required);
  EXPECT_EQ(offset->kinds, kindBit<int64_t> | kindBit<IntTuple>);
  EXPECT_EQ(findAttribute(OpKind::Shuffle, "dim"), nullptr);
  EXPECT_EQ(attributeIssue(OpKind::Shuffle, "mode"), "needs a 'mode': up, down, bfly or idx");
  EXPECT_TRUE(signatureIssues(Operation(OpKind::FenceProxyAsync, {})).empty());
}

} // namespace
} // namespace cutec::ir
