//===- WideStores.cpp - Two 16-byte global stores as one of 32 bytes ------===//
//
// sm_100 and later store 32 bytes at once to global memory
// (st.global.v8.b32, PTX ISA 8.8), where lower-indexing's widest access is
// 16 bytes. This pass merges two `mem.store {bits = 32, vector = 4, space =
// gmem}` of one block into one `{vector = 8}` where
//
// - the second writes the 16 bytes after the first's: their addresses are
//   a + c and a + c + 16 for one value a (address-constants and canonicalize
//   have written a fragment's addresses so);
// - the first address is a multiple of 32 by the divisibility analysis (the
//   tensor's base alignment, 16 bytes unless an `aligned(TENSOR, 32)`
//   assumption says more, and the offsets' known factors);
// - only pure operations lie between them, so no access moves past another.
//
// The merged store takes the second's place, after the values of both. A
// thread's two stores to disjoint bytes become one store of the same bytes,
// so nothing another thread can observe changes.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "ir/core/Builder.h"
#include "passes/analysis/Divisibility.h"
#include "target/ptx/Targets.h"

namespace cutec {
namespace {

using namespace ir;

constexpr int64_t kNarrowBytes = 16;
constexpr unsigned kWideAlignmentBits = 5; // 32 bytes

bool isNarrowGlobalStore(const Operation &op) {
  const int64_t *vector = op.get(attr::vector);
  const std::string *space = op.get(attr::space);
  return op.kind() == OpKind::MemStore && vector && *vector == 4 && space &&
         *space == name(MemorySpace::Global);
}

/// An address as a + c, c a constant (0 when it is none).
std::pair<Value *, int64_t> addressParts(Value *address) {
  Operation *add = address->definingOp();
  if (add && add->kind() == OpKind::Add)
    if (std::optional<int64_t> c = intConstantOf(add->operand(1)))
      return {add->operand(0), *c};
  return {address, 0};
}

class WideStoresPass : public Pass {
public:
  explicit WideStoresPass(const TargetFeatures &target) : target(target) {}
  llvm::StringRef name() const override { return "wide-stores"; }
  void run(Operation &kernel, PassContext &) override {
    if (!target.hasWideGlobalStores)
      return;
    Divisibility divisibility(kernel);
    std::vector<Block *> blocks;
    auto addBlocks = [&](Operation &op) {
      for (auto &region : op.regions())
        for (auto &block : region->blocks())
          blocks.push_back(block.get());
    };
    addBlocks(kernel);
    walk(kernel, addBlocks);
    for (Block *block : blocks)
      mergeIn(*block, divisibility);
  }

private:
  static void mergeIn(Block &block, Divisibility &divisibility) {
    std::vector<Operation *> ops;
    for (auto &op : block.operations())
      ops.push_back(op.get());
    Operation *pending = nullptr;
    for (Operation *op : ops) {
      if (isNarrowGlobalStore(*op)) {
        if (pending && follows(*pending, *op, divisibility)) {
          merge(*pending, *op);
          pending = nullptr;
        } else {
          pending = op;
        }
        continue;
      }
      if (!isPure(op->kind()) || !op->regions().empty())
        pending = nullptr;
    }
  }

  /// Whether `second` stores the 16 bytes after `first`'s, which start at a
  /// multiple of 32.
  static bool follows(Operation &first, Operation &second, Divisibility &divisibility) {
    auto [base, at] = addressParts(first.operand(0));
    auto [secondBase, secondAt] = addressParts(second.operand(0));
    int64_t wide = int64_t(1) << kWideAlignmentBits;
    return base == secondBase && secondAt == at + kNarrowBytes && at % wide == 0 &&
           divisibility.trailingZeros(base) >= kWideAlignmentBits;
  }

  static void merge(Operation &first, Operation &second) {
    llvm::SmallVector<Value *, 9> operands(first.operands().begin(), first.operands().end());
    llvm::append_range(operands, second.operands().drop_front());
    Builder b;
    b.setInsertionPoint(second);
    Operation &wide = b.create(OpKind::MemStore, second.loc(), operands, {});
    wide.set(attr::bits, *first.get(attr::bits));
    wide.set(attr::space, *first.get(attr::space));
    wide.set(attr::vector, int64_t(operands.size() - 1));
    erase(first);
    erase(second);
  }

  TargetFeatures target;
};

} // namespace

std::unique_ptr<Pass> createWideStoresPass(llvm::StringRef arch) {
  // An unknown arch is isel's to report.
  const TargetFeatures *target = findTargetFeatures(arch);
  return std::make_unique<WideStoresPass>(target ? *target : targetFeatureTable().front());
}

} // namespace cutec
