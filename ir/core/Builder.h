//===- Builder.h - Creates operations at an insertion point ---------------===//
#ifndef CUTEC_IR_CORE_BUILDER_H
#define CUTEC_IR_CORE_BUILDER_H

#include "ir/core/IR.h"

namespace cutec::ir {

class Builder {
public:
  Builder() = default;
  /// Inserts at the end of `block`.
  explicit Builder(Block &block) : block(&block), point(block.operations().end()) {}

  void setInsertionPointToEnd(Block &b) {
    block = &b;
    point = b.operations().end();
  }
  /// Inserts before `op` (which must be in a block).
  void setInsertionPoint(Operation &op);
  Block *insertionBlock() const { return block; }

  /// Creates an operation with the given operands and result types.
  Operation &create(OpKind kind, llvm::SMLoc loc, llvm::ArrayRef<Value *> operands = {},
                    llvm::ArrayRef<Type> resultTypes = {});
  /// Shorthand for single-result operations.
  Value *createValue(OpKind kind, llvm::SMLoc loc, Type type, llvm::ArrayRef<Value *> operands = {});
  Value *constantInt(llvm::SMLoc loc, DataType type, int64_t value);
  Value *constantFloat(llvm::SMLoc loc, DataType type, double value);
  /// Moves every operation of `from` (a block built aside) to the insertion
  /// point, in order.
  void insertAll(Block &from);

private:
  Block *block = nullptr;
  std::list<std::unique_ptr<Operation>>::iterator point;
};

/// Removes `op` from its block and destroys it; its results must be unused.
void erase(Operation &op);
/// Erases the pure operations without regions whose results nobody uses,
/// and then those that only they used; whether it erased any.
bool eraseDeadPureOps(Operation &root);
/// Moves `op` from its block to just before `anchor` (in any block).
void moveBefore(Operation &op, Operation &anchor);

} // namespace cutec::ir

#endif
