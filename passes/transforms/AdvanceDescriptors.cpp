//===- AdvanceDescriptors.cpp - Descriptors advanced by constant offsets --===//
//
// lower-mma emits one tcgen05.mma per K block and lower-s2t one tcgen05.cp
// per scale-factor atom, each on a view of the stage's tile shifted by a
// constant number of elements. Their shared-memory descriptors differ only
// in the start-address field, bits [0, 14) of the descriptor, which holds
// the operand's address >> 4. This pass gives such an operand the unshifted
// view and adds the shift, in 16-byte units, to the descriptor's constant
// bits instead (a_desc, b_desc, desc): instruction selection then forms the
// stage's descriptor once and each K block's by one 64-bit add of a
// constant, as CuTe's descriptor iterators do, instead of converting,
// shifting and masking every block's address.
//
// Adding c = bytes >> 4 to the descriptor gives the descriptor of address
// + bytes when the bytes are a multiple of 16 (so no low bits are lost)
// and the sum stays in the 14-bit field (so nothing carries into the
// leading-byte offset at bit 16). Both addresses are operands of the
// instruction, inside the CTA's .shared::cta window, which on sm_100 is at
// most 228 KiB (the 1 KiB the hardware reserves and 227 KiB for the
// kernel, the emulator's window likewise) and so below 2^18: the field
// holds address >> 4 of every such address whole, with or without the
// mask, and the sum does not carry. Offsets that are negative, not whole
// 16-byte units or not representable in the field stay as they were.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "hardware/UmmaDescriptor.h"
#include "ir/core/Builder.h"

namespace cutec {
namespace {

using namespace ir;

/// Moves the constant element offset of a shared view operand into the
/// descriptor attribute `desc`: the operand becomes the view without it.
void advance(Operation &op, unsigned operand, AttrName<int64_t> desc) {
  Value *view = op.operand(operand);
  Operation *viewOp = view->definingOp();
  if (!viewOp || viewOp->kind() != OpKind::View ||
      view->type().memorySpace() != MemorySpace::Shared)
    return;
  // The view's offset as x + k, the constants of nested adds summed.
  Value *x = viewOp->operand(1);
  int64_t k = 0;
  while (Operation *add = x->definingOp()) {
    if (add->kind() != OpKind::Add)
      break;
    std::optional<int64_t> rhs = intConstantOf(add->operand(1)),
                           lhs = intConstantOf(add->operand(0));
    if (!rhs && !lhs)
      break;
    k += rhs ? *rhs : *lhs;
    x = rhs ? add->operand(0) : add->operand(1);
  }
  int64_t bits = k * int64_t(ir::bitWidth(view->type().element()));
  constexpr int64_t unitBits = 8 << hw::kDescriptorUnitShift;
  if (k <= 0 || bits % unitBits != 0 ||
      bits / unitBits > int64_t(hw::umma_smem::kStartAddress.max()))
    return;
  const int64_t *constantBits = op.get(desc);
  if (!constantBits || hw::umma_smem::kStartAddress.get(uint64_t(*constantBits)) != 0)
    return;
  Builder b;
  b.setInsertionPoint(op);
  std::vector<Value *> operands(viewOp->operands().begin(), viewOp->operands().end());
  operands[1] = x;
  op.setOperand(operand, b.createValue(OpKind::View, viewOp->loc(), view->type(), operands));
  op.set(desc, *constantBits + bits / unitBits);
}

class AdvanceDescriptorsPass : public Pass {
public:
  llvm::StringRef name() const override { return "advance-descriptors"; }
  void run(Operation &kernel, PassContext &) override {
    walk(kernel, [&](Operation &op) {
      switch (op.kind()) {
      case OpKind::Umma:
      case OpKind::UmmaBlockScaled:
        if (!op.get(attr::aTmem))
          advance(op, 1, attr::aDesc);
        advance(op, 2, attr::bDesc);
        break;
      case OpKind::Tcgen05Cp:
        advance(op, 1, attr::desc);
        break;
      default:
        break;
      }
    });
  }
};

} // namespace

std::unique_ptr<Pass> createAdvanceDescriptorsPass() {
  return std::make_unique<AdvanceDescriptorsPass>();
}

} // namespace cutec
