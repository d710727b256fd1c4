//===- LowerIndexing.cpp - Element accesses of views to address arithmetic ===//
//
// After this pass no tensor values remain (docs/ir.md, "Lowering contract"):
// a load of a view becomes one `mem.load` per register of its fragment, at
// the u64 address base + i64(offset) * bytes; a store becomes `mem.store`s;
// converts, extracts and fills of fragments become scalar ops on those
// registers. Register r of a fragment reads the element whose coordinate is
// r enumerated over the view's non-broadcast modes (filterZeros), which is
// also what the fragment layout maps an extract's index to.
//
// A global or shared load whose registers are contiguous in memory, at an
// address that the divisibility analysis proves aligned (the kernel's
// `assume_divby` facts, tensor parameters aligned to 16 bytes, shared
// allocations at their static offsets), reads whole 32-bit words instead:
// `mem.load {bits = 32, vector = 1, 2 or 4}` of up to 16 bytes (a swizzled
// shared view: each access at its own swizzled address); stores likewise.
// 16-bit elements stay in pairs where instructions take or give them so
// (docs/ir.md, "Packed 16-bit pairs"): f32 fragments convert to f16/bf16
// two registers at a time, and words are made with arith.pack and taken
// apart with arith.unpack. stmatrix/ldmatrix get each lane's row address
// (docs/ir.md, "Warp matrix copies"). A view of another CTA's shared memory
// is addressed as a shared one from `nvgpu.mapa` of its allocation's base
// to its CTA's rank, and its accesses are `mem.load/store {space = dsmem}`.
//
//===----------------------------------------------------------------------===//
#include "ir/core/WarpMatrix.h"
#include "passes/analysis/Divisibility.h"
#include "passes/lowering/MaterializeOffset.h"
#include "passes/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace cutec {
namespace {

namespace attr = ir::attr;
using ir::DataType;
using ir::Operation;
using ir::OpKind;
using ir::Type;
using ir::Value;

using Registers = llvm::SmallVector<Value *, 16>;

/// The fragment layout of docs/ir.md: the shape of `l`, stride 0 where `l`
/// broadcasts and compact (column-major) strides over the other modes.
Layout fragmentLayout(const Layout &l) {
  std::vector<IntTuple> shapes, strides, fragment;
  flattenInto(l.shape, shapes);
  flattenInto(l.stride, strides);
  IntExpr next(1);
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (strides[i].leaf().isConstant(0)) {
      fragment.push_back(0);
      continue;
    }
    fragment.push_back(next);
    next = next * shapes[i].leaf();
  }
  return Layout(l.shape, unflatten(IntTuple::tuple(std::move(fragment)), l.shape));
}

class Lowering {
public:
  Lowering(Operation &kernel, PassContext &context)
      : kernel(kernel), context(context), divisibility(kernel) {}

  void run() {
    std::vector<Operation *> ops;
    ir::walk(kernel, [&](Operation &op) { ops.push_back(&op); });
    for (Operation *op : ops)
      if (!lower(*op))
        return;
    // Users before definitions.
    for (auto it = dead.rbegin(); it != dead.rend(); ++it)
      ir::erase(**it);
    for (Operation *carrier : opsCarryingFragments)
      dropFragmentCarries(*carrier);
  }

private:
  bool lower(Operation &op) {
    switch (op.kind()) {
    case OpKind::View:
    case OpKind::GlobalTensor:
    case OpKind::RuntimeExtent:
      dead.push_back(&op);
      return true;
    case OpKind::Load:
      return lowerLoad(op);
    case OpKind::Store:
      return lowerStore(op);
    case OpKind::Atomic:
      return lowerAtomic(op);
    case OpKind::Extract:
      return lowerExtract(op);
    case OpKind::Fill:
      return lowerFill(op);
    case OpKind::FragmentOf:
      fragments[op.result()] = Registers(op.operands().begin(), op.operands().end());
      dead.push_back(&op);
      return true;
    case OpKind::Convert:
      if (op.operand(0)->type().isTensor())
        return lowerConvert(op);
      return true;
    case OpKind::MbarrierInit:
    case OpKind::MbarrierArrive:
    case OpKind::MbarrierExpectTx:
    case OpKind::MbarrierWait:
    case OpKind::TmemAlloc:
      return lowerAsync(op, 0, 1);
    case OpKind::TmaLoadTile:
      return lowerAsync(op, 1, 2);
    case OpKind::TmaStoreTile:
      return lowerAsync(op, 1, 1);
    case OpKind::Umma:
      return lowerAsync(op, 0, 3);
    case OpKind::UmmaBlockScaled:
      return lowerAsync(op, 0, 3) && lowerAsync(op, 4, 2);
    case OpKind::Tcgen05Cp:
      return lowerAsync(op, 0, 2);
    case OpKind::Wgmma:
      return lowerWgmma(op);
    case OpKind::UmmaCommit:
    case OpKind::ClcLoadResponse:
      return lowerAsync(op, 0, 1);
    case OpKind::ClcTryCancel:
      return lowerAsync(op, 0, 2);
    case OpKind::TmemLoad:
      return lowerTmemLoad(op);
    case OpKind::Tcgen05WaitLd:
      return lowerWaitLd(op);
    case OpKind::TmemStore:
      return lowerTmemStore(op);
    case OpKind::Stmatrix:
    case OpKind::Ldmatrix:
      return lowerMatrixCopy(op);
    case OpKind::TmemTensor:
      return true;
    case OpKind::IdentityTensor:
      dead.push_back(&op);
      return true;
    case OpKind::SmemAlloc:
      return true;
    case OpKind::For:
    case OpKind::While:
      return carryFragments(op);
    case OpKind::If:
      return carryFragmentsOutOfIf(op);
    case OpKind::Yield:
    case OpKind::Condition:
      return yieldFragments(op);
    default:
      for (Value *v : op.operands())
        if (v->type().isTensor())
          return fail(op, "'" + ir::name(op.kind()) +
                              "' on a tensor cannot be lowered to "
                              "scalar registers");
      return true;
    }
  }

  bool fail(const Operation &op, const llvm::Twine &message) {
    context.error(op.loc(), message);
    return false;
  }

  /// The number of registers a fragment or view of layout `l` occupies.
  std::optional<int64_t> registerCount(const Operation &op, const Layout &l) {
    std::optional<int64_t> n = size(filterZeros(l)).getStatic();
    if (!n)
      fail(op, "a register fragment needs a static shape, but this one is " + l.shape.str());
    return n;
  }

  const Registers *fragment(const Operation &op, Value *v) {
    auto it = fragments.find(v);
    if (it != fragments.end())
      return &it->second;
    if (llvm::any_of(unwaitedLoads, [&](const auto &u) { return u.first == v; }))
      fail(op, "this reads the fragment of a tmem_load(wait=False) before "
               "fence_view_async_tmem_load() in the same block: its registers hold the data only "
               "once the warp has waited (tcgen05.wait::ld)");
    else
      fail(op, "internal error: the fragment was not loaded, filled or converted here");
    return nullptr;
  }

