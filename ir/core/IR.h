//===- IR.h - The kernel IR: values, operations, blocks, regions ----------===//
//
// A small SSA IR in the style of MLIR's generic form. An Operation has a kind
// (Ops.def), operands, typed results, named attributes, nested regions and a
// source location. Regions hold blocks; blocks hold operations and typed
// arguments (a kernel's parameters, a loop's induction variable). The same
// containers carry the kernel IR from the front end and the machine IR
// (`ptx.inst`) that both back ends print.
//
//===----------------------------------------------------------------------===//
#ifndef CUTEC_IR_CORE_IR_H
#define CUTEC_IR_CORE_IR_H

#include "ir/core/Attributes.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SMLoc.h"

#include <list>
#include <optional>
#include <map>
#include <memory>

namespace cutec::ir {

enum class OpKind : unsigned char {
#define CUTEC_OP(Enum, Name, Traits, ...) Enum,
#include "ir/core/Ops.def"
};
llvm::StringRef name(OpKind kind);
bool isPure(OpKind kind);
bool isTerminator(OpKind kind);

class Operation;
class Block;
class Region;

/// An SSA value: an operation's result or a block's argument.
class Value {
public:
  Value(Type type, Operation *definingOp, Block *ownerBlock, unsigned index)
      : valueType(std::move(type)), defOp(definingOp), block(ownerBlock), position(index) {}

  const Type &type() const { return valueType; }
  void setType(Type t) { valueType = std::move(t); }
  /// The defining operation; null for block arguments.
  Operation *definingOp() const { return defOp; }
  Block *ownerBlock() const { return block; }
  unsigned index() const { return position; }
  /// The source name, when the value has one (printed as %name).
  const std::string &nameHint() const { return hint; }
  void setNameHint(std::string name) { hint = std::move(name); }

private:
  friend class Block;
  friend class Operation;
  Type valueType;
  Operation *defOp;
  Block *block;
  unsigned position;
  std::string hint;
};

class Block {
public:
  explicit Block(Region *parent = nullptr) : parentRegion(parent) {}

  Value *addArgument(Type type, llvm::StringRef nameHint = "");
  /// Removes the arguments i for which drop(i) holds, which nothing may
  /// use any more; the others keep their order and are renumbered.
  void eraseArguments(llvm::function_ref<bool(unsigned)> drop);
  llvm::ArrayRef<std::unique_ptr<Value>> arguments() const { return args; }
  Value *argument(unsigned i) const { return args[i].get(); }

  std::list<std::unique_ptr<Operation>> &operations() { return ops; }
  const std::list<std::unique_ptr<Operation>> &operations() const { return ops; }
  Operation *terminator() const;
  Region *parent() const { return parentRegion; }
  void setParent(Region *r) { parentRegion = r; }

private:
  Region *parentRegion;
  std::vector<std::unique_ptr<Value>> args;
  std::list<std::unique_ptr<Operation>> ops;
};

class Region {
public:
  explicit Region(Operation *parent) : parentOp(parent) {}
  Block &addBlock();
  std::vector<std::unique_ptr<Block>> &blocks() { return blockList; }
  const std::vector<std::unique_ptr<Block>> &blocks() const { return blockList; }
  Block &front() { return *blockList.front(); }
  Operation *parent() const { return parentOp; }

private:
  Operation *parentOp;
  std::vector<std::unique_ptr<Block>> blockList;
};

class Operation {
public:
  Operation(OpKind kind, llvm::SMLoc loc) : opKind(kind), location(loc) {}

  OpKind kind() const { return opKind; }
  llvm::SMLoc loc() const { return location; }

  llvm::ArrayRef<Value *> operands() const { return operandList; }
  Value *operand(unsigned i) const { return operandList[i]; }
  void setOperand(unsigned i, Value *v) { operandList[i] = v; }
  void addOperand(Value *v) { operandList.push_back(v); }
  void setOperands(llvm::ArrayRef<Value *> values) { operandList.assign(values.begin(), values.end()); }

