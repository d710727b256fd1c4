// Kernel IR as the front end builds it (tile, slice, load, convert, extract,
// store), for the partition / lower-indexing / isel tests, and the pipeline
// that lowers it to machine IR.
#ifndef CUTEC_TESTS_PASSES_PASSTESTKERNELS_H
#define CUTEC_TESTS_PASSES_PASSTESTKERNELS_H

#include "ir/core/Builder.h"
#include "ir/core/Printer.h"
#include "ir/core/Verifier.h"
#include "passes/PassManager.h"
#include "passes/Passes.h"
#include "target/ptx/isel/InstructionSelection.h"

#include <gtest/gtest.h>

namespace cutec::test {

using namespace ir;

/// A kernel under construction: its module, entry block and a builder at
/// the end of the entry block.
struct KernelUnderTest {
  std::unique_ptr<Module> module = std::make_unique<Module>();
  Operation *kernel = nullptr;
  Block *entry = nullptr;
  Builder b;

  KernelUnderTest(const std::string &name, std::vector<std::string> dynamicSizes) {
    auto op = std::make_unique<Operation>(OpKind::Kernel, llvm::SMLoc());
    op->set(ir::attr::name, name);
    op->set(ir::attr::block, tup(128, 1, 1));
    kernel = op.get();
    entry = &op->addRegion().addBlock();
    b.setInsertionPointToEnd(*entry);
    module->kernels().push_back(std::move(op));
    sizes = std::move(dynamicSizes);
  }

  /// Tensor parameters come first; call finishSignature() after the last.
  Value *tensor(const std::string &name, DataType type, Layout layout) {
    return entry->addArgument(Type::tensor(type, MemorySpace::Global, std::move(layout)), name);
  }
  void finishSignature() {
    std::vector<IntTuple> symbols;
    for (const std::string &size : sizes) {
      entry->addArgument(Type::scalar(DataType::I32), size);
      symbols.push_back(IntExpr::symbol(size));
    }
    kernel->set(ir::attr::dynamicSizes, IntTuple::tuple(std::move(symbols)));
  }
  Value *size(llvm::StringRef name) {
    for (const auto &arg : entry->arguments())
      if (arg->nameHint() == name)
        return arg.get();
    return nullptr;
  }