  Operation *viewOf(const Operation &op, Value *v) {
    Operation *view = v->definingOp();
    if (view && view->kind() == OpKind::View)
      return view;
    fail(op, "internal error: '" + ir::name(op.kind()) +
                 "' of a tensor that is not a view; "
                 "run 'partition' first");
    return nullptr;
  }

  /// The address of a view's base: u64 for a tensor parameter (at the
  /// kernel's entry), u32 in the shared window for an allocation (just
  /// after it).
  Value *baseAddress(Value *base) {
    Value *&address = baseAddresses[base];
    if (address)
      return address;
    ir::Builder b;
    Operation *alloc = base->definingOp();
    // A tensor-memory tensor is based at the address tmem_alloc gave.
    if (alloc && alloc->kind() == OpKind::TmemTensor)
      return address = alloc->operand(0);
    // make_ptr's memory is based at the address it was given.
    if (alloc && alloc->kind() == OpKind::GlobalTensor) {
      b.setInsertionPoint(**std::next(alloc->position()));
      return address = cast(b, alloc->loc(), OpKind::Bitcast, alloc->operand(0), DataType::U64);
    }
    if (!alloc) {
      b.setInsertionPoint(*kernel.regions()[0]->front().operations().front());
      return address = b.createValue(OpKind::BaseAddress, kernel.loc(),
                                     Type::scalar(DataType::U64), {base});
    }
    b.setInsertionPoint(**std::next(alloc->position()));
    return address = b.createValue(OpKind::BaseAddress, alloc->loc(), Type::scalar(DataType::U32),
                                   {base});
  }

  Value *constant(ir::Builder &b, llvm::SMLoc loc, DataType type, int64_t v) {
    return b.constantInt(loc, type, v);
  }

  Value *binary(ir::Builder &b, llvm::SMLoc loc, OpKind kind, Value *lhs, Value *rhs) {
    return b.createValue(kind, loc, lhs->type(), {lhs, rhs});
  }

  Value *cast(ir::Builder &b, llvm::SMLoc loc, OpKind kind, Value *v, DataType to) {
    return b.createValue(kind, loc, Type::scalar(to), {v});
  }

  /// One element of a view: its i32 element offset and u64 byte address.
  struct Element {
    Value *offset;
    Value *address;
  };

  /// The i32 element offset of element r of the view's non-broadcast modes.
  Value *elementOffset(ir::Builder &b, const Operation &op, Operation &view, int64_t r) {
    llvm::Expected<IntExpr> elem =
        crd2idx(IntTuple(r), filterZeros(view.result()->type().tensorLayout()));
    if (!elem) {
      fail(op, llvm::toString(elem.takeError()));
      return nullptr;
    }
    Value *offset = view.operand(1);
    if (elem->isConstant(0))
      return offset;
    Value *delta = materializeOffset(b, kernel, op.loc(), *elem, {}, context);
    return delta ? binary(b, op.loc(), OpKind::Add, offset, delta) : nullptr;
  }

  /// Element r of the view's non-broadcast modes.
  std::optional<Element> element(ir::Builder &b, const Operation &op, Operation &view, int64_t r) {
    const Type &type = view.result()->type();
    llvm::SMLoc loc = op.loc();
    Value *offset = elementOffset(b, op, view, r);
    if (!offset)
      return std::nullopt;
    unsigned bits = ir::bitWidth(type.element());
    if (bits != 4 && bits % 8 != 0) {
      fail(op, "cannot address elements of " + ir::name(type.element()) + " (" + llvm::Twine(bits) +
                   " bits) in memory");
      return std::nullopt;
    }
    return Element{offset, address(b, loc, view, offset, /*swizzled=*/true)};
  }

  /// The address of element `offset` of the view's base, `extraBytes` on.
  /// Global addresses are u64; shared ones are u32 window addresses, with the
  /// allocation's swizzle applied to the byte offset unless `swizzled` is
  /// false (TMA takes the unswizzled start of its box and swizzles itself).
  Value *address(ir::Builder &b, llvm::SMLoc loc, Operation &view, Value *offset, bool swizzled,
                 int64_t extraBytes = 0) {
    const Type &type = view.result()->type();
    // Tensor memory addresses count 32-bit cells: lane << 16 | column. Byte
    // offsets (scale factors) name the cell they are in.
    if (type.memorySpace() == ir::MemorySpace::Tensor) {
      Value *cells = cast(b, loc, OpKind::Bitcast, offset, DataType::U32);
      if (ir::bitWidth(type.element()) == 8)
        cells = binary(b, loc, OpKind::ShiftRight, cells, constant(b, loc, DataType::U32, 2));
      return binary(b, loc, OpKind::Add, baseAddress(view.operand(0)), cells);
    }
    unsigned bits = ir::bitWidth(type.element());
    DataType word =
        type.memorySpace() == ir::MemorySpace::Global ? DataType::I64 : DataType::U32;
    Value *bytes;
    if (word == DataType::I64) {
      // A 4-bit element's byte is its offset halved, in 32 bits: widening
      // keeps the sign, so the shift may come first, and costs one
      // instruction there instead of three.
      if (bits == 4)
        offset = binary(b, loc, OpKind::ShiftRight, offset,
                        constant(b, loc, offset->type().element(), 1));
      bytes = cast(b, loc, OpKind::Convert, offset, word);
    } else {
      bytes = cast(b, loc, OpKind::Bitcast, offset, word);
      if (bits == 4)
        bytes = binary(b, loc, OpKind::ShiftRight, bytes, constant(b, loc, word, 1));
    }
    if (bits > 8)
      bytes = binary(b, loc, OpKind::Mul, bytes, constant(b, loc, word, bits / 8));
    if (extraBytes)
      bytes = binary(b, loc, OpKind::Add, bytes, constant(b, loc, word, extraBytes));
    const Swizzle &swizzle = type.tensorSwizzle();
    if (word == DataType::I64)
      return binary(b, loc, OpKind::Add, baseAddress(view.operand(0)),
                    cast(b, loc, OpKind::Bitcast, bytes, DataType::U64));
    if (swizzled && !swizzle.isIdentity()) {
      // Swizzle<B,M,S>: x ^ ((x & yyy) >> S), yyy the B bits at M+S.
      int64_t yyy = ((int64_t(1) << swizzle.bits) - 1) << (swizzle.base + swizzle.shift);
      Value *moved = binary(b, loc, OpKind::ShiftRight,
                            binary(b, loc, OpKind::BitAnd, bytes, constant(b, loc, word, yyy)),
                            constant(b, loc, word, swizzle.shift));
      bytes = binary(b, loc, OpKind::BitXor, bytes, moved);
    }
    return binary(b, loc, OpKind::Add, sharedBase(b, loc, view), bytes);
  }

