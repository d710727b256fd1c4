//===- Verifier.cpp - Structural and type checks of the IR ----------------===//
#include "ir/core/Verifier.h"

#include "ir/core/OpSignature.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace cutec::ir {
namespace {

class Verifier {
public:
  std::vector<VerifierIssue> issues;

  void verifyKernel(const Operation &kernel) {
    if (kernel.kind() != OpKind::Kernel)
      return fail(kernel, "expected a kernel at the top level");
    for (const std::string &issue : signatureIssues(kernel))
      fail(kernel, issue);
    checkRegions(kernel, 1, OpKind::Return);
    verifyRegions(kernel);
  }

private:
  void fail(const Operation &op, const llvm::Twine &message) {
    issues.push_back({op.loc(), "'" + name(op.kind()).str() + "': " + message.str()});
  }

  void checkRegions(const Operation &op, size_t count, OpKind terminator) {
    if (op.regions().size() != count)
      return fail(op, "expected " + llvm::Twine(count) + " region(s)");
    for (const auto &region : op.regions()) {
      if (region->blocks().size() != 1)
        return fail(op, "expected one block per region");
      const Operation *term = region->blocks().front()->terminator();
      if (!term || term->kind() != terminator)
        fail(op, "region must end with '" + name(terminator).str() + "'");
    }
  }

  void verifyRegions(const Operation &op) {
    for (const auto &region : op.regions())
      for (const auto &block : region->blocks()) {
        for (const auto &arg : block->arguments())
          visible.insert(arg.get());
        for (const auto &nested : block->operations()) {
          verifyOp(*nested);
          for (const auto &result : nested->results())
            visible.insert(result.get());
        }
        // Values of a block are not visible after it.
        for (const auto &nested : block->operations())
          for (const auto &result : nested->results())
            visible.erase(result.get());
        for (const auto &arg : block->arguments())
          visible.erase(arg.get());
      }
  }

  /// The counts of the ops whose row says Custom: they depend on an
  /// attribute or a type.
  bool expectOperands(const Operation &op, size_t n) {
    if (op.operands().size() == n)
      return true;
    fail(op, "expected " + llvm::Twine(n) + " operand(s), found " +
                 llvm::Twine(op.operands().size()));
    return false;
  }

  bool expectResults(const Operation &op, size_t n) {
    if (op.results().size() == n)
      return true;
    fail(op, "expected " + llvm::Twine(n) + " result(s), found " + llvm::Twine(op.results().size()));
    return false;
  }

  /// The message of `name`'s row in Ops.def, for a value out of range.
  template <typename... Kinds> void failAttribute(const Operation &op, AttrName<Kinds...> name) {
    fail(op, attributeIssue(op.kind(), name.spelling));
  }

  void expectScalarResultMatchingOperands(const Operation &op) {
    const Type &t = op.result()->type();
    if (!t.isScalar())
      return fail(op, "result must be a scalar, found " + t.str());
    for (Value *v : op.operands())
      if (v->type() != t)
        return fail(op, "operand of type " + v->type().str() + " does not match result type " +
                            t.str());
  }

  // A scalar converts to a scalar; a register fragment converts elementwise
  // to a fragment of the same layout.
  void verifyConvert(const Operation &op) {
    const Type &from = op.operand(0)->type(), &to = op.result()->type();
    if (from.isScalar() && to.isScalar())
      return;
    bool fragments = from.isTensor() && to.isTensor() &&
                     from.memorySpace() == MemorySpace::Register &&
                     to.memorySpace() == MemorySpace::Register &&
                     from.tensorLayout() == to.tensorLayout();
    if (!fragments)
      fail(op, "converts a scalar to a scalar, or a register fragment to one of the same layout; "
               "found " + from.str() + " to " + to.str());
  }

  static bool isHalf(const Type &t) { return t.isScalar() && bitWidth(t.element()) == 16; }