  std::vector<std::string> sizes;
};

inline Value *threadIdx(Builder &b, OpKind kind, int64_t dim = 0) {
  Operation &op = b.create(kind, {}, {}, {Type::scalar(DataType::I32)});
  op.set(ir::attr::dim, dim);
  return op.result();
}

inline Value *localTileOp(Builder &b, Value *t, const IntTuple &tiler, const IntTuple &coord) {
  auto tile = localTile(t->type().tensorLayout(), Tiler::fromShape(tiler), coord);
  EXPECT_TRUE(bool(tile)) << llvm::toString(tile.takeError());
  Operation &op =
      b.create(OpKind::LocalTile, {}, {t},
               {Type::tensor(t->type().element(), t->type().memorySpace(), tile->layout)});
  op.set(ir::attr::tiler, tiler);
  op.set(ir::attr::coord, coord);
  return op.result();
}

inline Value *sliceOp(Builder &b, Value *t, const IntTuple &pattern,
                      llvm::ArrayRef<Value *> coords) {
  auto layout = slice(t->type().tensorLayout(), pattern);
  EXPECT_TRUE(bool(layout)) << llvm::toString(layout.takeError());
  std::vector<Value *> operands{t};
  operands.insert(operands.end(), coords.begin(), coords.end());
  Operation &op = b.create(OpKind::Slice, {}, operands,
                           {Type::tensor(t->type().element(), t->type().memorySpace(), *layout)});
  op.set(ir::attr::coord, pattern);
  return op.result();
}

/// `$i`: the slice's coordinate operand i.
inline IntTuple slot(int i) { return IntTuple(IntExpr::symbol("$" + std::to_string(i))); }
inline IntTuple _() { return IntTuple::underscore(); }

/// `view.load()`: a fragment with the view's layout, or a scalar for a
/// rank-0 view.
inline Value *loadOp(Builder &b, Value *view) {
  const Type &t = view->type();
  Type result = t.tensorLayout().shape.isTuple() && t.tensorLayout().rank() == 0
                    ? Type::scalar(t.element())
                    : Type::tensor(t.element(), MemorySpace::Register, t.tensorLayout());
  return b.createValue(OpKind::Load, {}, result, {view});
}

inline Value *convertOp(Builder &b, Value *v, DataType to) {
  const Type &t = v->type();
  Type result =
      t.isTensor() ? Type::tensor(to, MemorySpace::Register, t.tensorLayout()) : Type::scalar(to);
  return b.createValue(OpKind::Convert, {}, result, {v});
}

inline Value *extractOp(Builder &b, Value *fragment, int64_t index) {
  Operation &op =
      b.create(OpKind::Extract, {}, {fragment}, {Type::scalar(fragment->type().element())});
  op.set(ir::attr::index, index);
  return op.result();
}

inline void storeOp(Builder &b, Value *value, Value *view) {
  b.create(OpKind::Store, {}, {value, view});
}

inline Value *f32Op(Builder &b, OpKind kind, Value *x, Value *y) {
  return b.createValue(kind, {}, Type::scalar(DataType::F32), {x, y});
}

/// out[m, n] = f32(in[m, n]) for f16 (M,N):(N,1) tensors; thread t of CTA
/// (bx, by) copies the 8 elements of row t of tile (bx, by) of (128, 8).
inline KernelUnderTest makeCopyKernel() {
  KernelUnderTest k("copy_tile", {"M", "N"});
  IntExpr M = IntExpr::symbol("M"), N = IntExpr::symbol("N");
  Value *in = k.tensor("mIn", DataType::F16, Layout(tup(M, N), tup(N, 1)));
  Value *out = k.tensor("mOut", DataType::F32, Layout(tup(M, N), tup(N, 1)));
  k.finishSignature();
  Builder &b = k.b;
  Value *bx = threadIdx(b, OpKind::BlockIdx, 0);
  Value *by = threadIdx(b, OpKind::BlockIdx, 1);
  Value *tidx = threadIdx(b, OpKind::ThreadIdx, 0);
  IntTuple pattern = tup(slot(0), _(), slot(1), slot(2));
  Value *gIn = localTileOp(b, in, tup(128, 8), tup(_(), _()));
  Value *gOut = localTileOp(b, out, tup(128, 8), tup(_(), _()));
  Value *row = loadOp(b, sliceOp(b, gIn, pattern, {tidx, bx, by}));
  storeOp(b, convertOp(b, row, DataType::F32), sliceOp(b, gOut, pattern, {tidx, bx, by}));
  b.create(OpKind::Return, {});
  return k;
}

/// out[m] = f16(sum over k < 16 of a[m, k] * sfa[m]) with fp4 `a`
/// (M,16):(16,1) and one ue4m3 scale factor per row, read through a
/// broadcast view (M,16):(1,0): each thread loads 16 nibbles and 1 byte.
inline KernelUnderTest makeFp4DecodeKernel() {
  KernelUnderTest k("fp4_decode", {"M"});
  IntExpr M = IntExpr::symbol("M");
  Value *a = k.tensor("mA", DataType::F4E2M1, Layout(tup(M, 16), tup(16, 1)));
  Value *sfa = k.tensor("mSFA", DataType::UE4M3, Layout(tup(M, 16), tup(1, 0)));
  Value *out = k.tensor("mOut", DataType::F16, Layout(tup(M), tup(1)));
  k.finishSignature();
  Builder &b = k.b;
  Value *bx = threadIdx(b, OpKind::BlockIdx, 0);
  Value *tidx = threadIdx(b, OpKind::ThreadIdx, 0);
  IntTuple pattern = tup(slot(0), _(), slot(1), 0);
  Value *fa = convertOp(
      b, loadOp(b, sliceOp(b, localTileOp(b, a, tup(128, 16), tup(_(), _())), pattern, {tidx, bx})),
      DataType::F32);
  Value *fsf = convertOp(
      b,
      loadOp(b, sliceOp(b, localTileOp(b, sfa, tup(128, 16), tup(_(), _())), pattern, {tidx, bx})),
      DataType::F32);
  Value *sum = b.constantFloat({}, DataType::F32, 0.0);
  for (int64_t i = 0; i < 16; ++i)
    sum = f32Op(b, OpKind::Add, sum,
                f32Op(b, OpKind::Mul, extractOp(b, fa, i), extractOp(b, fsf, i)));
  Value *gOut = localTileOp(b, out, tup(128), tup(_()));
  storeOp(b, convertOp(b, sum, DataType::F16), sliceOp(b, gOut, tup(slot(0), slot(1)), {tidx, bx}));
  b.create(OpKind::Return, {});
  return k;
}

/// y[m] = sum over k of x[m, k] for f32 x (M,K):(K,1): a loop over
/// ceil_div(K,4) tiles of 4 with a carried f32, slicing by the loop variable.
inline KernelUnderTest makeRowSumKernel() {
  KernelUnderTest k("row_sum", {"M", "K"});
  IntExpr M = IntExpr::symbol("M"), K = IntExpr::symbol("K");
  Value *x = k.tensor("mX", DataType::F32, Layout(tup(M, K), tup(K, 1)));
  Value *y = k.tensor("mY", DataType::F32, Layout(tup(M), tup(1)));
  k.finishSignature();
  Builder &b = k.b;
  Value *bx = threadIdx(b, OpKind::BlockIdx, 0);
  Value *tidx = threadIdx(b, OpKind::ThreadIdx, 0);
  Value *gX = localTileOp(b, x, tup(128, 4), tup(_(), _()));
  Value *zero = b.constantInt({}, DataType::I32, 0);
  Value *one = b.constantInt({}, DataType::I32, 1);
  Value *four = b.constantInt({}, DataType::I32, 4);
  Value *tiles = b.createValue(OpKind::Div, {}, Type::scalar(DataType::I32),
                               {b.createValue(OpKind::Add, {}, Type::scalar(DataType::I32),
                                              {k.size("K"), b.constantInt({}, DataType::I32, 3)}),
                                four});
  Value *init = b.constantFloat({}, DataType::F32, 0.0);
  Operation &loop =
      b.create(OpKind::For, {}, {zero, tiles, one, init}, {Type::scalar(DataType::F32)});
  Block &body = loop.addRegion().addBlock();
  Value *kk = body.addArgument(Type::scalar(DataType::I32), "k");
  Value *acc = body.addArgument(Type::scalar(DataType::F32), "acc");
  Builder lb(body);
  Value *tile = loadOp(lb, sliceOp(lb, gX, tup(slot(0), _(), slot(1), slot(2)), {tidx, bx, kk}));
  Value *next = acc;
  for (int64_t i = 0; i < 4; ++i)
    next = f32Op(lb, OpKind::Add, next, extractOp(lb, tile, i));
  lb.create(OpKind::Yield, {}, {next});
  Value *gY = localTileOp(b, y, tup(128), tup(_()));
  storeOp(b, loop.result(), sliceOp(b, gY, tup(slot(0), slot(1)), {tidx, bx}));
  b.create(OpKind::Return, {});
  return k;
}

/// Runs `passes`, verifying the IR after each; returns the messages of the
/// errors reported (empty on success).
inline std::string runPasses(Module &module, std::vector<std::unique_ptr<Pass>> passes) {
  std::string errors;
  PassContext context(
      [&](llvm::SMLoc, const llvm::Twine &message) { errors += message.str() + "\n"; });
  PassManager pm;
  for (auto &pass : passes)
    pm.add(std::move(pass));
  pm.run(module, context);
  return errors;
}

inline std::vector<std::unique_ptr<Pass>> loweringPipeline(unsigned count = 3) {
  std::vector<std::unique_ptr<Pass>> passes;
  passes.push_back(createPartitionPass());
  if (count > 1)
    passes.push_back(createLowerIndexingPass());
  if (count > 2)
    passes.push_back(createInstructionSelectionPass());
  return passes;
}

/// The ops of `kernel` of kind `kind`, in program order.
inline std::vector<Operation *> opsOf(Operation &kernel, OpKind kind) {
  return collect(kernel, kind);
}

} // namespace cutec::test

#endif
