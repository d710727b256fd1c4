//===- Verifier.cpp - Structural and type checks of the IR ----------------===//
#include "ir/core/Verifier.h"

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
    if (!kernel.attrAs<std::string>("name"))
      fail(kernel, "kernel without a 'name' attribute");
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

  void expectScalarResultMatchingOperands(const Operation &op) {
    if (!expectResults(op, 1))
      return;
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
    bool unpack = op.kind() == OpKind::Unpack;
    if (!expectOperands(op, unpack ? 1 : 2) || !expectResults(op, unpack ? 2 : 1))
      return;
    if (unpack) {
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
    const Type *to = op.attrAs<Type>("to");
    if (op.kind() == OpKind::ConvertX2 && (!to || !isHalf(*to)))
      fail(op, "needs a 16-bit scalar type 'to'");
  }

  /// product_x2 of two u32 words: attributes `from` (the codes' type) and
  /// `low` < `high`, where the two codes start in each word.
  void verifyProductX2(const Operation &op) {
    const Type word = Type::scalar(DataType::U32);
    if (!expectOperands(op, 2) || !expectResults(op, 1))
      return;
    for (const Value *v : op.operands())
      if (v->type() != word)
        return fail(op, "takes u32 words");
    if (op.result()->type() != word)
      return fail(op, "makes a u32 word");
    const Type *from = op.attrAs<Type>("from");
    const int64_t *low = op.attrAs<int64_t>("low"), *high = op.attrAs<int64_t>("high");
    if (!from || from->element() != DataType::F4E2M1 || !low || !high || *low < 0 ||
        *low >= *high || *high > 28 || *low % 4 || *high % 4)
      fail(op, "needs 'from' = f4e2m1 and code positions 'low' < 'high' in the word, multiples of 4");
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
           v.definingOp()->kind() == OpKind::IdentityTensor;
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
    const std::string *kind = op.attrAs<std::string>("op");
    static constexpr llvm::StringLiteral kinds[] = {"add", "min", "max",  "and",
                                                    "or",  "xor", "exch", "cas"};
    if (!kind || !llvm::is_contained(kinds, *kind))
      return fail(op, "needs an 'op': add, min, max, and, or, xor, exch or cas");
    if (!expectOperands(op, *kind == "cas" ? 3 : 2) || !expectResults(op, 1))
      return;
    const Type &target = op.operand(0)->type();
    if (op.kind() == OpKind::Atomic) {
      if (!target.isTensor() ||
          (target.memorySpace() != MemorySpace::Global &&
           target.memorySpace() != MemorySpace::Shared) ||
          size(target.tensorLayout()) != IntExpr(1))
        return fail(op, "updates one element of a tensor in global or shared memory");
    } else {
      const std::string *space = op.attrAs<std::string>("space");
      if (!space || (*space != name(MemorySpace::Shared) && *space != name(MemorySpace::Global)))
        return fail(op, "needs a 'space', global or shared");
      if (target != addressType(*space == name(MemorySpace::Shared) ? MemorySpace::Shared
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
    const std::string *mode = op.attrAs<std::string>("mode");
    if (!mode || (*mode != "up" && *mode != "down" && *mode != "bfly" && *mode != "idx"))
      return fail(op, "needs a 'mode': up, down, bfly or idx");
    if (!op.attrAs<int64_t>("clamp"))
      return fail(op, "needs a 'clamp' (shfl.sync's c operand)");
    bool staticOffset = op.attrAs<int64_t>("offset");
    if (!expectOperands(op, staticOffset ? 1 : 2) || !expectResults(op, 1))
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
    switch (op.kind()) {
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Rem:
      if (expectOperands(op, 2))
        expectScalarResultMatchingOperands(op);
      break;
    case OpKind::Neg:
      if (expectOperands(op, 1))
        expectScalarResultMatchingOperands(op);
      break;
    case OpKind::Fma:
      if (expectOperands(op, 3))
        expectScalarResultMatchingOperands(op);
      break;
    case OpKind::MathCall:
      if (!op.attrAs<std::string>("fn"))
        fail(op, "needs a function name 'fn'");
      else if (op.operands().empty() || op.operands().size() > 2)
        fail(op, "takes one or two operands");
      else
        expectScalarResultMatchingOperands(op);
      break;
    case OpKind::Constant:
      if (expectOperands(op, 0) && expectResults(op, 1) &&
          !op.attrAs<int64_t>("value") && !op.attrAs<double>("value") &&
          !op.attrAs<bool>("value"))
        fail(op, "needs an integer, float or bool 'value'");
      break;
    case OpKind::Convert:
      if (expectOperands(op, 1) && expectResults(op, 1))
        verifyConvert(op);
      break;
    case OpKind::Cmp:
      if (expectOperands(op, 2) && expectResults(op, 1) &&
          op.result()->type() != Type::scalar(DataType::Bool))
        fail(op, "result must be bool");
      if (!op.attrAs<std::string>("predicate"))
        fail(op, "needs a 'predicate'");
      break;
    case OpKind::BlockIdx:
    case OpKind::GridDim:
    case OpKind::ThreadIdx: {
      const int64_t *dim = op.attrAs<int64_t>("dim");
      if (!dim || *dim < 0 || *dim > 2)
        fail(op, "needs a 'dim' of 0, 1 or 2");
      break;
    }
    case OpKind::DynamicSize:
      if (!op.attrAs<std::string>("name"))
        fail(op, "needs a 'name'");
      break;
    case OpKind::For:
      if (op.operands().size() < 3)
        fail(op, "needs lower bound, upper bound and step operands");
      checkRegions(op, 1, OpKind::Yield);
      verifyRegions(op);
      break;
    case OpKind::While:
      verifyWhile(op);
      verifyRegions(op);
      break;
    case OpKind::If:
      if (op.operands().size() != 1 || op.operand(0)->type() != Type::scalar(DataType::Bool))
        fail(op, "needs one bool condition");
      if (op.regions().size() != 1 && op.regions().size() != 2)
        fail(op, "expected a then region and an optional else region");
      else
        checkRegions(op, op.regions().size(), OpKind::Yield);
      verifyRegions(op);
      break;
    case OpKind::Kernel:
      fail(op, "kernels cannot nest");
      break;
    case OpKind::PtxInst:
      if (!op.attrAs<std::string>("opcode"))
        fail(op, "needs an 'opcode'");
      break;
    case OpKind::View: {
      // A view of another CTA's shared memory (dsmem) names its i32 rank.
      bool peer = op.result()->type().isTensor() &&
                  op.result()->type().memorySpace() == MemorySpace::ClusterShared;
      if (expectOperands(op, peer ? 3 : 2) && expectResults(op, 1) &&
          (!op.operand(0)->type().isTensor() || !isViewBase(*op.operand(0)) ||
           op.operand(1)->type() != Type::scalar(DataType::I32) ||
           !op.result()->type().isTensor() ||
           op.result()->type().element() != op.operand(0)->type().element() ||
           op.operand(0)->type().memorySpace() !=
               (peer ? MemorySpace::Shared : op.result()->type().memorySpace()) ||
           (peer && op.operand(2)->type() != Type::scalar(DataType::I32))))
        fail(op, "views a tensor parameter, shared allocation, tensor-memory or identity tensor "
                 "at an i32 offset, keeping its element type and memory space (a dsmem view of "
                 "a shared allocation adds an i32 CTA rank)");
      break;
    }
    case OpKind::Mapa:
      if (expectOperands(op, 2) && expectResults(op, 1) &&
          (!op.operand(0)->type().isTensor() ||
           op.operand(0)->type().memorySpace() != MemorySpace::Shared ||
           op.operand(1)->type() != Type::scalar(DataType::I32) ||
           !op.result()->type().isTensor() ||
           op.result()->type().memorySpace() != MemorySpace::ClusterShared ||
           op.result()->type().element() != op.operand(0)->type().element()))
        fail(op, "takes a shared tensor and an i32 CTA rank to a dsmem tensor of its elements");
      break;
    case OpKind::MapaAddress:
      if (expectOperands(op, 2) && expectResults(op, 1) &&
          (op.operand(0)->type() != Type::scalar(DataType::U32) ||
           op.operand(1)->type() != Type::scalar(DataType::I32) ||
           op.result()->type() != Type::scalar(DataType::U32)))
        fail(op, "maps a u32 shared address to CTA rank (i32)'s u32 .shared::cluster address");
      break;
    case OpKind::BaseAddress:
      if (expectOperands(op, 1) && expectResults(op, 1) &&
          (!op.operand(0)->type().isTensor() ||
           op.result()->type() != addressType(op.operand(0)->type().memorySpace())))
        fail(op, "takes a tensor parameter (u64 address) or a shared allocation (u32)");
      break;
    case OpKind::SmemAlloc:
      if (expectOperands(op, 0) && expectResults(op, 1) &&
          (!op.result()->type().isTensor() ||
           op.result()->type().memorySpace() != MemorySpace::Shared || !op.attrAs<int64_t>("offset")))
        fail(op, "gives a shared-memory tensor at a static byte 'offset'");
      break;
    case OpKind::MemLoad:
    case OpKind::MemStore: {
      bool isLoad = op.kind() == OpKind::MemLoad;
      // A vector access (`vector = N`) loads or stores N 32-bit words.
      const int64_t *vector = op.attrAs<int64_t>("vector");
      const int64_t *bits = op.attrAs<int64_t>("bits");
      if (vector && (*vector < 1 || *vector > 4 || !bits || *bits != 32))
        fail(op, "a vector access moves 1 to 4 words of 32 bits");
      unsigned words = vector ? unsigned(*vector) : 1u;
      if (!expectOperands(op, isLoad ? 1 : 1 + words) || !expectResults(op, isLoad ? words : 0u))
        break;
      const std::string *space = op.attrAs<std::string>("space");
      if (!op.attrAs<int64_t>("bits") || !space)
        fail(op, "needs 'bits' and 'space'");
      else if (op.operand(0)->type() != accessAddressType(*space))
        fail(op, "the address must be u64 (global) or u32 (shared, dsmem)");
      if (!(isLoad ? op.result() : op.operand(1))->type().isScalar())
        fail(op, "accesses one scalar");
      break;
    }
    case OpKind::Bitcast:
      if (expectOperands(op, 1) && expectResults(op, 1) &&
          (!op.operand(0)->type().isScalar() || !op.result()->type().isScalar()))
        fail(op, "bitcasts a scalar to a scalar");
      break;
    case OpKind::ShiftRight:
    case OpKind::BitAnd:
    case OpKind::BitXor:
      if (expectOperands(op, 2))
        expectScalarResultMatchingOperands(op);
      if (!op.results().empty() && op.result()->type().isScalar() &&
          !isInteger(op.result()->type().element()))
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
      if (expectOperands(op, 0) && expectResults(op, 1) &&
          op.result()->type() !=
              Type::scalar(op.kind() == OpKind::ElectOne ? DataType::Bool : DataType::I32))
        fail(op, "gives an i32 (elect_one: a bool)");
      break;
    case OpKind::BarrierSync:
    case OpKind::BarrierArrive:
      // sync_threads() is a bar.sync without them; a named barrier has both.
      if (expectOperands(op, 0) &&
          (op.kind() == OpKind::BarrierArrive || op.attr("barrier") || op.attr("threads")) &&
          (!op.attrAs<int64_t>("barrier") || !op.attrAs<int64_t>("threads")))
        fail(op, "a named barrier needs a 'barrier' id and a 'threads' count");
      break;
    case OpKind::SetMaxNRegInc:
    case OpKind::SetMaxNRegDec:
      if (expectOperands(op, 0) && !op.attrAs<int64_t>("reg_count"))
        fail(op, "needs a 'reg_count'");
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

  llvm::SmallPtrSet<const Value *, 32> visible;
};

} // namespace

std::vector<VerifierIssue> verify(const Operation &kernel) {
  Verifier v;
  v.verifyKernel(kernel);
  return std::move(v.issues);
}

} // namespace cutec::ir