  /// The packed 16-bit pairs: `pack` of two halves of one type and `unpack`
  /// into them, the word a u32, low half first; `convert_x2` of two scalars
  /// of one type to a word of two `to` values.
  void verifyHalves(const Operation &op) {
    const Type word = Type::scalar(DataType::U32);
    if (op.kind() == OpKind::Unpack) {
      if (op.operand(0)->type() != word || !isHalf(op.result(0)->type()) ||
          op.result(1)->type() != op.result(0)->type())
        fail(op, "unpacks a u32 into two 16-bit scalars of one type");
      return;
    }
    if (op.result()->type() != word || op.operand(1)->type() != op.operand(0)->type() ||
        !op.operand(0)->type().isScalar())
      return fail(op, "makes a u32 of two scalars of one type");
    if (op.kind() == OpKind::Pack && !isHalf(op.operand(0)->type()))
      return fail(op, "packs two 16-bit scalars");
    if (op.kind() == OpKind::ConvertX2 && !isHalf(*op.get(attr::to)))
      failAttribute(op, attr::to);
  }

  /// product_x2 of two u32 words: attributes `from` (the codes' type) and
  /// `low` < `high`, where the two codes start in each word.
  void verifyProductX2(const Operation &op) {
    const Type word = Type::scalar(DataType::U32);
    for (const Value *v : op.operands())
      if (v->type() != word)
        return fail(op, "takes u32 words");
    if (op.result()->type() != word)
      return fail(op, "makes a u32 word");
    int64_t low = *op.get(attr::low), high = *op.get(attr::high);
    if (op.get(attr::from)->element() != DataType::F4E2M1 || low < 0 || low >= high || high > 28 ||
        low % 4 || high % 4)
      failAttribute(op, attr::from);
  }

  static std::vector<Type> typesOf(llvm::ArrayRef<Value *> values) {
    std::vector<Type> types;
    for (const Value *v : values)
      types.push_back(v->type());
    return types;
  }
  static std::vector<Type> typesOf(llvm::ArrayRef<std::unique_ptr<Value>> values) {
    std::vector<Type> types;
    for (const auto &v : values)
      types.push_back(v->type());
    return types;
  }

  // The before region takes the carried values (the operands) and ends in
  // `condition %bool, forwarded...`; the after region takes the forwarded
  // values and yields the next carried ones; the results are the values the
  // last condition forwarded.
  void verifyWhile(const Operation &op) {
    if (op.regions().size() != 2)
      return fail(op, "expected a before and an after region");
    for (const auto &region : op.regions())
      if (region->blocks().size() != 1)
        return fail(op, "expected one block per region");
    const Block &before = op.regions()[0]->front(), &after = op.regions()[1]->front();
    const Operation *condition = before.terminator(), *yield = after.terminator();
    if (!condition || condition->kind() != OpKind::Condition)
      return fail(op, "the before region must end with 'condition'");
    if (!yield || yield->kind() != OpKind::Yield)
      return fail(op, "the after region must end with 'yield'");
    std::vector<Type> carried = typesOf(op.operands());
    if (typesOf(before.arguments()) != carried || typesOf(yield->operands()) != carried)
      return fail(op, "the before region's arguments and the after region's yield must have the "
                      "operands' types");
    if (condition->operands().empty() ||
        condition->operand(0)->type() != Type::scalar(DataType::Bool))
      return fail(op, "'condition' needs a bool first operand");
    std::vector<Type> forwarded = typesOf(condition->operands().drop_front());
    if (typesOf(after.arguments()) != forwarded || typesOf(op.results()) != forwarded)
      return fail(op, "the after region's arguments and the results must have the types that "
                      "'condition' forwards");
  }

  /// Views start at a kernel parameter, a shared-memory allocation or a
  /// tensor-memory tensor.
  static bool isViewBase(const Value &v) {
    return !v.definingOp() || v.definingOp()->kind() == OpKind::SmemAlloc ||
           v.definingOp()->kind() == OpKind::TmemTensor ||
           v.definingOp()->kind() == OpKind::IdentityTensor ||
           v.definingOp()->kind() == OpKind::GlobalTensor;
  }