  /// The u32 base address of a shared view: the allocation's, or, for a view
  /// of another CTA's shared memory, its .shared::cluster image in CTA
  /// `rank` (mapa keeps the offsets within the allocation).
  Value *sharedBase(ir::Builder &b, llvm::SMLoc loc, Operation &view) {
    Value *base = baseAddress(view.operand(0));
    if (view.result()->type().memorySpace() != ir::MemorySpace::ClusterShared)
      return base;
    return b.createValue(OpKind::MapaAddress, loc, Type::scalar(DataType::U32),
                         {base, view.operand(2)});
  }

  /// The address of a rank-0 view or of a view's first element (an mbarrier,
  /// a TMA destination).
  Value *startAddress(ir::Builder &b, const Operation &op, Value *v, bool swizzled) {
    Operation *view = viewOf(op, v);
    return view ? address(b, op.loc(), *view, view->operand(1), swizzled) : nullptr;
  }

  /// mbarrier operations and TMA copies take the shared addresses of their
  /// views; their other operands stay.
  bool lowerAsync(Operation &op, unsigned firstView, unsigned viewCount) {
    ir::Builder b;
    b.setInsertionPoint(op);
    for (unsigned i = firstView; i < firstView + viewCount; ++i) {
      Value *a = startAddress(b, op, op.operand(i), /*swizzled=*/false);
      if (!a)
        return false;
      op.setOperand(i, a);
    }
    return true;
  }

  Operation &memOp(ir::Builder &b, llvm::SMLoc loc, OpKind kind, llvm::ArrayRef<Value *> operands,
                   llvm::ArrayRef<Type> results, unsigned bits, ir::MemorySpace space) {
    Operation &mem = b.create(kind, loc, operands, results);
    mem.set(attr::bits, int64_t(bits));
    mem.set(attr::space, ir::name(space).str());
    return mem;
  }

  Value *loadElement(ir::Builder &b, const Operation &op, Operation &view, int64_t r) {
    std::optional<Element> e = element(b, op, view, r);
    if (!e)
      return nullptr;
    const Type &type = view.result()->type();
    DataType dtype = type.element();
    llvm::SMLoc loc = op.loc();
    if (ir::bitWidth(dtype) != 4)
      return memOp(b, loc, OpKind::MemLoad, {e->address}, {Type::scalar(dtype)},
                   ir::bitWidth(dtype), type.memorySpace())
          .result();
    // The byte holds two elements; the even one in the low nibble.
    Value *byte = memOp(b, loc, OpKind::MemLoad, {e->address}, {Type::scalar(DataType::U32)}, 8,
                        type.memorySpace())
                      .result();
    Value *parity = binary(b, loc, OpKind::BitAnd, e->offset, constant(b, loc, DataType::I32, 1));
    Value *shift = cast(b, loc, OpKind::Bitcast,
                        binary(b, loc, OpKind::Mul, parity, constant(b, loc, DataType::I32, 4)),
                        DataType::U32);
    Value *nibble = binary(b, loc, OpKind::BitAnd, binary(b, loc, OpKind::ShiftRight, byte, shift),
                           constant(b, loc, DataType::U32, 15));
    return cast(b, loc, OpKind::Bitcast, nibble, dtype);
  }

  bool storeElement(ir::Builder &b, const Operation &op, Operation &view, int64_t r, Value *value) {
    const Type &type = view.result()->type();
    if (ir::bitWidth(type.element()) == 4)
      return fail(op, "stores of 4-bit elements are not supported: two threads may share a byte");
    std::optional<Element> e = element(b, op, view, r);
    if (!e)
      return false;
    memOp(b, op.loc(), OpKind::MemStore, {e->address, value}, {}, ir::bitWidth(type.element()),
          type.memorySpace());
    return true;
  }

  /// cute.atomic on a one-element view: mem.atomic on the element's address
  /// (swizzled as any access), keeping the op and the values.
  bool lowerAtomic(Operation &op) {
    Operation *view = viewOf(op, op.operand(0));
    if (!view)
      return false;
    ir::Builder b;
    b.setInsertionPoint(op);
    std::optional<Element> e = element(b, op, *view, 0);
    if (!e)
      return false;
    llvm::SmallVector<Value *, 3> operands{e->address};
    llvm::append_range(operands, op.operands().drop_front());
    const Type &type = view->result()->type();
    Operation &atomic = memOp(b, op.loc(), OpKind::MemAtomic, operands, {op.result()->type()},
                              ir::bitWidth(type.element()), type.memorySpace());
    atomic.set(attr::op, *op.get(attr::op));
    ir::replaceAllUsesWith(kernel, op.result(), atomic.result());
    dead.push_back(&op);
    return true;
  }

  /// Global, shared or another CTA's shared memory: what ld and st reach.
  static bool isMemory(ir::MemorySpace space) {
    return space == ir::MemorySpace::Global || space == ir::MemorySpace::Shared ||
           space == ir::MemorySpace::ClusterShared;
  }

  /// The alignment in bytes, up to 16, of a view's base: tensor parameters
  /// are 16-byte aligned (checked at launch), make_ptr's memory as its
  /// `assumed_align` says; a shared allocation lies at its
  /// static offset from `cutec_smem`, which is aligned to the kernel's
  /// `shared_align`.
  int64_t baseAlignment(const Operation &view) const {
    const Operation *alloc = view.operand(0)->definingOp();
    if (!alloc)
      return 16;
    if (alloc->kind() == OpKind::GlobalTensor)
      return std::min<int64_t>(*alloc->get<int64_t>(attr::align), 16);
    const int64_t *offset = alloc->get<int64_t>(attr::offset);
    const int64_t *sharedAlign = kernel.get(attr::sharedAlign);
    if (alloc->kind() != OpKind::SmemAlloc || !offset || !sharedAlign)
      return 1;
    int64_t align = 16;
    while (align > 1 && (*offset % align != 0 || *sharedAlign % align != 0))
      align /= 2;
    return align;
  }

  /// The aligned runs of bytes, up to 16, that a view's swizzle keeps
  /// together: the lowest byte-offset bit it changes bounds them.
  static int64_t unswizzledBytes(const Type &type) {
    const Swizzle &swizzle = type.tensorSwizzle();
    if (swizzle.isIdentity())
      return 16;
    return int64_t(1) << std::clamp(swizzle.base + std::min(0, swizzle.shift), 0, 4);
  }

