// The verifier: each rule, with the message it gives.
#include "IRTestUtil.h"

#include "ir/core/Verifier.h"

#include <gtest/gtest.h>

namespace cutec::ir {
namespace {

std::string firstIssue(const Operation &kernel) {
  auto issues = verify(kernel);
  return issues.empty() ? "" : issues.front().message;
}

TEST(Verifier, AcceptsAWellFormedKernel) {
  auto kernel = test::makeSumKernel();
  EXPECT_EQ(firstIssue(*kernel), "");
}

TEST(Verifier, WhileLoopsCarryOneTypeThroughBothRegions) {
  auto kernel = test::makeHalvingKernel();
  EXPECT_EQ(firstIssue(*kernel), "");
  Operation &loop = *std::next(kernel->regions()[0]->front().operations().begin())->get();
  Block &before = loop.regions()[0]->front(), &after = loop.regions()[1]->front();

  // The condition forwards a value of another type than the body takes.
  Operation &condition = *before.terminator();
  Value *cmp = condition.operand(0);
  condition.setOperand(1, cmp);
  EXPECT_EQ(firstIssue(*kernel), "'while': the after region's arguments and the results must "
                                 "have the types that 'condition' forwards");
  condition.setOperand(1, before.argument(0));

  // A condition that is not a bool.
  condition.setOperand(0, before.argument(1));
  EXPECT_EQ(firstIssue(*kernel), "'while': 'condition' needs a bool first operand");
  condition.setOperand(0, cmp);

  // The body yields fewer values than the loop carries.
  Operation &yield = *after.terminator();
  Value *kept = yield.operand(1);
  yield.setOperands({yield.operand(0)});
  EXPECT_EQ(firstIssue(*kernel), "'while': the before region's arguments and the after region's "
                                 "yield must have the operands' types");
  yield.setOperands({yield.operand(0), kept});
  EXPECT_EQ(firstIssue(*kernel), "");

  // The before region ends in a yield instead of a condition.
  erase(condition);
  Builder(before).create(OpKind::Yield, {}, {});
  EXPECT_EQ(firstIssue(*kernel), "'while': the before region must end with 'condition'");
}

TEST(Verifier, RejectsUseOutsideScope) {
  auto kernel = test::makeSumKernel();
  Block &body = kernel->regions()[0]->front();
  Operation &loop = *std::next(body.operations().begin(), 2)->get();
  Value *inner = loop.regions()[0]->front().operations().front()->result();
  Builder b(body);
  b.setInsertionPoint(*body.terminator());
  b.createValue(OpKind::Neg, {}, Type::scalar(DataType::I32), {inner});
  EXPECT_EQ(firstIssue(*kernel),
            "'arith.neg': operand is used before it is defined or outside its scope");
}

TEST(Verifier, RejectsMissingTerminator) {
  auto kernel = test::makeSumKernel();
  Block &body = kernel->regions()[0]->front();
  erase(*body.terminator());
  EXPECT_EQ(firstIssue(*kernel), "'kernel': region must end with 'return'");
}

TEST(Verifier, RejectsArityAndTypeMismatches) {
  Operation kernel(OpKind::Kernel, {});
  kernel.set(ir::attr::name, std::string("k"));
  Block &body = kernel.addRegion().addBlock();
  Builder b(body);
  Value *i = b.constantInt({}, DataType::I32, 1);
  Value *f = b.constantFloat({}, DataType::F32, 1.0);
  b.createValue(OpKind::Add, {}, Type::scalar(DataType::F32), {i, f});
  b.createValue(OpKind::Mul, {}, Type::scalar(DataType::F32), {f});
  Operation &tid = b.create(OpKind::ThreadIdx, {}, {}, {Type::scalar(DataType::I32)});
  tid.set(ir::attr::dim, int64_t(3));
  b.create(OpKind::Return, {});
  auto issues = verify(kernel);
  ASSERT_EQ(issues.size(), 3u);
  EXPECT_EQ(issues[0].message,
            "'arith.add': operand of type i32 does not match result type f32");
  EXPECT_EQ(issues[1].message, "'arith.mul': expected 2 operand(s), found 1");
  EXPECT_EQ(issues[2].message, "'cute.thread_idx': needs a 'dim' of 0, 1 or 2");
}

TEST(Verifier, ConvertsScalarsOrFragmentsOfOneLayout) {
  Operation kernel(OpKind::Kernel, {});
  kernel.set(ir::attr::name, std::string("k"));
  Block &body = kernel.addRegion().addBlock();
  Layout frag(tup(tup(16, 4)), tup(tup(0, 1)));
  Value *f4 = body.addArgument(Type::tensor(DataType::F4E2M1, MemorySpace::Register, frag), "a");
  Value *g = body.addArgument(Type::tensor(DataType::F4E2M1, MemorySpace::Global, frag), "g");
  Builder b(body);
  b.createValue(OpKind::Convert, {}, Type::tensor(DataType::F32, MemorySpace::Register, frag), {f4});
  b.createValue(OpKind::Convert, {}, Type::tensor(DataType::F32, MemorySpace::Register, frag), {g});
  b.create(OpKind::Return, {});
  auto issues = verify(kernel);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message,
            "'arith.convert': converts a scalar to a scalar, or a register fragment to one of "
            "the same layout; found tensor<f4e2m1, gmem, ((16,4)):((0,1))> to "
            "tensor<f32, rmem, ((16,4)):((0,1))>");
}

TEST(Verifier, RejectsKernelsWithoutNames) {
  Operation kernel(OpKind::Kernel, {});
  Builder(kernel.addRegion().addBlock()).create(OpKind::Return, {});
  EXPECT_EQ(firstIssue(kernel), "'kernel': kernel without a 'name' attribute");
}

} // namespace
} // namespace cutec::ir