  /// Global addresses are u64, shared-window and .shared::cluster ones u32.
  static Type addressType(MemorySpace space) {
    return Type::scalar(space == MemorySpace::Global ? DataType::U64 : DataType::U32);
  }

  /// The address type of a mem.load/store's `space`; none for an unknown one.
  static std::optional<Type> accessAddressType(const std::string &space) {
    for (MemorySpace s : {MemorySpace::Global, MemorySpace::Shared, MemorySpace::ClusterShared})
      if (space == name(s))
        return addressType(s);
    return std::nullopt;
  }

  /// cute.atomic {op} (view, value) or, for cas, (view, compare, value);
  /// mem.atomic {op, space} the same on the element's address. The values
  /// and the result are 32-bit scalars of the element's type.
  void verifyAtomic(const Operation &op) {
    const std::string &kind = *op.get(attr::op);
    static constexpr llvm::StringLiteral kinds[] = {"add", "min", "max",  "and",
                                                    "or",  "xor", "exch", "cas"};
    if (!llvm::is_contained(kinds, kind))
      return failAttribute(op, attr::op);
    if (!expectOperands(op, kind == "cas" ? 3 : 2))
      return;
    const Type &target = op.operand(0)->type();
    if (op.kind() == OpKind::Atomic) {
      if (!target.isTensor() ||
          (target.memorySpace() != MemorySpace::Global &&
           target.memorySpace() != MemorySpace::Shared) ||
          size(target.tensorLayout()) != IntExpr(1))
        return fail(op, "updates one element of a tensor in global or shared memory");
    } else {
      const std::string &space = *op.get(attr::space);
      if (space != name(MemorySpace::Shared) && space != name(MemorySpace::Global))
        return failAttribute(op, attr::space);
      if (target != addressType(space == name(MemorySpace::Shared) ? MemorySpace::Shared
                                                                   : MemorySpace::Global))
        return fail(op, "the address must be u64 (global) or u32 (shared)");
    }
    const Type &result = op.result()->type();
    bool sameType = result.isScalar() && bitWidth(result.element()) == 32 &&
                    (op.kind() == OpKind::MemAtomic || result.element() == target.element());
    for (Value *v : op.operands().drop_front())
      sameType &= v->type() == result;
    if (!sameType)
      fail(op, "the values and the result are 32-bit scalars of the element's type");
  }

  /// warp.shuffle {mode, clamp, offset} (value) or {mode, clamp} (value,
  /// i32 offset): the result has the value's type.
  void verifyShuffle(const Operation &op) {
    const std::string &mode = *op.get(attr::mode);
    if (mode != "up" && mode != "down" && mode != "bfly" && mode != "idx")
      return failAttribute(op, attr::mode);
    bool staticOffset = op.has(attr::offset);
    if (!expectOperands(op, staticOffset ? 1 : 2))
      return;
    if (!staticOffset && op.operand(1)->type() != Type::scalar(DataType::I32))
      return fail(op, "a run-time offset is an i32");
    const Type &t = op.result()->type();
    if (!t.isScalar() || op.operand(0)->type() != t)
      fail(op, "the result has the value's scalar type");
  }

  void verifyOp(const Operation &op) {
    for (Value *v : op.operands()) {
      if (!v)
        return fail(op, "null operand");
      if (!visible.count(v))
        return fail(op, "operand is used before it is defined or outside its scope");
    }
    std::vector<std::string> issues = signatureIssues(op);
    for (const std::string &issue : issues)
      fail(op, issue);
    // The op's own checks rely on the counts and attributes of its row.
    if (issues.empty())
      verifyTypesAndValues(op);
    verifyStructure(op);
  }