  /// The widest access, in bytes, that reads the `n` registers of `view` as
  /// whole 32-bit words: they must be contiguous in global or shared memory
  /// and the first one's address provably aligned. 0 when there is none. A
  /// swizzled shared view keeps aligned runs of 2^M bytes (M its swizzle's
  /// base) together, so its accesses are at most that wide, each at its own
  /// swizzled address.
  int64_t vectorBytes(Operation &view, int64_t n, bool store = false) {
    const Type &type = view.result()->type();
    unsigned bits = ir::bitWidth(type.element());
    // Loads extract narrow elements from words; stores pack 8- to 32-bit ones
    // (a 4-bit store would write its neighbour's nibble).
    bool packable = bits == 8 || bits == 16 || bits == 32 || (bits == 4 && !store);
    if (!isMemory(type.memorySpace()) || !packable)
      return 0;
    int64_t total = n * bits / 8;
    if (n * bits % 32 != 0)
      return 0;
    Layout elements = filterZeros(type.tensorLayout());
    for (int64_t r = 0; r < n; ++r) {
      llvm::Expected<IntExpr> e = crd2idx(IntTuple(r), elements);
      if (!e) {
        llvm::consumeError(e.takeError());
        return 0;
      }
      if (!e->isConstant(r))
        return 0;
    }
    // The element offset's known power-of-two divisor scales to bytes.
    unsigned zeros = std::min(divisibility.trailingZeros(view.operand(1)), 8u);
    int64_t align = bits == 4 ? (zeros == 0 ? 0 : int64_t(1) << (zeros - 1))
                              : (int64_t(1) << zeros) * (bits / 8);
    align = std::min({align, baseAlignment(view), unswizzledBytes(type)});
    int64_t width = 16;
    while (width >= 4 && (width > align || total % width != 0))
      width /= 2;
    return width >= 4 ? width : 0;
  }

  /// The address `at` bytes past `first`, the start of a contiguous run of
  /// the view: for a swizzled shared view the swizzle of that byte offset
  /// (vectorBytes keeps each access inside one unswizzled run).
  Value *addressAt(ir::Builder &b, llvm::SMLoc loc, Operation &view, const Element &first,
                   int64_t at) {
    if (at == 0)
      return first.address;
    if (!view.result()->type().tensorSwizzle().isIdentity())
      return address(b, loc, view, first.offset, /*swizzled=*/true, at);
    return binary(b, loc, OpKind::Add, first.address,
                  constant(b, loc, first.address->type().element(), at));
  }

  /// Two 16-bit values as one u32 word, `lo` in the low half. Canonicalize
  /// folds the pack of an unpack's two halves back into its word, so a
  /// fragment that was converted or loaded in pairs is stored as it came.
  Value *packHalves(ir::Builder &b, llvm::SMLoc loc, Value *lo, Value *hi) {
    return b.createValue(OpKind::Pack, loc, Type::scalar(DataType::U32), {lo, hi});
  }

  /// Appends the halves of a u32 word, as `type` values, low half first.
  void unpackHalves(ir::Builder &b, llvm::SMLoc loc, Value *word, DataType type, Registers &regs) {
    Operation &unpack =
        b.create(OpKind::Unpack, loc, {word}, {Type::scalar(type), Type::scalar(type)});
    regs.push_back(unpack.result(0));
    regs.push_back(unpack.result(1));
  }

  /// Loads the `n` registers of `view` as 32-bit words, `width` bytes at a
  /// time: 32-bit elements are the words, 16-bit ones their halves, and
  /// narrower ones come out with a static shift and mask.
  std::optional<Registers> loadWords(ir::Builder &b, const Operation &op, Operation &view,
                                     int64_t n, int64_t width) {
    std::optional<Element> first = element(b, op, view, 0);
    if (!first)
      return std::nullopt;
    const Type &type = view.result()->type();
    DataType dtype = type.element();
    unsigned bits = ir::bitWidth(dtype);
    llvm::SMLoc loc = op.loc();
    llvm::SmallVector<Value *, 16> words;
    for (int64_t at = 0; at < n * bits / 8; at += width) {
      Value *address = addressAt(b, loc, view, *first, at);
      llvm::SmallVector<Type, 4> results(width / 4, Type::scalar(DataType::U32));
      Operation &load =
          memOp(b, loc, OpKind::MemLoad, {address}, results, 32, type.memorySpace());
      load.set(attr::vector, int64_t(width / 4));
      for (const auto &r : load.results())
        words.push_back(r.get());
    }
    Registers regs;
    for (Value *word : words) {
      if (bits == 16)
        unpackHalves(b, loc, word, dtype, regs);
      else if (bits == 32)
        regs.push_back(dtype == DataType::U32 ? word : cast(b, loc, OpKind::Bitcast, word, dtype));
    }
    for (int64_t r = 0; bits < 16 && r < n; ++r) {
      Value *v = words[r * bits / 32];
      if (int64_t shift = r * bits % 32)
        v = binary(b, loc, OpKind::ShiftRight, v, constant(b, loc, DataType::U32, shift));
      v = binary(b, loc, OpKind::BitAnd, v, constant(b, loc, DataType::U32, (1 << bits) - 1));
      regs.push_back(cast(b, loc, OpKind::Bitcast, v, dtype));
    }
    return regs;
  }

  bool lowerLoad(Operation &op) {
    Operation *view = viewOf(op, op.operand(0));
    if (!view)
      return false;
    std::optional<int64_t> n = registerCount(op, view->result()->type().tensorLayout());
    if (!n)
      return false;
    ir::Builder b;
    b.setInsertionPoint(op);
    Registers regs;
    // An identity tensor's element is its offset.
    if (view->result()->type().memorySpace() == ir::MemorySpace::Coordinate)
      for (int64_t r = 0; r < *n; ++r)
        if (!regs.emplace_back(elementOffset(b, op, *view, r)))
          return false;
    // Only where words hold several elements or accesses several words.
    if (int64_t width = vectorBytes(*view, *n);
        width > int64_t(ir::bitWidth(view->result()->type().element()) / 8)) {
      std::optional<Registers> words = loadWords(b, op, *view, *n, width);
      if (!words)
        return false;
      regs = std::move(*words);
    }
    for (int64_t r = int64_t(regs.size()); r < *n; ++r) {
      Value *v = loadElement(b, op, *view, r);
      if (!v)
        return false;
      regs.push_back(v);
    }
    dead.push_back(&op);
    if (op.result()->type().isTensor()) {
      fragments[op.result()] = std::move(regs);
      return true;
    }
    if (regs.size() != 1)
      return fail(op, "internal error: a scalar load of a view of " + llvm::Twine(regs.size()) +
                          " elements");
    ir::replaceAllUsesWith(kernel, op.result(), regs[0]);
    return true;
  }

