// partition: tiles and slices become views of parameters whose offsets are
// the layout algebra's, checked by evaluating the emitted i32 arithmetic.
#include "PassTestKernels.h"

#include "llvm/ADT/StringMap.h"

namespace cutec {
namespace {

using namespace ir;
using namespace test;

/// Evaluates the i32 arithmetic that defines `v`; thread and block indices
/// and kernel arguments come from `env` ("tidx", "bidx", "bidy", "M", ...).
int64_t evaluate(const Value *v, const llvm::StringMap<int64_t> &env) {
  const Operation *op = v->definingOp();
  if (!op)
    return env.lookup(v->nameHint());
  auto arg = [&](unsigned i) { return evaluate(op->operand(i), env); };
  switch (op->kind()) {
  case OpKind::Constant:
    return *op->get<int64_t>(ir::attr::value);
  case OpKind::ThreadIdx:
    return env.lookup("tidx");
  case OpKind::BlockIdx:
    return env.lookup(*op->get(ir::attr::dim) == 0 ? "bidx" : "bidy");
  case OpKind::Add:
    return arg(0) + arg(1);
  case OpKind::Sub:
    return arg(0) - arg(1);
  case OpKind::Mul:
    return arg(0) * arg(1);
  case OpKind::Div:
    return arg(0) / arg(1);
  case OpKind::Rem:
    return arg(0) % arg(1);
  default:
    ADD_FAILURE() << "unexpected op " << name(op->kind()).str();
    return 0;
  }
}

TEST(Partition, SlicesBecomeViewsOfParametersAtTheLayoutOffset) {
  KernelUnderTest k = makeCopyKernel();
  ASSERT_EQ(runPasses(*k.module, loweringPipeline(1)), "");
  EXPECT_TRUE(opsOf(*k.kernel, OpKind::LocalTile).empty());
  EXPECT_TRUE(opsOf(*k.kernel, OpKind::Slice).empty());
  std::vector<Operation *> views = opsOf(*k.kernel, OpKind::View);
  ASSERT_EQ(views.size(), 2u) << toString(*k.kernel);
  EXPECT_EQ(views[0]->operand(0), k.entry->argument(0));
  EXPECT_EQ(views[1]->operand(0), k.entry->argument(1));
  EXPECT_EQ(views[0]->result()->type().str(), "tensor<f16, gmem, (8):(1)>");
  // Row tidx of tile (bidx, bidy) of (128, 8) in an (M,N):(N,1) tensor.
  for (auto [tidx, bidx, bidy] : {std::tuple{0, 0, 0}, {5, 0, 0}, {127, 3, 2}, {64, 1, 7}}) {
    llvm::StringMap<int64_t> env{
        {"tidx", tidx}, {"bidx", bidx}, {"bidy", bidy}, {"M", 1024}, {"N", 96}};
    int64_t expected = (bidx * 128 + tidx) * 96 + bidy * 8;
    EXPECT_EQ(evaluate(views[0]->operand(1), env), expected);
    EXPECT_EQ(evaluate(views[1]->operand(1), env), expected);
  }
}

TEST(Partition, SliceOffsetIsCrd2idxOfThePattern) {
  // The symbolic offset partition materializes for the copy kernel's slice.
  IntExpr M = IntExpr::symbol("M"), N = IntExpr::symbol("N");
  auto tile = localTile(Layout(tup(M, N), tup(N, 1)), Tiler::fromShape(tup(128, 8)), tup(_(), _()));
  ASSERT_TRUE(bool(tile));
  EXPECT_TRUE(tile->offset.isConstant(0));
  auto offset = sliceOffset(tile->layout, tup(slot(0), _(), slot(1), slot(2)));
  ASSERT_TRUE(bool(offset));
  IntExpr t = IntExpr::symbol("$0"), bx = IntExpr::symbol("$1"), by = IntExpr::symbol("$2");
  EXPECT_EQ(offset->str(), (t * N + bx * (N * 128) + by * 8).str());
}

TEST(Partition, BroadcastScaleFactorsKeepTheirZeroStride) {
  KernelUnderTest k = makeFp4DecodeKernel();
  ASSERT_EQ(runPasses(*k.module, loweringPipeline(1)), "");
  std::vector<Operation *> views = opsOf(*k.kernel, OpKind::View);
  ASSERT_EQ(views.size(), 3u) << toString(*k.kernel);
  EXPECT_EQ(views[1]->result()->type().str(), "tensor<ue4m3, gmem, (16):(0)>");
  llvm::StringMap<int64_t> env{{"tidx", 9}, {"bidx", 2}, {"M", 512}};
  EXPECT_EQ(evaluate(views[0]->operand(1), env), (2 * 128 + 9) * 16);
  EXPECT_EQ(evaluate(views[1]->operand(1), env), 2 * 128 + 9);
  EXPECT_EQ(evaluate(views[2]->operand(1), env), 2 * 128 + 9);
}

TEST(Partition, SliceByLoopVariableIsComputedInsideTheLoop) {
  KernelUnderTest k = makeRowSumKernel();
  ASSERT_EQ(runPasses(*k.module, loweringPipeline(1)), "");
  std::vector<Operation *> views = opsOf(*k.kernel, OpKind::View);
  ASSERT_EQ(views.size(), 2u);
  EXPECT_NE(views[0]->parentBlock(), k.entry);
  llvm::StringMap<int64_t> env{{"tidx", 3}, {"bidx", 1}, {"k", 5}, {"M", 256}, {"K", 40}};
  EXPECT_EQ(evaluate(views[0]->operand(1), env), (128 + 3) * 40 + 5 * 4);
}

TEST(Partition, ASliceThatDoesNotFitTheLayoutIsAnError) {
  KernelUnderTest k("bad_slice", {"M"});
  Value *x = k.tensor("mX", DataType::F32, Layout(tup(IntExpr::symbol("M"), 4), tup(4, 1)));
  k.finishSignature();
  Value *tidx = threadIdx(k.b, OpKind::ThreadIdx);
  Operation &slice = k.b.create(OpKind::Slice, {}, {x, tidx}, {x->type()});
  slice.set(ir::attr::coord, tup(slot(0), _(), 0));
  k.b.create(OpKind::Return, {});
  EXPECT_EQ(runPasses(*k.module, loweringPipeline(1)),
            "coordinate ($0,_,0) does not match shape (M,4)\n");
}

} // namespace
} // namespace cutec