  /// Regions: their shape, then the ops inside them.
  void verifyStructure(const Operation &op) {
    switch (op.kind()) {
    case OpKind::For:
      checkRegions(op, 1, OpKind::Yield);
      break;
    case OpKind::While:
      verifyWhile(op);
      break;
    case OpKind::If:
      if (op.regions().size() != 1 && op.regions().size() != 2)
        fail(op, "expected a then region and an optional else region");
      else
        checkRegions(op, op.regions().size(), OpKind::Yield);
      break;
    case OpKind::Kernel:
      return fail(op, "kernels cannot nest");
    default:
      break;
    }
    verifyRegions(op);
  }

  /// What the table cannot say: types that must agree, attribute values,
  /// and the counts of the ops whose row says Custom.
  void verifyTypesAndValues(const Operation &op) {
    switch (op.kind()) {
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Rem:
    case OpKind::Neg:
    case OpKind::Fma:
    case OpKind::MathCall:
      expectScalarResultMatchingOperands(op);
      break;
    case OpKind::Convert:
      verifyConvert(op);
      break;
    case OpKind::Cmp:
      if (op.result()->type() != Type::scalar(DataType::Bool))
        fail(op, "result must be bool");
      break;
    case OpKind::BlockIdx:
    case OpKind::GridDim:
    case OpKind::ThreadIdx:
      if (int64_t dim = *op.get(attr::dim); dim < 0 || dim > 2)
        failAttribute(op, attr::dim);
      break;
    case OpKind::If:
      if (op.operand(0)->type() != Type::scalar(DataType::Bool))
        fail(op, "needs one bool condition");
      break;
    case OpKind::View:
      verifyView(op);
      break;
    case OpKind::Mapa:
      if (!op.operand(0)->type().isTensor() ||
          op.operand(0)->type().memorySpace() != MemorySpace::Shared ||
          op.operand(1)->type() != Type::scalar(DataType::I32) || !op.result()->type().isTensor() ||
          op.result()->type().memorySpace() != MemorySpace::ClusterShared ||
          op.result()->type().element() != op.operand(0)->type().element())
        fail(op, "takes a shared tensor and an i32 CTA rank to a dsmem tensor of its elements");
      break;
    case OpKind::MapaAddress:
      if (op.operand(0)->type() != Type::scalar(DataType::U32) ||
          op.operand(1)->type() != Type::scalar(DataType::I32) ||
          op.result()->type() != Type::scalar(DataType::U32))
        fail(op, "maps a u32 shared address to CTA rank (i32)'s u32 .shared::cluster address");
      break;
    case OpKind::GlobalTensor:
      if (op.operand(0)->type() != Type::scalar(DataType::I64) ||
          !op.result()->type().isTensor() ||
          op.result()->type().memorySpace() != MemorySpace::Global)
        fail(op, "takes an i64 global address to a global tensor");
      break;
    case OpKind::RuntimeExtent:
      if (const std::string *symbol = op.get(attr::symbol);
          op.operand(0)->type() != Type::scalar(DataType::I32) || !symbol ||
          !llvm::StringRef(*symbol).starts_with("?"))
        fail(op, "binds a symbol '?N' to an i32");
      break;
    case OpKind::BaseAddress:
      if (!op.operand(0)->type().isTensor() ||
          op.result()->type() != addressType(op.operand(0)->type().memorySpace()))
        fail(op, "takes a tensor parameter (u64 address) or a shared allocation (u32)");
      break;
    case OpKind::SmemAlloc:
      // The row's message for `offset` says what the op is.
      if (!op.result()->type().isTensor() ||
          op.result()->type().memorySpace() != MemorySpace::Shared)
        failAttribute(op, attr::offset);
      break;
    case OpKind::MemLoad:
    case OpKind::MemStore:
      verifyMemAccess(op);
      break;
    case OpKind::Bitcast:
      if (!op.operand(0)->type().isScalar() || !op.result()->type().isScalar())
        fail(op, "bitcasts a scalar to a scalar");
      break;
    case OpKind::ShiftRight:
    case OpKind::ShiftLeft:
    case OpKind::BitAnd:
    case OpKind::BitOr:
    case OpKind::BitXor:
      expectScalarResultMatchingOperands(op);
      if (op.result()->type().isScalar() && !isInteger(op.result()->type().element()))
        fail(op, "operates on integers");
      break;
    case OpKind::Pack:
    case OpKind::Unpack:
    case OpKind::ConvertX2:
      verifyHalves(op);
      break;
    case OpKind::ProductX2:
      verifyProductX2(op);
      break;
    case OpKind::WarpIdx:
    case OpKind::LaneIdx:
    case OpKind::ElectOne:
      if (op.result()->type() !=
          Type::scalar(op.kind() == OpKind::ElectOne ? DataType::Bool : DataType::I32))
        fail(op, "gives an i32 (elect_one: a bool)");
      break;
    case OpKind::BarrierSync:
    case OpKind::BarrierArrive:
      // sync_threads() is a bar.sync without them; a named barrier has both.
      if ((op.kind() == OpKind::BarrierArrive || op.has(attr::barrier) || op.has(attr::threads)) &&
          (!op.has(attr::barrier) || !op.has(attr::threads)))
        failAttribute(op, attr::barrier);
      break;
    case OpKind::Atomic:
    case OpKind::MemAtomic:
      verifyAtomic(op);
      break;
    case OpKind::Shuffle:
      verifyShuffle(op);
      break;
    default:
      break;
    }
  }