  bool lowerStore(Operation &op) {
    Operation *view = viewOf(op, op.operand(1));
    if (!view)
      return false;
    std::optional<int64_t> n = registerCount(op, view->result()->type().tensorLayout());
    if (!n)
      return false;
    Registers scalar{op.operand(0)};
    const Registers *regs = &scalar;
    if (op.operand(0)->type().isTensor() && !(regs = fragment(op, op.operand(0))))
      return false;
    if (int64_t(regs->size()) != *n)
      return fail(op, "cannot store " + llvm::Twine(regs->size()) + " value(s) into a view of " +
                          llvm::Twine(*n) + " element(s)");
    ir::Builder b;
    b.setInsertionPoint(op);
    int64_t stored = 0;
    // Only where words hold several elements or accesses several words.
    int64_t width = op.operand(0)->type().isTensor() ? vectorBytes(*view, *n, /*store=*/true) : 0;
    if (width > int64_t(ir::bitWidth(view->result()->type().element()) / 8)) {
      std::optional<Element> first = element(b, op, *view, 0);
      if (!first)
        return false;
      storeWords(b, op, *view, *first, *regs, width);
      stored = *n;
    }
    else if (int64_t run = op.operand(0)->type().isTensor() ? contiguousRun(*view, *n) : 1;
             run > 1) {
      if (!storeRuns(b, op, *view, *regs, run))
        return false;
      stored = *n;
    }
    for (int64_t r = stored; r < *n; ++r)
      if (!storeElement(b, op, *view, r, (*regs)[r]))
        return false;
    dead.push_back(&op);
    return true;
  }

  /// The length of the runs of contiguous elements that a view of `n`
  /// elements (not contiguous as a whole) splits into along its first mode:
  /// that mode's extent if it has stride 1, up to 16 bytes (or the runs a
  /// swizzle keeps together), when the runs can be whole words (8- and
  /// 16-bit elements of a global or shared view); 1 otherwise. A thread's
  /// part of an MMA accumulator tile is such a view: pairs of columns, each
  /// pair its own word.
  int64_t contiguousRun(const Operation &view, int64_t n) {
    const Type &type = view.result()->type();
    unsigned bits = ir::bitWidth(type.element());
    if ((bits != 8 && bits != 16) || !isMemory(type.memorySpace()))
      return 1;
    Layout elements = filterZeros(type.tensorLayout());
    IntTuple shape = elements.shape, stride = elements.stride;
    while (shape.isTuple()) {
      if (shape.rank() == 0)
        return 1;
      shape = IntTuple(shape[0]);
      stride = IntTuple(stride[0]);
    }
    if (!shape.leaf().isStatic() || !stride.leaf().isConstant(1))
      return 1;
    int64_t extent = shape.leaf().staticValue(), run = 1;
    while (run * 2 * bits <= 8 * unswizzledBytes(type) && extent % (run * 2) == 0)
      run *= 2;
    return run * bits >= 32 && n % run == 0 ? run : 1;
  }

  /// Stores `regs` into `view` run by run (runs of `run` contiguous
  /// elements): as words where the run's first element is provably aligned,
  /// element by element where it is not.
  bool storeRuns(ir::Builder &b, const Operation &op, Operation &view, const Registers &regs,
                 int64_t run) {
    int64_t bytes = ir::bitWidth(view.result()->type().element()) / 8;
    for (int64_t first = 0; first < int64_t(regs.size()); first += run) {
      std::optional<Element> start = element(b, op, view, first);
      if (!start)
        return false;
      int64_t align = std::min({divisibility.powerOfTwoDivisor(start->offset, 16) * bytes,
                                baseAlignment(view), unswizzledBytes(view.result()->type())});
      int64_t width = run * bytes;
      while (width >= 4 && width > align)
        width /= 2;
      llvm::ArrayRef<Value *> part(regs.begin() + first, regs.begin() + first + run);
      if (width >= 4) {
        storeWords(b, op, view, *start, part, width);
        continue;
      }
      for (int64_t r = 0; r < run; ++r)
        if (!storeElement(b, op, view, first + r, part[r]))
          return false;
    }
    return true;
  }

  /// Registers of `bits`-bit elements as u32 words, the lower-numbered
  /// element in the lower bits: 16-bit pairs with arith.pack, bytes by xor
  /// of disjoint bits, 32-bit elements bitcast.
  Registers packWords(ir::Builder &b, llvm::SMLoc loc, llvm::ArrayRef<Value *> regs,
                      unsigned bits) {
    DataType raw = bits == 8 ? DataType::U8 : DataType::U32;
    Registers words;
    for (size_t r = 0; r < regs.size(); ++r) {
      if (bits == 16) {
        words.push_back(packHalves(b, loc, regs[r], regs[r + 1]));
        ++r;
        continue;
      }
      Value *v = cast(b, loc, OpKind::Bitcast, regs[r], raw);
      if (raw != DataType::U32)
        v = cast(b, loc, OpKind::Convert, v, DataType::U32);
      if (int64_t shift = int64_t(r) * bits % 32)
        v = binary(b, loc, OpKind::Mul, v, constant(b, loc, DataType::U32, int64_t(1) << shift));
      if (r * bits % 32 == 0)
        words.push_back(v);
      else
        words.back() = binary(b, loc, OpKind::BitXor, words.back(), v);
    }
    return words;
  }

  /// Stores contiguous registers of a fragment from element `first` of the
  /// view on as 32-bit words (packWords), `width` bytes at a time.
  void storeWords(ir::Builder &b, const Operation &op, Operation &view, const Element &first,
                  llvm::ArrayRef<Value *> regs, int64_t width) {
    const Type &type = view.result()->type();
    llvm::SMLoc loc = op.loc();
    Registers words = packWords(b, loc, regs, ir::bitWidth(type.element()));
    int64_t perAccess = width / 4;
    for (size_t w = 0; w < words.size(); w += perAccess) {
      llvm::SmallVector<Value *, 5> operands{addressAt(b, loc, view, first, int64_t(w) * 4)};
      operands.append(words.begin() + w, words.begin() + w + perAccess);
      memOp(b, loc, OpKind::MemStore, operands, {}, 32, type.memorySpace())
          .set(attr::vector, perAccess);
    }
  }

  /// The tensor-memory address a warp's tcgen05.ld/st of `op` starts at:
  /// its lane quarter, 32 * (warp_idx % 4) lanes on from the tensor's first,
  /// plus the op's "lane" (0 or 16) and "column"; computed before `op`, where
  /// `b` then inserts.
  Value *tmemCopyAddress(ir::Builder &b, Operation &op) {
    b.setInsertionPoint(op);
    const IntTuple *block = kernel.get(attr::block);
    std::vector<IntTuple> dims;
    if (block)
      flattenInto(*block, dims);
    for (size_t i = 1; i < dims.size(); ++i)
      if (!dims[i].leaf().isConstant(1)) {
        fail(op, "tmem_load and tmem_store need a one-dimensional block (warps numbered by "
                 "thread_idx().x)");
        return nullptr;
      }
    llvm::SMLoc loc = op.loc();
    Value *start = startAddress(b, op, op.operand(0), /*swizzled=*/false);
    if (!start)
      return nullptr;
    // (warp_idx % 4) * 32 << 16, and the first lane and column. warp_idx
    // (tid.x / 32 in a one-dimensional block) is the value isel makes
    // warp-uniform once at the entry, so ptxas keeps the address in a
    // uniform register instead of moving it there before every tcgen05.ld.
    Value *warp = b.createValue(OpKind::WarpIdx, loc, Type::scalar(DataType::I32), {});
    Value *quarter = binary(b, loc, OpKind::Rem, warp, constant(b, loc, DataType::I32, 4));
    Value *lanes = binary(b, loc, OpKind::Mul, quarter, constant(b, loc, DataType::I32, 32 << 16));
    Value *offset =
        constant(b, loc, DataType::I32, (*op.get(attr::lane) << 16) + *op.get(attr::column));
    return binary(b, loc, OpKind::Add, start,
                  cast(b, loc, OpKind::Bitcast, binary(b, loc, OpKind::Add, lanes, offset),
                       DataType::U32));
  }

