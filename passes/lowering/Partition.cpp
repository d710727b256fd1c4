//===- Partition.cpp - local_tile and slice chains to per-thread views ----===//
//
// After this pass every tensor that is read or written is a
// `cute.view %base, %offset`: a kernel parameter or a shared-memory
// allocation (`cute.smem_alloc`) plus an i32 element offset
// (docs/ir.md, "Lowering contract"). The offsets come from the layout
// algebra (localTile's offset, the slice pattern's crd2idx) and are emitted
// where the tile or slice was, so their operands (thread index, loop
// variable) are in scope. A view of a view adds the offsets, so each view
// names its parameter directly. A view of another CTA's shared memory
// (`cute.mapa`, distributed shared memory) is `cute.view %alloc, %offset,
// %rank`.
//
//===----------------------------------------------------------------------===//
#include "passes/lowering/MaterializeOffset.h"
#include "passes/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace cutec {
namespace {

namespace attr = ir::attr;
using ir::Operation;
using ir::OpKind;
using ir::Value;

class Partition : public Pass {
public:
  llvm::StringRef name() const override { return "partition"; }

  void run(Operation &kernel, PassContext &context) override {
    std::vector<Operation *> tiles;
    ir::walk(kernel, [&](Operation &op) {
      switch (op.kind()) {
      case OpKind::LocalTile:
      case OpKind::Slice:
      case OpKind::MakeTensor:
      case OpKind::Mapa:
        tiles.push_back(&op);
        break;
      case OpKind::Load:
        wrapParameter(kernel, op, 0);
        break;
      case OpKind::Store:
        wrapParameter(kernel, op, 1);
        break;
      case OpKind::MbarrierInit:
      case OpKind::MbarrierArrive:
      case OpKind::MbarrierExpectTx:
      case OpKind::MbarrierWait:
      case OpKind::TmemAlloc:
      case OpKind::TmemLoad:
      case OpKind::TmemStore:
      case OpKind::UmmaCommit:
      case OpKind::Stmatrix:
      case OpKind::Ldmatrix:
      case OpKind::Atomic:
        wrapParameter(kernel, op, 0);
        break;
      case OpKind::TmaLoadTile:
        wrapParameter(kernel, op, 1);
        wrapParameter(kernel, op, 2);
        break;
      case OpKind::TmaStoreTile:
        wrapParameter(kernel, op, 1);
        break;
      case OpKind::Gemm:
      case OpKind::TmemCopy:
        for (unsigned i = 0; i < op.operands().size(); ++i)
          wrapParameter(kernel, op, i);
        break;
      default:
        break;
      }
    });
    // In program order, so the operand of a tile is already a view.
    std::vector<Operation *> views;
    for (Operation *op : tiles) {
      Operation *view = toView(kernel, *op, context);
      if (!view)
        return;
      views.push_back(view);
    }
    for (auto it = tiles.rbegin(); it != tiles.rend(); ++it)
      ir::erase(**it);
    // Intermediate views (a tile that is only sliced further) lost their
    // users to the views that fold them.
    llvm::SmallPtrSet<const Value *, 16> used;
    ir::walk(kernel,
             [&](Operation &op) { used.insert(op.operands().begin(), op.operands().end()); });
    for (Operation *view : views)
      if (!used.count(view->result()))
        ir::erase(*view);
  }

private:
  /// The symbolic offset that `op` adds to its operand's view.
  static llvm::Expected<IntExpr> tileOffset(const Operation &op) {
    // cute.make_tensor: the operand's memory under another layout, from its
    // `offset` on; cute.mapa: the same bytes in another CTA.
    if (op.kind() == OpKind::MakeTensor) {
      const IntTuple *offset = op.get<IntTuple>(attr::offset);
      return offset ? offset->leaf() : IntExpr(0);
    }
    if (op.kind() == OpKind::Mapa)
      return IntExpr(0);
    const Layout &layout = op.operand(0)->type().tensorLayout();
    const IntTuple *coord = op.get(attr::coord);
    if (!coord)
      return layoutError("'" + ir::name(op.kind()) + "' needs a 'coord'");
    if (op.kind() == OpKind::Slice)
      return sliceOffset(layout, *coord);
    const IntTuple *tiler = op.get<IntTuple>(attr::tiler);
    if (!tiler)
      return layoutError("'cute.local_tile' needs a 'tiler'");
    auto tile = localTile(layout, Tiler::fromShape(*tiler), *coord);
    if (!tile)
      return tile.takeError();
    return tile->offset;
  }