  /// A view of a kernel parameter, shared allocation, tensor-memory or
  /// identity tensor; one of another CTA's shared memory (dsmem) names its
  /// i32 rank. Its element type may differ from the base's (recast_tensor):
  /// the offset counts the view's elements.
  void verifyView(const Operation &op) {
    bool peer = op.result()->type().isTensor() &&
                op.result()->type().memorySpace() == MemorySpace::ClusterShared;
    if (expectOperands(op, peer ? 3 : 2) &&
        (!op.operand(0)->type().isTensor() || !isViewBase(*op.operand(0)) ||
         op.operand(1)->type() != Type::scalar(DataType::I32) || !op.result()->type().isTensor() ||
         op.operand(0)->type().memorySpace() !=
             (peer ? MemorySpace::Shared : op.result()->type().memorySpace()) ||
         (peer && op.operand(2)->type() != Type::scalar(DataType::I32))))
      fail(op, "views a tensor parameter, shared allocation, tensor-memory, identity or global "
               "tensor at an i32 offset (in the view's elements), keeping its memory space (a "
               "dsmem view of a shared allocation adds an i32 CTA rank)");
  }

  /// mem.load and mem.store: a vector access (`vector = N`) loads or stores
  /// N 32-bit words, N = 1, 2 or 4, or a global store 8 (wide-stores).
  void verifyMemAccess(const Operation &op) {
    bool isLoad = op.kind() == OpKind::MemLoad;
    const int64_t *vector = op.get(attr::vector);
    bool wide = !isLoad && *op.get(attr::space) == name(MemorySpace::Global);
    if (vector && ((*vector != 1 && *vector != 2 && *vector != 4 && !(wide && *vector == 8)) ||
                   *op.get(attr::bits) != 32))
      failAttribute(op, attr::vector);
    unsigned words = vector ? unsigned(*vector) : 1u;
    if (!(isLoad ? expectResults(op, words) : expectOperands(op, 1 + words)))
      return;
    if (op.operand(0)->type() != accessAddressType(*op.get(attr::space)))
      fail(op, "the address must be u64 (global) or u32 (shared, dsmem)");
    if (!(isLoad ? op.result() : op.operand(1))->type().isScalar())
      fail(op, "accesses one scalar");
  }

  llvm::SmallPtrSet<const Value *, 32> visible;
};

} // namespace

std::vector<VerifierIssue> verify(const Operation &kernel) {
  Verifier v;
  v.verifyKernel(kernel);
  return std::move(v.issues);
}

} // namespace cutec::ir
