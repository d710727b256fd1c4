// lower-indexing: loads and stores of views become one mem op per fragment
// register at u64 addresses; fragments become scalars.
#include "PassTestKernels.h"

namespace cutec {
namespace {

using namespace ir;
using namespace test;

bool hasTensorValues(Operation &kernel) {
  bool found = false;
  walk(kernel, [&](Operation &op) {
    for (const auto &r : op.results())
      found |= r->type().isTensor();
  });
  return found;
}

int64_t bitsOf(const Operation *memOp) { return *memOp->get(ir::attr::bits); }

TEST(LowerIndexing, CopyLoadsConvertsAndStoresEveryElement) {
  KernelUnderTest k = makeCopyKernel();
  ASSERT_EQ(runPasses(*k.module, loweringPipeline(2)), "");
  EXPECT_FALSE(hasTensorValues(*k.kernel)) << toString(*k.kernel);
  std::vector<Operation *> loads = opsOf(*k.kernel, OpKind::MemLoad);
  std::vector<Operation *> stores = opsOf(*k.kernel, OpKind::MemStore);
  ASSERT_EQ(loads.size(), 8u);
  ASSERT_EQ(stores.size(), 8u);
  EXPECT_EQ(bitsOf(loads[0]), 16);
  EXPECT_EQ(bitsOf(stores[0]), 32);
  EXPECT_EQ(*loads[0]->get(ir::attr::space), "gmem");
  EXPECT_EQ(loads[3]->result()->type(), Type::scalar(DataType::F16));
  // Element i is stored as the conversion of element i.
  for (size_t i = 0; i < 8; ++i) {
    Operation *convert = stores[i]->operand(1)->definingOp();
    ASSERT_EQ(convert->kind(), OpKind::Convert);
    EXPECT_EQ(convert->operand(0), loads[i]->result());
  }
  EXPECT_EQ(opsOf(*k.kernel, OpKind::BaseAddress).size(), 2u);
}

TEST(LowerIndexing, ContiguousFp4ElementsComeFromWordsByStaticShifts) {
  KernelUnderTest k = makeFp4DecodeKernel();
  ASSERT_EQ(runPasses(*k.module, loweringPipeline(2)), "");
  EXPECT_FALSE(hasTensorValues(*k.kernel)) << toString(*k.kernel);
  std::vector<Operation *> loads = opsOf(*k.kernel, OpKind::MemLoad);
  // The 16 nibbles at the (aligned) start of x are 8 bytes: one vector of
  // two words; then one broadcast scale factor, a single byte.
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(bitsOf(loads[0]), 32);
  ASSERT_NE(loads[0]->get(ir::attr::vector), nullptr);
  EXPECT_EQ(*loads[0]->get(ir::attr::vector), 2);
  EXPECT_EQ(loads[0]->results().size(), 2u);
  EXPECT_EQ(loads[1]->result()->type(), Type::scalar(DataType::UE4M3));
  // Nibble i of word w: a shift by the constant 4 * (i % 8), except i % 8 == 0.
  size_t staticShifts = llvm::count_if(opsOf(*k.kernel, OpKind::ShiftRight), [](Operation *op) {
    const Operation *amount = op->operand(1)->definingOp();
    return op->result()->type() == Type::scalar(DataType::U32) && amount &&
           amount->kind() == OpKind::Constant;
  });
  EXPECT_EQ(staticShifts, 14u);
  std::vector<Operation *> casts = opsOf(*k.kernel, OpKind::Bitcast);
  size_t toFp4 = llvm::count_if(
      casts, [](Operation *op) { return op->result()->type() == Type::scalar(DataType::F4E2M1); });
  EXPECT_EQ(toFp4, 16u);
  // Every product uses the one scale-factor register.
  for (Operation *mul : opsOf(*k.kernel, OpKind::Mul)) {
    if (mul->result()->type() == Type::scalar(DataType::F32)) {
      EXPECT_EQ(mul->operand(1)->definingOp()->operand(0), loads[1]->result());
    }
  }
}

/// A kernel that loads the whole parameter `x` of `layout` and stores
/// element `index` of the fragment to `y[0]`.
KernelUnderTest makeExtractKernel(const Layout &layout, int64_t index) {
  KernelUnderTest k("extract", {});
  Value *x = k.tensor("x", DataType::F32, layout);
  Value *y = k.tensor("y", DataType::F32, Layout(tup(), tup()));
  k.finishSignature();
  storeOp(k.b, extractOp(k.b, loadOp(k.b, x), index), y);
  k.b.create(OpKind::Return, {});
  return k;
}

TEST(LowerIndexing, BroadcastFragmentsHoldOneRegisterPerDistinctElement) {
  // ((16,4)):((0,1)): 64 elements, 4 registers, read as one 16-byte vector
  // of the 4 contiguous f32; element 17 is register 1, word 1.
  KernelUnderTest k = makeExtractKernel(Layout(tup(tup(16, 4)), tup(tup(0, 1))), 17);
  ASSERT_EQ(runPasses(*k.module, loweringPipeline(2)), "");
  std::vector<Operation *> loads = opsOf(*k.kernel, OpKind::MemLoad);
  ASSERT_EQ(loads.size(), 1u);
  ASSERT_EQ(loads[0]->results().size(), 4u);
  std::vector<Operation *> stores = opsOf(*k.kernel, OpKind::MemStore);
  ASSERT_EQ(stores.size(), 1u);
  const Operation *value = stores[0]->operand(1)->definingOp();
  ASSERT_TRUE(value && value->kind() == OpKind::Bitcast);
  EXPECT_EQ(value->operand(0), loads[0]->result(1));
}

TEST(LowerIndexing, DynamicFragmentIsAnError) {
  KernelUnderTest k = makeExtractKernel(Layout(IntExpr::symbol("n"), 1), 0);
  EXPECT_EQ(runPasses(*k.module, loweringPipeline(2)),
            "a register fragment needs a static shape, but this one is n\n");
}

TEST(LowerIndexing, Fp4StoresAreAnError) {
  KernelUnderTest k("store_fp4", {});
  Value *y = k.tensor("y", DataType::F4E2M1, Layout(tup(), tup()));
  k.finishSignature();
  Value *zero = k.b.create(OpKind::Constant, {}, {}, {Type::scalar(DataType::F4E2M1)}).result();
  zero->definingOp()->set(ir::attr::value, int64_t(0));
  storeOp(k.b, zero, y);
  k.b.create(OpKind::Return, {});
  EXPECT_EQ(runPasses(*k.module, loweringPipeline(2)),
            "stores of 4-bit elements are not supported: two threads may share a byte\n");
}

} // namespace
} // namespace cutec