  /// Copies the form attributes of a tmem_load/tmem_store to its words op.
  static void copyForm(const Operation &from, Operation &to) {
    to.set(attr::shape, *from.get(attr::shape));
    to.set(attr::num, *from.get(attr::num));
    to.set(attr::wait, *from.get(attr::wait));
  }

  /// tcgen05.ld: the registers come as u32 words, bitcast to the tensor's
  /// type; 16-bit elements come two to a word (.pack::16b), the even one in
  /// the low half (arith.unpack).
  bool lowerTmemLoad(Operation &op) {
    ir::Builder b;
    Value *address = tmemCopyAddress(b, op);
    if (!address)
      return false;
    llvm::SMLoc loc = op.loc();
    DataType element = op.result()->type().element();
    bool pack = ir::bitWidth(element) == 16;
    int64_t n = size(op.result()->type().tensorLayout()).staticValue();
    std::vector<Type> words(pack ? n / 2 : n, Type::scalar(DataType::U32));
    Operation &load = b.create(OpKind::TmemLoadWords, loc, {address}, words);
    copyForm(op, load);
    load.set(attr::pack, pack);
    dead.push_back(&op);
    if (!*op.get(attr::wait)) {
      // The words are not valid before the warp's tcgen05.wait::ld: the
      // fragment is built from them after the next one in this block.
      unwaitedLoads.push_back({op.result(), &load});
      return true;
    }
    fragments[op.result()] = fragmentOfWords(b, load, element);
    return true;
  }

  /// The registers of a tmem_load's fragment from its u32 words: bitcast,
  /// or two 16-bit elements to a word (.pack::16b).
  Registers fragmentOfWords(ir::Builder &b, Operation &load, DataType element) {
    Registers regs;
    for (const auto &word : load.results()) {
      if (*load.get(attr::pack)) {
        unpackHalves(b, load.loc(), word.get(), element, regs);
        continue;
      }
      regs.push_back(element == DataType::U32
                         ? word.get()
                         : cast(b, load.loc(), OpKind::Bitcast, word.get(), element));
    }
    return regs;
  }

  /// fence_view_async_tmem_load(): the fragments of the tmem_load(wait=False)
  /// before it in its block, built from their words after it.
  bool lowerWaitLd(Operation &wait) {
    ir::Builder b;
    b.setInsertionPoint(wait);
    Operation *first = nullptr;
    for (auto &[result, load] : unwaitedLoads) {
      if (load->parentBlock() != wait.parentBlock())
        continue;
      Registers regs = fragmentOfWords(b, *load, result->type().element());
      if (!first && !regs.empty() && regs.front()->definingOp() != load)
        first = regs.front()->definingOp();
      fragments[result] = std::move(regs);
    }
    llvm::erase_if(unwaitedLoads, [&](const auto &u) { return fragments.count(u.first); });
    if (first)
      ir::moveBefore(wait, *first);
    return true;
  }

  /// tcgen05.st of a fragment as u32 words; 16-bit elements two to a word
  /// (.unpack::16b), the even one in the low half (arith.pack).
  bool lowerTmemStore(Operation &op) {
    const Registers *regs = fragment(op, op.operand(1));
    ir::Builder b;
    Value *address = regs ? tmemCopyAddress(b, op) : nullptr;
    if (!address)
      return false;
    llvm::SMLoc loc = op.loc();
    bool pack = ir::bitWidth(op.operand(1)->type().element()) == 16;
    llvm::SmallVector<Value *, 129> operands{address};
    for (size_t i = 0; i < regs->size(); i += pack ? 2 : 1) {
      Value *r = (*regs)[i];
      operands.push_back(pack ? packHalves(b, loc, r, (*regs)[i + 1])
                         : r->type().element() == DataType::U32
                             ? r
                             : cast(b, loc, OpKind::Bitcast, r, DataType::U32));
    }
    Operation &store = b.create(OpKind::TmemStoreWords, loc, operands, {});
    copyForm(op, store);
    store.set(attr::pack, pack);
    dead.push_back(&op);
    return true;
  }

  /// stmatrix/ldmatrix: the lane's row address, the view's element at
  /// ir::matrixRowStart(%laneid) swizzled like any shared access, and the
  /// fragment's 16-bit pairs as one word per matrix.
  bool lowerMatrixCopy(Operation &op) {
    Operation *view = viewOf(op, op.operand(0));
    bool store = op.kind() == OpKind::Stmatrix;
    const Registers *regs = store && view ? fragment(op, op.operand(1)) : nullptr;
    if (!view || (store && !regs))
      return false;
    ir::Builder b;
    b.setInsertionPoint(op);
    llvm::SMLoc loc = op.loc();
    int64_t num = *op.get(attr::num);
    bool trans = *op.get(attr::trans);
    IntTuple start =
        ir::matrixRowStart(IntExpr::symbol("$0"), *op.get(attr::rowBlocks), num, trans);
    llvm::Expected<IntExpr> delta = crd2idx(start, view->result()->type().tensorLayout());
    if (!delta)
      return fail(op, llvm::toString(delta.takeError()));
    Value *lane = b.createValue(OpKind::LaneIdx, loc, Type::scalar(DataType::I32), {});
    Value *offset = materializeOffset(b, kernel, loc, *delta, {lane}, context);
    if (!offset)
      return false;
    Value *row = address(b, loc, *view, binary(b, loc, OpKind::Add, view->operand(1), offset),
                         /*swizzled=*/true);
    Operation *words;
    if (store) {
      llvm::SmallVector<Value *, 5> operands{row};
      for (int64_t m = 0; m < num; ++m)
        operands.push_back(packHalves(b, loc, (*regs)[2 * m], (*regs)[2 * m + 1]));
      words = &b.create(OpKind::StmatrixWords, loc, operands, {});
    } else {
      words = &b.create(OpKind::LdmatrixWords, loc, {row},
                        std::vector<Type>(num, Type::scalar(DataType::U32)));
      Registers loaded;
      for (const auto &word : words->results())
        unpackHalves(b, loc, word.get(), view->result()->type().element(), loaded);
      fragments[op.result()] = std::move(loaded);
    }
    words->set(attr::num, num);
    words->set(attr::trans, trans);
    dead.push_back(&op);
    return true;
  }