  llvm::ArrayRef<std::unique_ptr<Value>> results() const { return resultList; }
  Value *result(unsigned i = 0) const { return resultList[i].get(); }
  Value *addResult(Type type);
  /// Removes the results i for which drop(i) holds, which nothing may use
  /// any more; the others keep their order and are renumbered.
  void eraseResults(llvm::function_ref<bool(unsigned)> drop);

  /// Attributes, kept sorted by name so printing is deterministic.
  const std::map<std::string, Attribute> &attributes() const { return attrs; }
  void setAttr(const std::string &key, Attribute value) { attrs[key] = std::move(value); }
  const Attribute *attr(llvm::StringRef key) const;
  template <typename T> const T *attrAs(llvm::StringRef key) const {
    const Attribute *a = attr(key);
    return a ? std::get_if<T>(a) : nullptr;
  }

  /// The typed attributes of Attributes.def: `get(attr::dim)` is the value
  /// when it is set, `get<double>(attr::value)` for a name of several kinds;
  /// `set(attr::dim, 2)`.
  template <typename Kind> const Kind *get(AttrName<Kind> name) const {
    return attrAs<Kind>(name.spelling);
  }
  template <typename T, typename... Kinds> const T *get(AttrName<Kinds...> name) const {
    static_assert((std::is_same_v<T, Kinds> || ...), "not a kind of this attribute");
    return attrAs<T>(name.spelling);
  }
  template <typename... Kinds> bool has(AttrName<Kinds...> name) const {
    return attr(name.spelling);
  }
  /// A name of one kind converts the value to it ("lt" to a string); one of
  /// several takes a value of one of them.
  template <typename... Kinds, typename T> void set(AttrName<Kinds...> name, T value) {
    if constexpr (sizeof...(Kinds) == 1) {
      setAttr(name.spelling.str(), Attribute(std::in_place_type<Kinds...>, std::move(value)));
    } else {
      static_assert((std::is_same_v<T, Kinds> || ...), "not a kind of this attribute");
      setAttr(name.spelling.str(), std::move(value));
    }
  }

  Region &addRegion();
  std::vector<std::unique_ptr<Region>> &regions() { return regionList; }
  const std::vector<std::unique_ptr<Region>> &regions() const { return regionList; }

  Block *parentBlock() const { return parent; }
  using Position = std::list<std::unique_ptr<Operation>>::iterator;
  /// Where the op sits in its parent block's list, so that inserting
  /// before it and erasing it take constant time (the Builder sets it).
  Position position() const { return self; }
  void setParentBlock(Block *b, Position at) {
    parent = b;
    self = at;
  }

private:
  OpKind opKind;
  llvm::SMLoc location;
  llvm::SmallVector<Value *, 4> operandList;
  std::vector<std::unique_ptr<Value>> resultList;
  std::map<std::string, Attribute> attrs;
  std::vector<std::unique_ptr<Region>> regionList;
  Block *parent = nullptr;
  Position self;
};

/// A compilation unit: the kernels of one source file, in source order.
class Module {
public:
  std::vector<std::unique_ptr<Operation>> &kernels() { return kernelList; }
  const std::vector<std::unique_ptr<Operation>> &kernels() const { return kernelList; }

private:
  std::vector<std::unique_ptr<Operation>> kernelList;
};

/// Calls `f` on every operation nested in `op` (not `op` itself), in order.
void walk(Operation &op, const std::function<void(Operation &)> &f);
/// The operations of kind `kind` nested in `root`, in program order (a
/// stable list to rewrite while the IR changes).
std::vector<Operation *> collect(Operation &root, OpKind kind);
/// Replaces every use of `from` by `to` inside `root`.
void replaceAllUsesWith(Operation &root, Value *from, Value *to);
/// The value of an integer `constant` op that defines `v`, if one does.
std::optional<int64_t> intConstantOf(const Value *v);

} // namespace cutec::ir

#endif
