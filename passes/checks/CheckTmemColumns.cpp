//===- CheckTmemColumns.cpp - Accumulator and scale-factor columns --------===//
//
// A block-scaled GEMM keeps its accumulator and the scale factors that
// tcgen05.cp copies for each K tile in the same tensor memory, at columns
// the kernel chooses (`base + bn`, ...). A scale-factor tensor that overlaps
// the accumulator (or the other operand's factors, or an A operand in
// tensor memory) is overwritten while the MMAs read it; a tensor that
// reaches past the columns tmem_alloc allocated uses another CTA's memory.
// Both are errors here, for tensors whose address is the allocated base
// read back from tmem_alloc's holder plus a compile-time offset.
// Accumulators may share columns with each other: a persistent kernel's two
// accumulator stages do, by design (examples/nvfp4_gemm_persistent.cute).
//
//===----------------------------------------------------------------------===//
#include "passes/checks/PipelineChecks.h"

#include "passes/analysis/BarrierSites.h"

#include "llvm/ADT/MapVector.h"

namespace cutec {

using namespace ir;

namespace {

constexpr int64_t kLaneStep = 1 << 16;

/// A tensor-memory tensor at `offset` columns from the base that the
/// holder allocation `holder` received, spanning `columns`.
struct Placement {
  const Operation *tensor;
  const Operation *holder;
  int64_t offset, columns;
  const char *role;
};

/// The tmem_tensor a view of tensor memory comes from.
const Operation *tmemTensorOf(const Value *v) {
  const Operation *def = v->definingOp();
  while (def && def->kind() != OpKind::TmemTensor && !def->operands().empty())
    def = def->operand(0)->definingOp();
  return def && def->kind() == OpKind::TmemTensor ? def : nullptr;
}

/// `holder.load() + c` (through conversions): the holder's allocation and c.
std::optional<std::pair<const Operation *, int64_t>> baseAndOffset(const Value *v) {
  int64_t offset = 0;
  for (const Operation *def = v->definingOp(); def; def = v->definingOp()) {
    if (def->kind() == OpKind::Convert) {
      v = def->operand(0);
      continue;
    }
    if (def->kind() == OpKind::Load)
      if (const Operation *holder = allocationOf(def->operand(0)))
        return std::make_pair(holder, offset);
    if (def->kind() != OpKind::Add && def->kind() != OpKind::Sub)
      return std::nullopt;
    std::optional<int64_t> rhs = intConstantOf(def->operand(1));
    std::optional<int64_t> lhs = intConstantOf(def->operand(0));
    if (rhs) {
      offset += def->kind() == OpKind::Add ? *rhs : -*rhs;
      v = def->operand(0);
    } else if (lhs && def->kind() == OpKind::Add) {
      offset += *lhs;
      v = def->operand(1);
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// The columns a tensor spans: its layout's column strides (lanes step by
/// 65536 cells); scale factors count bytes, four to a column.
std::optional<int64_t> columnSpan(const Type &t) {
  bool bytes = bitWidth(t.element()) == 8;
  Layout flat = flatten(t.tensorLayout());
  int64_t last = 0;
  for (size_t i = 0; i < flat.shape.rank(); ++i) {
    const IntExpr &extent = flat.shape[i].leaf();
    const IntExpr &stride = flat.stride[i].leaf();
    if (!extent.isStatic() || !stride.isStatic())
      return std::nullopt;
    int64_t step = stride.staticValue();
    if (step <= 0 || step % (bytes ? 4 * kLaneStep : kLaneStep) == 0)
      continue;
    last += (extent.staticValue() - 1) * step;
  }
  return bytes ? last / 4 + 1 : last + 1;
}

std::string columnRange(const Placement &p) {
  return "columns " + std::to_string(p.offset) + "-" + std::to_string(p.offset + p.columns - 1);
}

} // namespace

void checkTmemColumns(Operation &kernel, PassContext &context) {
  llvm::MapVector<const Operation *, Placement> placements;
  llvm::DenseMap<const Operation *, const Operation *> allocations;
  auto place = [&](const Value *view, const char *role) {
    const Operation *tensor = tmemTensorOf(view);
    if (!tensor || placements.count(tensor))
      return;
    auto base = baseAndOffset(tensor->operand(0));
    std::optional<int64_t> columns = columnSpan(tensor->result()->type());
    if (base && columns)
      placements[tensor] = {tensor, base->first, base->second, *columns, role};
  };
  // The MMAs' operands first, so that a tensor is named by what the MMA
  // makes of it.
  walk(kernel, [&](Operation &op) {
    if (op.kind() == OpKind::TmemAlloc)
      if (const Operation *holder = allocationOf(op.operand(0)))
        allocations[holder] = &op;
    if (op.kind() != OpKind::Gemm || op.operand(0)->type().memorySpace() != MemorySpace::Tensor)
      return;
    place(op.operand(0), "the accumulator");
    if (op.operand(1)->type().memorySpace() == MemorySpace::Tensor)
      place(op.operand(1), "the A operand");
    if (op.operands().size() >= 6) {
      place(op.operand(4), "the scale factors of A");
      place(op.operand(5), "the scale factors of B");
    }
  });
  walk(kernel, [&](Operation &op) {
    if (op.kind() == OpKind::TmemCopy)
      place(op.operand(1), "the scale factors tmem_copy writes");
  });

  for (const auto &[tensor, p] : placements) {
    const Operation *alloc = allocations.lookup(p.holder);
    std::optional<int64_t> allocated = alloc ? intConstantOf(alloc->operand(1)) : std::nullopt;
    if (allocated && (p.offset < 0 || p.offset + p.columns > *allocated)) {
      context.error(tensor->loc(), "the " + columnRange(p) + " of tensor memory that hold " +
                                       p.role + " are past the " + std::to_string(*allocated) +
                                       " columns that tmem_alloc allocated");
      context.note(alloc->loc(), "the columns are allocated here");
      return;
    }
  }
  for (auto a = placements.begin(); a != placements.end(); ++a)
    for (auto b = std::next(a); b != placements.end(); ++b) {
      const Placement &x = a->second, &y = b->second;
      bool bothAccumulators =
          llvm::StringRef(x.role) == y.role && llvm::StringRef(x.role) == "the accumulator";
      if (x.holder != y.holder || bothAccumulators || x.offset + x.columns <= y.offset ||
          y.offset + y.columns <= x.offset)
        continue;
      context.error(y.tensor->loc(), std::string(y.role) + " (" + columnRange(y) + ") and " +
                                         x.role + " (" + columnRange(x) +
                                         ") share tensor-memory columns");
      context.note(x.tensor->loc(), std::string(x.role) + " is placed here");
      return;
    }
}

} // namespace cutec