  /// Elementwise, except that f32 registers convert to f16 or bf16 in pairs
  /// (registers 2i, 2i+1: `arith.convert_x2`, cvt.rn.f16x2.f32), whose word
  /// arith.unpack splits into the two elements.
  bool lowerConvert(Operation &op) {
    const Registers *regs = fragment(op, op.operand(0));
    if (!regs)
      return false;
    ir::Builder b;
    b.setInsertionPoint(op);
    DataType from = op.operand(0)->type().element(), to = op.result()->type().element();
    bool pairs = from == DataType::F32 && (to == DataType::F16 || to == DataType::BF16);
    Registers converted;
    for (size_t r = 0; r < regs->size(); ++r) {
      bool pair = pairs && r + 1 < regs->size();
      Operation &c = pair ? b.create(OpKind::ConvertX2, op.loc(), {(*regs)[r], (*regs)[r + 1]},
                                     {Type::scalar(DataType::U32)})
                          : b.create(OpKind::Convert, op.loc(), {(*regs)[r]}, {Type::scalar(to)});
      for (const auto &[key, value] : op.attributes())
        c.setAttr(key, value);
      if (!pair) {
        converted.push_back(c.result());
        continue;
      }
      c.set(attr::to, Type::scalar(to));
      unpackHalves(b, op.loc(), c.result(), to, converted);
      ++r;
    }
    fragments[op.result()] = std::move(converted);
    dead.push_back(&op);
    return true;
  }

  bool lowerExtract(Operation &op) {
    const Registers *regs = fragment(op, op.operand(0));
    if (!regs)
      return false;
    IntTuple index;
    if (const int64_t *i = op.get<int64_t>(attr::index))
      index = IntTuple(*i);
    else if (const IntTuple *t = op.get<IntTuple>(attr::index))
      index = *t;
    else
      return fail(op, "internal error: 'cute.extract' needs an 'index'");
    llvm::Expected<IntExpr> r =
        crd2idx(index, fragmentLayout(op.operand(0)->type().tensorLayout()));
    if (!r)
      return fail(op, llvm::toString(r.takeError()));
    if (!r->isStatic() || r->staticValue() < 0 || r->staticValue() >= int64_t(regs->size()))
      return fail(op, "index " + index.str() + " is outside the fragment " +
                          op.operand(0)->type().str());
    ir::replaceAllUsesWith(kernel, op.result(), (*regs)[r->staticValue()]);
    dead.push_back(&op);
    return true;
  }

  /// nvgpu.wgmma on registers: the N/2 accumulator elements of its
  /// instruction tile (from `first`) in, as many new ones out (f16 ones
  /// packed in pairs, so N/4 words), then A's shared start address or, A in
  /// registers, the four words of its block (from `a_first`), B's shared
  /// start address and the flag; the fragment it returns is the
  /// accumulator's with those registers replaced.
  bool lowerWgmma(Operation &op) {
    const Registers *acc = fragment(op, op.operand(0));
    const bool aInRegisters = op.get(attr::aFirst) != nullptr;
    const Registers *aRegs = aInRegisters ? fragment(op, op.operand(1)) : nullptr;
    if (!acc || (aInRegisters && !aRegs))
      return false;
    const int64_t first = *op.get(attr::first), count = *op.get(attr::n) / 2;
    // A's block is four words of elements of its type.
    const unsigned aBits = aInRegisters ? ir::bitWidth(op.operand(1)->type().element()) : 32;
    const int64_t aFirst = aInRegisters ? *op.get(attr::aFirst) : 0, aCount = 128 / aBits;
    if (first + count > int64_t(acc->size()) ||
        (aInRegisters && aFirst + aCount > int64_t(aRegs->size())))
      return fail(op, "internal error: the wgmma's registers lie outside its fragments");
    ir::Builder b;
    const DataType element = op.result()->type().element();
    const bool halves = element == DataType::F16;
    llvm::ArrayRef<Value *> accumulators = llvm::ArrayRef(*acc).slice(first, count);
    b.setInsertionPoint(packingPoint(op, accumulators));
    Registers operands = halves ? packWords(b, op.loc(), accumulators, 16)
                                : Registers(accumulators.begin(), accumulators.end());
    const size_t words = operands.size();
    if (aInRegisters) {
      llvm::ArrayRef<Value *> aBlock = llvm::ArrayRef(*aRegs).slice(aFirst, aCount);
      b.setInsertionPoint(packingPoint(op, aBlock));
      Registers a = packWords(b, op.loc(), aBlock, aBits);
      operands.append(a.begin(), a.end());
    }
    b.setInsertionPoint(op);
    if (!aInRegisters) {
      Value *a = startAddress(b, op, op.operand(1), /*swizzled=*/false);
      if (!a)
        return false;
      operands.push_back(a);
    }
    Value *bAddress = startAddress(b, op, op.operand(2), /*swizzled=*/false);
    if (!bAddress)
      return false;
    operands.append({bAddress, op.operand(3)});
    Operation &mma = b.create(OpKind::Wgmma, op.loc(), operands,
                              std::vector<Type>(words, Type::scalar(halves ? DataType::U32 : element)));
    for (const auto &[key, value] : op.attributes())
      mma.setAttr(key, value);
    Registers results;
    for (size_t i = 0; i < words; ++i)
      if (halves)
        unpackHalves(b, op.loc(), mma.result(unsigned(i)), element, results);
      else
        results.push_back(mma.result(unsigned(i)));
    Registers result = *acc;
    std::copy(results.begin(), results.end(), result.begin() + first);
    fragments[op.result()] = std::move(result);
    dead.push_back(&op);
    return true;
  }

  /// Where the 16-bit register operands of wgmma `op` are packed into
  /// words: before the warpgroup.fence that precedes it in its block when
  /// all of `registers` are defined before that fence, else just before
  /// `op`. (A register written between the fence and the wgmma makes ptxas
  /// wait for the whole warpgroup: "warpgroup.arrive is injected".)
  static Operation &packingPoint(Operation &op, llvm::ArrayRef<Value *> registers) {
    Operation *fence = nullptr;
    llvm::SmallPtrSet<const Operation *, 16> sinceFence;
    for (const std::unique_ptr<Operation> &other : op.parentBlock()->operations()) {
      if (other.get() == &op)
        break;
      if (other->kind() == OpKind::WgmmaFence) {
        fence = other.get();
        sinceFence.clear();
      } else if (fence) {
        sinceFence.insert(other.get());
      }
    }
    if (!fence || llvm::any_of(registers, [&](const Value *r) {
          return r->definingOp() && sinceFence.contains(r->definingOp());
        }))
      return op;
    return *fence;
  }

  static bool isFragment(const Value *v) {
    return v->type().isTensor() && v->type().memorySpace() == ir::MemorySpace::Register;
  }