  /// A kernel's tensor parameter, a shared-memory allocation, a tensor-memory
  /// tensor, an identity tensor's mode or global memory at a run-time
  /// address (make_ptr): what views are views of.
  static bool isParameter(const Operation &kernel, const Value *v) {
    if (const Operation *def = v->definingOp())
      return def->kind() == OpKind::SmemAlloc || def->kind() == OpKind::TmemTensor ||
             def->kind() == OpKind::IdentityTensor || def->kind() == OpKind::GlobalTensor;
    return v->ownerBlock() == kernel.regions()[0]->blocks().front().get() && v->type().isTensor();
  }

  /// Replaces the tile or slice `op` by a view of its parameter; null after
  /// an error.
  Operation *toView(Operation &kernel, Operation &op, PassContext &context) {
    llvm::Expected<IntExpr> offset = tileOffset(op);
    if (!offset) {
      context.error(op.loc(), llvm::toString(offset.takeError()));
      return nullptr;
    }
    ir::Builder b;
    b.setInsertionPoint(op);
    bool mapa = op.kind() == OpKind::Mapa;
    llvm::SmallVector<Value *, 4> coords;
    if (!mapa)
      coords.append(op.operands().begin() + 1, op.operands().end());
    Value *delta = materializeOffset(b, kernel, op.loc(), *offset, coords, context);
    if (!delta)
      return nullptr;
    Value *base = op.operand(0);
    // A view of another CTA's shared memory keeps the rank mapa gave it.
    Value *rank = mapa ? op.operand(1) : nullptr;
    if (Operation *parent = base->definingOp(); parent && parent->kind() == OpKind::View) {
      base = parent->operand(0);
      Value *start = inElementsOf(b, op, parent->operand(1), parent->result()->type().element());
      delta = b.createValue(OpKind::Add, op.loc(), delta->type(), {start, delta});
      if (parent->operands().size() > 2)
        rank = parent->operand(2);
    } else if (!isParameter(kernel, base)) {
      context.error(op.loc(), "can only tile or slice a kernel parameter, a shared tensor, a "
                              "pointer's memory or a view of one");
      return nullptr;
    }
    llvm::SmallVector<Value *, 3> operands{base, delta};
    if (rank)
      operands.push_back(rank);
    Value *view = b.createValue(OpKind::View, op.loc(), op.result()->type(), operands);
    view->setNameHint(op.result()->nameHint());
    ir::replaceAllUsesWith(kernel, op.result(), view);
    return view->definingOp();
  }

  /// The offset `elements` of `from` counted in `op`'s elements (a
  /// recast_tensor's are wider or narrower).
  static Value *inElementsOf(ir::Builder &b, const Operation &op, Value *elements,
                             ir::DataType from) {
    const unsigned before = ir::bitWidth(from), after = ir::bitWidth(op.result()->type().element());
    if (before == after)
      return elements;
    const bool wider = after > before;
    Value *ratio = b.constantInt(op.loc(), elements->type().element(),
                                 wider ? after / before : before / after);
    return b.createValue(wider ? OpKind::Div : OpKind::Mul, op.loc(), elements->type(),
                         {elements, ratio});
  }

  /// Accesses of a whole parameter or allocation go through a view at
  /// offset 0.
  static void wrapParameter(const Operation &kernel, Operation &op, unsigned operand) {
    Value *tensor = op.operand(operand);
    if (!isParameter(kernel, tensor))
      return;
    ir::Builder b;
    b.setInsertionPoint(op);
    Value *zero = b.constantInt(op.loc(), ir::DataType::I32, 0);
    op.setOperand(operand, b.createValue(OpKind::View, op.loc(), tensor->type(), {tensor, zero}));
  }
};

} // namespace

std::unique_ptr<Pass> createPartitionPass() { return std::make_unique<Partition>(); }

} // namespace cutec