  /// Where a loop's carried values begin: among its operands, after a
  /// `for`'s start, end and step; among its blocks' arguments, after a
  /// `for`'s induction variable. A `while` has only carried values (its
  /// before and after blocks take one argument each); an `if` none (its
  /// one operand is the condition, its blocks take no arguments).
  static unsigned firstInit(const Operation &loop) {
    return loop.kind() == OpKind::For ? 3 : loop.kind() == OpKind::If ? 1 : 0;
  }
  static unsigned firstCarriedArgument(const Operation &loop) {
    return loop.kind() == OpKind::For ? 1 : 0;
  }
  /// Where the carried values begin among a terminator's operands: after a
  /// `condition`'s bool.
  static unsigned firstCarriedOperand(const Operation &terminator) {
    return terminator.kind() == OpKind::Condition ? 1 : 0;
  }

  /// A loop (`for` or `while`) that carries register fragments carries
  /// their registers: each fragment's registers become further inits, block
  /// arguments (of each of the loop's blocks) and results, appended in the
  /// order of the fragments, which the fragment argument and result stand
  /// for until dropFragmentCarries removes them.
  bool carryFragments(Operation &loop) {
    const unsigned carried = unsigned(loop.results().size());
    const unsigned init0 = firstInit(loop), arg0 = firstCarriedArgument(loop);
    bool any = false;
    for (unsigned c = 0; c < carried; ++c) {
      Value *init = loop.operand(init0 + c);
      if (!isFragment(init))
        continue;
      const Registers *regs = fragment(loop, init);
      if (!regs)
        return false;
      std::vector<Registers> args(loop.regions().size());
      Registers results;
      for (Value *r : *regs) {
        loop.addOperand(r);
        for (size_t i = 0; i < args.size(); ++i)
          args[i].push_back(loop.regions()[i]->front().addArgument(r->type()));
        results.push_back(loop.addResult(r->type()));
      }
      for (size_t i = 0; i < args.size(); ++i)
        fragments[loop.regions()[i]->front().argument(arg0 + c)] = std::move(args[i]);
      fragments[loop.result(c)] = std::move(results);
      any = true;
    }
    if (any)
      opsCarryingFragments.push_back(&loop);
    else
      for (Value *v : loop.operands())
        if (v->type().isTensor())
          return fail(loop, "'" + ir::name(loop.kind()) +
                                "' on a tensor cannot be lowered to scalar registers");
    return true;
  }

  /// An `if` whose results include register fragments gets a result per
  /// register of each, appended in the order of the fragments, which its
  /// yields give (yieldFragments) and the fragment result stands for until
  /// dropFragmentCarries removes it.
  bool carryFragmentsOutOfIf(Operation &op) {
    bool any = false;
    for (unsigned c = 0; c < op.results().size(); ++c) {
      if (!isFragment(op.result(c)))
        continue;
      const ir::Type &type = op.result(c)->type();
      std::optional<int64_t> n = registerCount(op, type.tensorLayout());
      if (!n)
        return false;
      Registers results;
      for (int64_t i = 0; i < *n; ++i)
        results.push_back(op.addResult(ir::Type::scalar(type.element())));
      fragments[op.result(c)] = std::move(results);
      any = true;
    }
    if (any)
      opsCarryingFragments.push_back(&op);
    return true;
  }

  /// The yield or condition that ends a block of a loop or `if` carrying
  /// fragments: their registers follow, in the order of the fragments.
  bool yieldFragments(Operation &terminator) {
    const Operation *owner = terminator.parentBlock()->parent()->parent();
    if (!llvm::is_contained(opsCarryingFragments, owner)) {
      for (Value *v : terminator.operands())
        if (v->type().isTensor())
          return fail(terminator, "a tensor in memory cannot be chosen by run-time control flow");
      return true;
    }
    const unsigned first = firstCarriedOperand(terminator);
    const size_t carried = owner->results().size();
    for (size_t c = 0; c < carried && first + c < terminator.operands().size(); ++c)
      if (Value *v = terminator.operand(unsigned(first + c)); isFragment(v)) {
        const Registers *regs = fragment(terminator, v);
        if (!regs)
          return false;
        for (Value *r : *regs)
          terminator.addOperand(r);
      }
    return true;
  }

  /// After lowering: the loop's fragment inits, arguments, results and
  /// yielded (or forwarded) values go, their registers having taken their
  /// place. The inits and yielded fragments were erased with the ops that
  /// made them: which carried values go is read off the results.
  void dropFragmentCarries(Operation &loop) {
    std::vector<bool> drop;
    for (unsigned c = 0; c < loop.results().size(); ++c)
      drop.push_back(isFragment(loop.result(c)));
    // Whether the value at `i` of a list whose carried values start at
    // `first` goes.
    auto dropped = [&](size_t i, unsigned first) {
      return i >= first && i - first < drop.size() && drop[i - first];
    };
    const unsigned init0 = firstInit(loop), arg0 = firstCarriedArgument(loop);
    std::vector<Value *> operands;
    for (size_t i = 0; i < loop.operands().size(); ++i)
      if (!dropped(i, init0))
        operands.push_back(loop.operand(unsigned(i)));
    loop.setOperands(operands);
    for (const auto &region : loop.regions()) {
      ir::Block &block = region->front();
      if (Operation *terminator = block.terminator()) {
        const unsigned first = firstCarriedOperand(*terminator);
        std::vector<Value *> values;
        for (size_t i = 0; i < terminator->operands().size(); ++i)
          if (!dropped(i, first))
            values.push_back(terminator->operand(unsigned(i)));
        terminator->setOperands(values);
      }
      block.eraseArguments([&](unsigned i) { return dropped(i, arg0); });
    }
    loop.eraseResults([&](unsigned c) { return drop[c]; });
  }

  bool lowerFill(Operation &op) {
    std::optional<int64_t> n = registerCount(op, op.result()->type().tensorLayout());
    if (!n)
      return false;
    fragments[op.result()] = Registers(*n, op.operand(0));
    dead.push_back(&op);
    return true;
  }

  Operation &kernel;
  PassContext &context;
  llvm::DenseMap<Value *, Registers> fragments;
  /// tmem_load(wait=False) results whose fragments wait for the warp's
  /// fence_view_async_tmem_load(), and their tcgen05.ld words.
  std::vector<std::pair<Value *, Operation *>> unwaitedLoads;
  /// Loops and ifs whose results include register fragments.
  std::vector<Operation *> opsCarryingFragments;
  llvm::DenseMap<Value *, Value *> baseAddresses;
  Divisibility divisibility;
  std::vector<Operation *> dead;
};

class LowerIndexing : public Pass {
public:
  llvm::StringRef name() const override { return "lower-indexing"; }
  void run(Operation &kernel, PassContext &context) override { Lowering(kernel, context).run(); }
};

} // namespace

std::unique_ptr<Pass> createLowerIndexingPass() { return std::make_unique<LowerIndexing>(); }

} // namespace cutec
