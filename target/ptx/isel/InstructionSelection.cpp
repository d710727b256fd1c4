//===- InstructionSelection.cpp - Kernel IR scalars to PTX machine IR -----===//
//
// Every scalar op, memory op and thread-index read becomes the `ptx.inst`s
// of target/ptx/PtxInstructions.def (docs/ir.md, "After isel"); `for`, `if`,
// `while`, `condition`, `yield` and `return` stay, with their values retyped
// to machine registers.
// Kernel parameters are read once at the entry: ld.param + cvta for tensors,
// ld.param.u32 for dynamic sizes and integer scalars, ld.param.f32 for f32.
//
// Values of 8 bits or fewer live in b16 registers: PTX has no moves of b8
// registers (so a b8 value could not be carried through a loop), and a byte
// loaded with ld.u8 or narrowed with cvt.u16 arrives zero-extended in one.
// Only the fp4 conversion needs a b8 operand; it unpacks the low byte.
//
//===----------------------------------------------------------------------===//
#include "target/ptx/isel/IselAsync.h"
#include "target/ptx/isel/IselAtomic.h"
#include "target/ptx/isel/IselCluster.h"
#include "target/ptx/isel/IselMath.h"
#include "target/ptx/isel/IselNarrow.h"
#include "target/ptx/Targets.h"
#include "target/ptx/isel/IselTcgen05.h"
#include "target/ptx/isel/IselWarp.h"
#include "target/ptx/isel/IselWgmma.h"
#include "ir/core/DynamicSizes.h"
#include "passes/analysis/NonNegative.h"
#include "passes/Passes.h"
#include "target/ptx/isel/InstructionSelection.h"

#include "target/ptx/MachineBuilder.h"
#include "target/ptx/MachineTypes.h"
#include "target/ptx/PtxInstructions.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace cutec {
namespace {

using ir::DataType;
using ir::Operation;
using ir::OpKind;
using ir::Type;
using ir::Value;
using ptx::emitInst;
using ptx::emitValue;
using ptx::PtxOpcode;

/// The type of the register that holds a kernel value of type `t`.
DataType machineType(DataType t) {
  return t != DataType::Bool && ir::bitWidth(t) <= 8 ? DataType::U16 : t;
}

/// Scalar arithmetic: one instruction per (op, type).
struct ArithRule {
  OpKind kind;
  DataType type;
  PtxOpcode opcode;
};
constexpr ArithRule kArithRules[] = {
    {OpKind::Add, DataType::I32, PtxOpcode::AddS32},
    {OpKind::Add, DataType::U32, PtxOpcode::AddS32},
    {OpKind::Add, DataType::I64, PtxOpcode::AddS64},
    {OpKind::Add, DataType::U64, PtxOpcode::AddS64},
    {OpKind::Add, DataType::F32, PtxOpcode::AddRnF32},
    {OpKind::Sub, DataType::I32, PtxOpcode::SubS32},
    {OpKind::Sub, DataType::U32, PtxOpcode::SubS32},
    {OpKind::Sub, DataType::F32, PtxOpcode::SubRnF32},
    {OpKind::Mul, DataType::I32, PtxOpcode::MulLoS32},
    {OpKind::Mul, DataType::U32, PtxOpcode::MulLoS32},
    {OpKind::Mul, DataType::I64, PtxOpcode::MulLoS64},
    {OpKind::Mul, DataType::U64, PtxOpcode::MulLoS64},
    {OpKind::Mul, DataType::F32, PtxOpcode::MulRnF32},
    {OpKind::Div, DataType::I32, PtxOpcode::DivS32},
    {OpKind::Div, DataType::F32, PtxOpcode::DivRnF32},
    {OpKind::Rem, DataType::I32, PtxOpcode::RemS32},
    {OpKind::Div, DataType::U32, PtxOpcode::DivU32},
    {OpKind::Rem, DataType::U32, PtxOpcode::RemU32},
    {OpKind::Neg, DataType::I32, PtxOpcode::NegS32},
    {OpKind::Neg, DataType::F32, PtxOpcode::NegF32},
    {OpKind::Fma, DataType::I32, PtxOpcode::MadLoS32},
    {OpKind::Fma, DataType::I64, PtxOpcode::MadLoS64},
    {OpKind::Fma, DataType::F32, PtxOpcode::FmaRnF32},
    {OpKind::ShiftRight, DataType::U32, PtxOpcode::ShrU32},
    {OpKind::ShiftRight, DataType::I32, PtxOpcode::ShrS32},
    {OpKind::ShiftRight, DataType::I64, PtxOpcode::ShrS64},
    {OpKind::ShiftLeft, DataType::I32, PtxOpcode::ShlB32},
    {OpKind::ShiftLeft, DataType::U32, PtxOpcode::ShlB32},
    {OpKind::BitAnd, DataType::I32, PtxOpcode::AndB32},
    {OpKind::BitAnd, DataType::U32, PtxOpcode::AndB32},
    {OpKind::BitAnd, DataType::I64, PtxOpcode::AndB64},
    {OpKind::BitAnd, DataType::U64, PtxOpcode::AndB64},
    {OpKind::BitOr, DataType::I32, PtxOpcode::OrB32},
    {OpKind::BitOr, DataType::U32, PtxOpcode::OrB32},
    {OpKind::BitXor, DataType::U32, PtxOpcode::XorB32},
    {OpKind::BitXor, DataType::I32, PtxOpcode::XorB32},
    {OpKind::Select, DataType::I32, PtxOpcode::SelpB32},
    {OpKind::Select, DataType::U32, PtxOpcode::SelpB32},
    {OpKind::Select, DataType::F32, PtxOpcode::SelpF32},
};

std::optional<PtxOpcode> arithOpcode(OpKind kind, DataType type) {
  for (const ArithRule &rule : kArithRules)
    if (rule.kind == kind && rule.type == type)
      return rule.opcode;
  return std::nullopt;
}

class Selector {
public:
  Selector(Operation &kernel, PassContext &context, const TargetFeatures &target)
      : kernel(kernel), context(context), target(target), e2m1Products(target) {}

  void run() {
    if (!planRegisters(kernel, context))
      return;
    NonNegative nonNegative(kernel);
    ir::walk(kernel, [&](Operation &op) {
      if ((op.kind() == OpKind::Div || op.kind() == OpKind::Rem) && nonNegative.known(op.operand(0)))
        nonNegativeDividends.insert(&op);
      for (const Value *v : op.operands())
        if (const Operation *def = v->definingOp(); def && def->kind() == OpKind::MemAtomic)
          readAtomics.insert(def);
    });
    ir::Block &entry = kernel.regions()[0]->front();
    loadParameters(entry);
    if (!ir::collect(kernel, OpKind::WarpIdx).empty()) {
      ir::Builder b;
      b.setInsertionPoint(*entry.operations().front());
      warpIndex = warpIndexAtEntry(b, kernel.loc(), *kernel.get(ir::attr::block));
    }
    if (!selectBlock(entry))
      return;
    // Users before definitions; every use now refers to machine values.
    for (auto it = dead.rbegin(); it != dead.rend(); ++it)
      ir::erase(**it);
  }

private:
  bool fail(const Operation &op, const llvm::Twine &message) {
    context.error(op.loc(), "isel: " + message);
    return false;
  }

  Value *lookup(Value *v) const {
    auto it = machine.find(v);
    return it == machine.end() ? v : it->second;
  }

  /// The kernel IR type of `v`, also after isel retyped it (block arguments).
  DataType kernelType(const Value *v) const {
    auto it = retyped.find(v);
    return it == retyped.end() ? v->type().element() : it->second;
  }

  void retype(Value *v) {
    DataType t = v->type().element();
    if (machineType(t) == t)
      return;
    retyped[v] = t;
    v->setType(Type::scalar(machineType(t)));
  }

  void loadParameters(ir::Block &entry) {
    ir::Builder b;
    b.setInsertionPoint(*entry.operations().front());
    for (const auto &arg : entry.arguments()) {
      if (arg->type().isTensorMap()) {
        // cp.async.bulk.tensor takes the map's generic address.
        Operation &symbol = emitInst(b, kernel.loc(), PtxOpcode::MovB64Param, {DataType::U64});
        symbol.set(ir::attr::symbol, arg->nameHint());
        machine[arg.get()] =
            emitValue(b, kernel.loc(), PtxOpcode::CvtaParamU64, DataType::U64, {symbol.result()});
        continue;
      }
      bool isTensor = arg->type().isTensor();
      PtxOpcode load = isTensor                                 ? PtxOpcode::LdParamU64
                       : arg->type().element() == DataType::F32 ? PtxOpcode::LdParamF32
                                                                : PtxOpcode::LdParamU32;
      Operation &param = emitInst(b, kernel.loc(), load,
                                  {isTensor ? DataType::U64 : arg->type().element()});
      param.set(ir::attr::param, arg->nameHint());
      machine[arg.get()] = isTensor ? emitValue(b, kernel.loc(), PtxOpcode::CvtaToGlobalU64,
                                                DataType::U64, {param.result()})
                                    : param.result();
    }
  }

  bool selectBlock(ir::Block &block) {
    std::vector<Operation *> ops;
    for (auto &op : block.operations())
      ops.push_back(op.get());
    for (Operation *op : ops)
      if (!selectOp(*op))
        return false;
    return true;
  }

  bool selectOp(Operation &op) {
    switch (op.kind()) {
    case OpKind::For:
    case OpKind::If:
    case OpKind::While:
      for (unsigned i = 0; i < op.operands().size(); ++i)
        op.setOperand(i, lookup(op.operand(i)));
      for (const auto &r : op.results())
        retype(r.get());
      for (auto &region : op.regions()) {
        for (const auto &arg : region->front().arguments())
          retype(arg.get());
        if (!selectBlock(region->front()))
          return false;
      }
      return true;
    case OpKind::Yield:
    case OpKind::Condition:
    case OpKind::Return:
    case OpKind::PtxInst:
      for (unsigned i = 0; i < op.operands().size(); ++i)
        op.setOperand(i, lookup(op.operand(i)));
      return true;
    default:
      break;
    }
    ir::Builder b;
    b.setInsertionPoint(op);
    if (op.kind() == OpKind::MemLoad && op.get(ir::attr::vector))
      return memLoadWords(b, op);
    unsigned errors = context.errorCount();
    Value *selected = select(b, op);
    if (context.errorCount() != errors)
      return false;
    // An op with several results maps them to those of the instruction
    // that gives the first (a vector load).
    for (size_t i = 0; i < op.results().size(); ++i)
      machine[op.result(i)] = i == 0 ? selected : selected->definingOp()->result(i);
    dead.push_back(&op);
    return true;
  }

  /// The machine value of `op`'s result; null for ops without results and
  /// after an error.
  Value *select(ir::Builder &b, Operation &op) {
    llvm::SMLoc loc = op.loc();
    DataType type = op.results().empty() ? DataType::Bool : op.result()->type().element();
    llvm::SmallVector<Value *, 3> in;
    for (Value *v : op.operands())
      in.push_back(lookup(v));
    switch (op.kind()) {
    case OpKind::Constant:
      return constant(b, op, type);
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Rem:
      if (Value *shifted = divideByPowerOfTwo(b, op, type, in[0]))
        return shifted;
      return arith(b, op, type, in);
    case OpKind::Neg:
    case OpKind::Fma:
    case OpKind::BitAnd:
    case OpKind::BitOr:
    case OpKind::BitXor:
      return arith(b, op, type, in);
    case OpKind::ShiftRight:
    case OpKind::ShiftLeft:
      // PTX shift amounts are u32 registers whatever the shifted type.
      if (ir::bitWidth(kernelType(op.operand(1))) == 64)
        in[1] = emitValue(b, loc, PtxOpcode::CvtU32U64, DataType::U32, {in[1]});
      return arith(b, op, type, in);
    case OpKind::Select:
      if (type == DataType::Bool)
        return selectPredicate(b, op, in[0], in[1], in[2]);
      // selp d, a, b, c picks a when c holds.
      return arith(b, op, type, {in[1], in[2], in[0]});
    case OpKind::Cmp:
      return compare(b, op, in);
    case OpKind::Convert:
      if (!roundsToNearestEven(op))
        return nullptr;
      return convert(b, op, in[0], kernelType(op.operand(0)), type);
    case OpKind::ConvertX2:
      return roundsToNearestEven(op) ? convertX2(b, op, in[0], in[1]) : nullptr;
    case OpKind::ProductX2: {
      int64_t low = *op.get(ir::attr::low), high = *op.get(ir::attr::high);
      int64_t distance = narrowPairDistance(target);
      if (high - low != distance || low % (2 * distance) >= distance) {
        fail(op, "arith.product_x2 on " + target.arch + " pairs codes " + llvm::Twine(distance) +
                     " bits apart, the low one in the low half of " + llvm::Twine(2 * distance) +
                     " bits");
        return nullptr;
      }
      return e2m1Products.emit(b, loc, op.parentBlock(), in[0], in[1], low);
    }
    case OpKind::Pack:
      // mov.b32 d, {lo, hi}: the first source is the low half.
      return emitValue(b, loc, PtxOpcode::MovB32Pack, DataType::U32, in);
    case OpKind::Unpack:
      return emitInst(b, loc, PtxOpcode::MovB32Unpack, {machineType(type), machineType(type)}, in)
          .result(0);
    case OpKind::Bitcast:
      return bitcast(b, op, in[0], kernelType(op.operand(0)), type);
    case OpKind::BlockIdx:
    case OpKind::GridDim:
    case OpKind::ThreadIdx:
    case OpKind::LaneIdx:
      return specialRegister(b, op);
    case OpKind::DynamicSize:
      return dynamicSize(op);
    case OpKind::BaseAddress:
      return in[0];
    case OpKind::Shuffle:
      return shuffle(b, op, in, type);
    case OpKind::MathCall:
      return selectMath(b, op, in, context);
    case OpKind::StmatrixWords:
    case OpKind::LdmatrixWords:
      return matrixCopy(b, op, in);
    case OpKind::WarpIdx:
      return warpIndex;
    case OpKind::MemLoad:
      return memLoad(b, op, in[0], type);
    case OpKind::MemAtomic:
      return selectAtomic(b, op, in, readAtomics.contains(&op));
    case OpKind::MemStore:
      if (const int64_t *vector = op.get(ir::attr::vector)) {
        storeWords(b, op, in, *vector);
        return nullptr;
      }
      memStore(b, op, in[0], in[1], kernelType(op.operand(1)));
      return nullptr;
    default:
      if (op.get(ir::attr::ctaGroup) && !target.hasTcgen05) {
        fail(op, context.opName(op) + " with cta_group=2 is a CTA-pair instruction, which " +
                     target.arch + " does not have" + target.whyNoTcgen05 +
                     "; compile for --arch=sm_100a");
        return nullptr;
      }
      if (isClusterOp(op.kind()))
        return selectCluster(b, op, in);
      if (isClusterLaunchControlOp(op.kind())) {
        if (target.hasClusterLaunchControl)
          return selectClusterLaunchControl(b, op, in);
        fail(op, context.opName(op) + " is a cluster launch control instruction, which " +
                     target.arch + " does not have; compile for --arch=sm_100a");
        return nullptr;
      }
      if (isAsyncOp(op.kind()))
        return selectAsync(b, op, in);
      if (isWarpOp(op.kind()))
        return selectWarp(b, op);
      if (isWgmmaOp(op.kind())) {
        if (!target.hasWgmma) {
          fail(op, context.opName(op) + " is Hopper's warpgroup MMA, which " + target.arch +
                       " does not have (Blackwell's is tcgen05); compile for --arch=sm_90a");
          return nullptr;
        }
        return selectWgmma(b, op, in);
      }
      if (isTcgen05Op(op.kind())) {
        if (std::string missing = tcgen05Unsupported(op, context.opName(op), target);
            !missing.empty()) {
          fail(op, missing);
          return nullptr;
        }
        return selectTcgen05(b, op, in, target);
      }
      fail(op, "cannot select '" + ir::name(op.kind()) + "'");
      return nullptr;
    }
  }

  Value *constant(ir::Builder &b, const Operation &op, DataType type) {
    const int64_t *i = op.get<int64_t>(ir::attr::value);
    const double *d = op.get<double>(ir::attr::value);
    if (type == DataType::F32) {
      Operation &mov = emitInst(b, op.loc(), PtxOpcode::MovF32, {type});
      mov.set(ir::attr::imm, d ? *d : double(i ? *i : 0));
      return mov.result();
    }
    if (const bool *flag = op.get<bool>(ir::attr::value); flag && type == DataType::Bool) {
      // PTX has no predicate immediates: compare two zeros (two registers,
      // so the emulation does not compare a variable with itself).
      return emitValue(b, op.loc(), *flag ? PtxOpcode::SetpEqS32 : PtxOpcode::SetpNeS32,
                       DataType::Bool, {immediate32(b, op.loc(), 0), immediate32(b, op.loc(), 0)});
    }
    if (type == DataType::F16 || type == DataType::BF16) {
      // A 16-bit float register holds its bits (a zero-filled fragment's
      // fill value is one): rounded to nearest even, as cvt.rn would.
      llvm::APFloat value(d ? *d : double(i ? *i : 0));
      bool inexact;
      value.convert(type == DataType::F16 ? llvm::APFloat::IEEEhalf() : llvm::APFloat::BFloat(),
                    llvm::APFloat::rmNearestTiesToEven, &inexact);
      Operation &mov = emitInst(b, op.loc(), PtxOpcode::MovB16, {type});
      mov.set(ir::attr::imm, int64_t(value.bitcastToAPInt().getZExtValue()));
      return mov.result();
    }
    if (!i || !ir::isInteger(type)) {
      fail(op, "cannot select a constant of type " + ir::name(type));
      return nullptr;
    }
    unsigned bits = ir::bitWidth(type);
    Operation &mov = emitInst(b, op.loc(),
                              bits == 64   ? PtxOpcode::MovB64
                              : bits == 32 ? PtxOpcode::MovB32
                                           : PtxOpcode::MovB16,
                              {machineType(type)});
    mov.set(ir::attr::imm, *i);
    return mov.result();
  }

  Value *arith(ir::Builder &b, const Operation &op, DataType type,
               llvm::ArrayRef<Value *> operands) {
    std::optional<PtxOpcode> opcode = arithOpcode(op.kind(), type);
    if (!opcode) {
      fail(op, "cannot select '" + ir::name(op.kind()) + "' on " + ir::name(type));
      return nullptr;
    }
    return emitValue(b, op.loc(), *opcode, machineType(type), operands);
  }

  /// An i32 division or remainder by a constant 2^k (k >= 1) in shifts, as
  /// div.s32 and rem.s32 define them (the quotient rounds toward zero, the
  /// remainder has the dividend's sign): a negative dividend is biased by
  /// 2^k - 1 before the arithmetic shift; a dividend known non-negative
  /// needs one shift or mask. Null for other divisors.
  Value *divideByPowerOfTwo(ir::Builder &b, const Operation &op, DataType type, Value *x) {
    std::optional<int64_t> divisor = ir::intConstantOf(op.operand(1));
    if ((op.kind() != OpKind::Div && op.kind() != OpKind::Rem) || type != DataType::I32 ||
        !divisor || *divisor < 2 || *divisor > (int64_t(1) << 30) ||
        (*divisor & (*divisor - 1)))
      return nullptr;
    llvm::SMLoc loc = op.loc();
    int64_t k = llvm::Log2_64(uint64_t(*divisor));
    // The result keeps the op's i32 type (a loop may carry it beside other
    // i32 values); the steps before it are untyped 32-bit arithmetic.
    auto result = [&](PtxOpcode opcode, Value *lhs, Value *rhs) {
      return emitValue(b, loc, opcode, machineType(type), {lhs, rhs});
    };
    if (nonNegativeDividends.contains(&op))
      return op.kind() == OpKind::Div
                 ? result(PtxOpcode::ShrU32, x, immediate32(b, loc, k))
                 : result(PtxOpcode::AndB32, x, immediate32(b, loc, *divisor - 1));
    Value *sign = binary32(b, loc, PtxOpcode::ShrS32, x, immediate32(b, loc, 31));
    Value *bias = binary32(b, loc, PtxOpcode::ShrU32, sign, immediate32(b, loc, 32 - k));
    Value *biased = binary32(b, loc, PtxOpcode::AddS32, x, bias);
    if (op.kind() == OpKind::Div)
      return result(PtxOpcode::ShrS32, biased, immediate32(b, loc, k));
    Value *quotient = binary32(b, loc, PtxOpcode::ShrS32, biased, immediate32(b, loc, k));
    return result(PtxOpcode::SubS32, x,
                  binary32(b, loc, PtxOpcode::ShlB32, quotient, immediate32(b, loc, k)));
  }

  /// `c ? t : f` on predicates, which selp does not take: `c and t` when f
  /// is false (how `and` is written), `c or f` when t is true (`or`),
  /// otherwise (c and t) or (not c and f).
  Value *selectPredicate(ir::Builder &b, const Operation &op, Value *c, Value *t, Value *f) {
    llvm::SMLoc loc = op.loc();
    // The kernel IR's operands say which are constants.
    auto constant = [&](unsigned i) -> std::optional<bool> {
      const Operation *def = op.operand(i)->definingOp();
      if (def && def->kind() == OpKind::Constant)
        if (const bool *flag = def->get<bool>(ir::attr::value))
          return *flag;
      return std::nullopt;
    };
    if (constant(2) == false)
      return emitValue(b, loc, PtxOpcode::AndPred, DataType::Bool, {c, t});
    if (constant(1) == true)
      return emitValue(b, loc, PtxOpcode::OrPred, DataType::Bool, {c, f});
    Value *whenTrue = emitValue(b, loc, PtxOpcode::AndPred, DataType::Bool, {c, t});
    Value *notC = emitValue(b, loc, PtxOpcode::NotPred, DataType::Bool, {c});
    Value *whenFalse = emitValue(b, loc, PtxOpcode::AndPred, DataType::Bool, {notC, f});
    return emitValue(b, loc, PtxOpcode::OrPred, DataType::Bool, {whenTrue, whenFalse});
  }

  Value *compare(ir::Builder &b, const Operation &op, llvm::ArrayRef<Value *> operands) {
    DataType type = kernelType(op.operand(0));
    const std::string *predicate = op.get(ir::attr::predicate);
    if (type == DataType::Bool && predicate && (*predicate == "eq" || *predicate == "ne")) {
      // Predicates differ when their exclusive or holds (`not b` is b == False).
      Value *differ = emitValue(b, op.loc(), PtxOpcode::XorPred, DataType::Bool, operands);
      return *predicate == "ne"
                 ? differ
                 : emitValue(b, op.loc(), PtxOpcode::NotPred, DataType::Bool, {differ});
    }
    // Equality does not depend on the signedness: u32 uses the s32 forms.
    bool equality = predicate && (*predicate == "eq" || *predicate == "ne");
    const char *suffix = type == DataType::I32 || (type == DataType::U32 && equality) ? ".s32"
                         : type == DataType::U32                                     ? ".u32"
                         : type == DataType::F32                                     ? ".f32"
                         : type == DataType::F16                                     ? ".f16"
                         : type == DataType::BF16                                    ? ".bf16"
                                                                                     : nullptr;
    // Python's float comparisons are PTX's ordered ones (false when an
    // operand is NaN) except `!=`, which is the unordered `neu`.
    std::string cmp = predicate ? *predicate : "";
    if (ir::isFloat(type) && cmp == "ne")
      cmp = "neu";
    // The predicate's text spells the opcode: setp.lt.s32.
    const ptx::PtxInstruction *setp =
        suffix ? ptx::lookupPtxInstruction("setp." + cmp + suffix) : nullptr;
    if (!setp) {
      fail(op, "cannot select a comparison '" + (predicate ? *predicate : "") + "' of " +
                   ir::name(type));
      return nullptr;
    }
    return emitValue(b, op.loc(), setp->id, DataType::Bool, operands);
  }

  /// A narrow float code widened exactly to f16 (bf16 for ue8m0) through
  /// the sm_100a x2 up-conversions: the code in the low half, the result in
  /// the low half of the pair. Null for formats without one.
  Value *widenToHalf(ir::Builder &b, llvm::SMLoc loc, Value *code, DataType from) {
    PtxOpcode opcode;
    switch (from) {
    case DataType::F4E2M1: {
      // The e2m1 form reads a b8: the low byte of the b16 register.
      code =
          emitInst(b, loc, PtxOpcode::MovB16Unpack, {DataType::U8, DataType::U8}, {code}).result(0);
      opcode = PtxOpcode::CvtRnF16x2E2m1x2;
      break;
    }
    case DataType::UE4M3: {
      // ue4m3 is e4m3 without the sign: bit 7 is not part of the code.
      Operation &mask = emitInst(b, loc, PtxOpcode::MovB16, {DataType::U16});
      mask.set(ir::attr::imm, int64_t(0x7F));
      code = emitValue(b, loc, PtxOpcode::AndB16, DataType::U16, {code, mask.result()});
      opcode = PtxOpcode::CvtRnF16x2E4m3x2;
      break;
    }
    case DataType::F8E4M3:
      opcode = PtxOpcode::CvtRnF16x2E4m3x2;
      break;
    case DataType::F8E5M2:
      opcode = PtxOpcode::CvtRnF16x2E5m2x2;
      break;
    case DataType::UE8M0:
      opcode = PtxOpcode::CvtRnBf16x2Ue8m0x2;
      break;
    default:
      return nullptr;
    }
    DataType half = from == DataType::UE8M0 ? DataType::BF16 : DataType::F16;
    Value *pair = emitValue(b, loc, opcode, DataType::U32, {code});
    return emitInst(b, loc, PtxOpcode::MovB32Unpack, {half, half}, {pair}).result(0);
  }

  /// One conversion between scalar types.
  struct ConvertRule {
    DataType from, to;
    PtxOpcode opcode;
  };
  static constexpr ConvertRule kConvertRules[] = {
      {DataType::I32, DataType::F32, PtxOpcode::CvtRnF32S32},
      {DataType::F32, DataType::I32, PtxOpcode::CvtRziS32F32},
      {DataType::U32, DataType::F32, PtxOpcode::CvtRnF32U32},
      {DataType::F32, DataType::U32, PtxOpcode::CvtRziU32F32},
      {DataType::I32, DataType::I64, PtxOpcode::CvtS64S32},
      {DataType::U32, DataType::U64, PtxOpcode::CvtU64U32},
      {DataType::U16, DataType::U32, PtxOpcode::CvtU32U16},
      {DataType::U8, DataType::U32, PtxOpcode::CvtU32U16},
      {DataType::I64, DataType::I32, PtxOpcode::CvtU32U64},
      {DataType::U64, DataType::U32, PtxOpcode::CvtU32U64},
      {DataType::F16, DataType::F32, PtxOpcode::CvtF32F16},
      {DataType::BF16, DataType::F32, PtxOpcode::CvtF32Bf16},
      {DataType::F32, DataType::F16, PtxOpcode::CvtRnF16F32},
      {DataType::F32, DataType::BF16, PtxOpcode::CvtRnBf16F32},
  };

  /// Whether `op` rounds to nearest even, the only rounding selected; says
  /// so when it does not.
  bool roundsToNearestEven(const Operation &op) {
    const std::string *rounding = op.get(ir::attr::rounding);
    if (!rounding || *rounding == "rn")
      return true;
    return fail(op, "only round-to-nearest-even conversions are supported, not '" + *rounding +
                        "'");
  }

  /// `arith.convert_x2 lo, hi {to}`: cvt.rn.{f16x2,bf16x2}.f32 (sm_80 and
  /// later, so both targets), whose first source goes to the upper half.
  Value *convertX2(ir::Builder &b, const Operation &op, Value *lo, Value *hi) {
    const Type *to = op.get(ir::attr::to);
    DataType from = kernelType(op.operand(0));
    std::optional<PtxOpcode> opcode;
    if (from == DataType::F32 && to && to->element() == DataType::F16)
      opcode = PtxOpcode::CvtRnF16x2F32;
    else if (from == DataType::F32 && to && to->element() == DataType::BF16)
      opcode = PtxOpcode::CvtRnBf16x2F32;
    if (!opcode) {
      fail(op, "cannot convert pairs of " + ir::name(from) + " to " +
                   (to ? to->str() : std::string("?")));
      return nullptr;
    }
    return emitValue(b, op.loc(), *opcode, DataType::U32, {hi, lo});
  }

  Value *immediate32(ir::Builder &b, llvm::SMLoc loc, int64_t value) {
    return ptx::emitImmediate(b, loc, DataType::U32, value);
  }

  Value *binary32(ir::Builder &b, llvm::SMLoc loc, PtxOpcode opcode, Value *x, Value *y) {
    return emitValue(b, loc, opcode, DataType::U32, {x, y});
  }

  /// An e2m1 code (low nibble of a b16 register) as the f32 of the same
  /// value, with integer operations: the three magnitude bits go to f32
  /// bits 24..22 and the sign to bit 31. That f32 is the e2m1 value times
  /// 2^-126 (exponent e as f32 exponent e, the zero exponent a subnormal,
  /// just as in e2m1), so one exact multiplication by 2^126 gives the value.
  Value *decodeE2m1(ir::Builder &b, llvm::SMLoc loc, Value *code) {
    Value *c = emitValue(b, loc, PtxOpcode::CvtU32U16, DataType::U32, {code});
    Value *magnitude = binary32(b, loc, PtxOpcode::ShlB32,
                                binary32(b, loc, PtxOpcode::AndB32, c, immediate32(b, loc, 7)),
                                immediate32(b, loc, 22));
    Value *sign = binary32(b, loc, PtxOpcode::ShlB32,
                           binary32(b, loc, PtxOpcode::AndB32, c, immediate32(b, loc, 8)),
                           immediate32(b, loc, 28));
    Value *scaled = emitValue(b, loc, PtxOpcode::MovB32Tof32, DataType::F32,
                              {binary32(b, loc, PtxOpcode::OrB32, magnitude, sign)});
    Operation &two126 = emitInst(b, loc, PtxOpcode::MovF32, {DataType::F32});
    two126.set(ir::attr::imm, 0x1p126);
    return emitValue(b, loc, PtxOpcode::MulRnF32, DataType::F32, {scaled, two126.result()});
  }

  /// The two e2m1 codes of the byte at bit `shift` of `word` as an f16
  /// pair (the low code in the low half). With cvt.rn.f16x2.e2m1x2 where
  /// the target has it; elsewhere the codes' bits go where an f16 keeps them
  /// (magnitude to bits 11..9, sign to 15, in each half: the value times
  /// 2^-14, a subnormal for the smallest), two multiplications placing both
  /// halves at once, and one exact mul.rn.f16x2 by 2^14 makes the values.
  /// A ue8m0 code as an f32 with the bits sm_100a's bf16 route gives:
  /// 2^(e-127) for 1..254, 2^-127 (a subnormal) for 0, and for 255 the
  /// canonical f32 NaN 0x7FFFFFFF that cvt.f32.bf16 makes of a NaN.
  Value *decodeUe8m0(ir::Builder &b, llvm::SMLoc loc, Value *code) {
    Value *e = binary32(b, loc, PtxOpcode::AndB32,
                        emitValue(b, loc, PtxOpcode::CvtU32U16, DataType::U32, {code}),
                        immediate32(b, loc, 0xFF));
    Value *bits = binary32(b, loc, PtxOpcode::ShlB32, e, immediate32(b, loc, 23));
    Value *isZero =
        emitValue(b, loc, PtxOpcode::SetpEqS32, DataType::Bool, {e, immediate32(b, loc, 0)});
    bits = emitValue(b, loc, PtxOpcode::SelpB32, DataType::U32,
                     {immediate32(b, loc, 0x00400000), bits, isZero});
    Value *isNaN =
        emitValue(b, loc, PtxOpcode::SetpEqS32, DataType::Bool, {e, immediate32(b, loc, 0xFF)});
    bits = emitValue(b, loc, PtxOpcode::SelpB32, DataType::U32,
                     {immediate32(b, loc, 0x7FFFFFFF), bits, isNaN});
    return emitValue(b, loc, PtxOpcode::MovB32Tof32, DataType::F32, {bits});
  }

  Value *convert(ir::Builder &b, const Operation &op, Value *v, DataType from, DataType to) {
    if (from == to)
      return v;
    if (ir::isInteger(from) && ir::isInteger(to) && ir::bitWidth(from) == ir::bitWidth(to))
      return v;
    if (!target.hasFp4AndUe8m0Conversions &&
        (from == DataType::F4E2M1 || from == DataType::UE8M0)) {
      Value *f32 = from == DataType::F4E2M1 ? decodeE2m1(b, op.loc(), v)
                                             : decodeUe8m0(b, op.loc(), v);
      return convert(b, op, f32, DataType::F32, to);
    }
    if (ir::isStorageOnlyFloat(from))
      if (Value *half = widenToHalf(b, op.loc(), v, from))
        return convert(b, op, half, from == DataType::UE8M0 ? DataType::BF16 : DataType::F16, to);
    for (const ConvertRule &rule : kConvertRules)
      if (rule.from == from && rule.to == to)
        return emitValue(b, op.loc(), rule.opcode, machineType(to), {v});
    fail(op, "cannot convert " + ir::name(from) + " to " + ir::name(to));
    return nullptr;
  }

  Value *bitcast(ir::Builder &b, const Operation &op, Value *v, DataType from, DataType to) {
    DataType mfrom = machineType(from), mto = machineType(to);
    if (ptx::registerClass(mfrom) == ptx::registerClass(mto))
      return v;
    // The bits of a b32 word as an f32 (a tensor-memory cell), and back (a
    // word of a vector store).
    if (ptx::registerClass(mfrom) == ptx::RegisterClass::B32 && mto == DataType::F32)
      return emitValue(b, op.loc(), PtxOpcode::MovB32Tof32, DataType::F32, {v});
    if (mfrom == DataType::F32 && ptx::registerClass(mto) == ptx::RegisterClass::B32)
      return emitValue(b, op.loc(), PtxOpcode::MovB32Fromf32, mto, {v});
    // Narrowing to the low bits of a b16 register (e.g. a selected nibble).
    if (ptx::registerClass(mfrom) == ptx::RegisterClass::B32 &&
        ptx::registerClass(mto) == ptx::RegisterClass::B16)
      return emitValue(b, op.loc(), PtxOpcode::CvtU16U32, mto, {v});
    fail(op, "cannot bitcast " + ir::name(from) + " to " + ir::name(to));
    return nullptr;
  }

  static std::string specialRegisterName(OpKind kind, int64_t dim) {
    static const char *const kDims[] = {"x", "y", "z"};
    switch (kind) {
    case OpKind::LaneIdx:
      return "%laneid";
    case OpKind::BlockIdx:
      return std::string("%ctaid.") + kDims[dim];
    case OpKind::GridDim:
      return std::string("%nctaid.") + kDims[dim];
    default:
      return std::string("%tid.") + kDims[dim];
    }
  }

  Value *specialRegister(ir::Builder &b, const Operation &op) {
    const int64_t *dim = op.get(ir::attr::dim);
    Operation &mov = emitInst(b, op.loc(), PtxOpcode::MovU32, {op.result()->type().element()});
    mov.set(ir::attr::special, specialRegisterName(op.kind(), dim ? *dim : 0));
    return mov.result();
  }

  Value *dynamicSize(const Operation &op) {
    const std::string *name = op.get(ir::attr::name);
    if (std::optional<unsigned> arg =
            name ? ir::DynamicSizeArguments(kernel).argumentOf(*name) : std::nullopt)
      return lookup(kernel.regions()[0]->front().argument(*arg));
    fail(op, "no kernel argument for the dynamic size '" + (name ? *name : "") + "'");
    return nullptr;
  }

  /// A PTX state space and its loads and stores: 8-, 16-, 32- and 64-bit
  /// elements, f32, and vectors of 2 and 4 32-bit words.
  struct StateSpace {
    ir::MemorySpace space;
    const char *name;
    PtxOpcode loadU8, loadU16, loadU32, loadU64, loadF32, loadV2, loadV4;
    PtxOpcode storeB8, storeB16, storeB32, storeB64, storeF32, storeV2, storeV4;
  };
  /// Another CTA's shared memory (dsmem) is "shared::cluster".
  static constexpr StateSpace kStateSpaces[] = {
      {ir::MemorySpace::Global, "global", PtxOpcode::LdGlobalU8, PtxOpcode::LdGlobalU16,
       PtxOpcode::LdGlobalU32, PtxOpcode::LdGlobalU64, PtxOpcode::LdGlobalF32,
       PtxOpcode::LdGlobalV2U32, PtxOpcode::LdGlobalV4U32, PtxOpcode::StGlobalB8,
       PtxOpcode::StGlobalB16, PtxOpcode::StGlobalB32, PtxOpcode::StGlobalB64,
       PtxOpcode::StGlobalF32, PtxOpcode::StGlobalV2B32, PtxOpcode::StGlobalV4B32},
      {ir::MemorySpace::Shared, "shared", PtxOpcode::LdSharedU8, PtxOpcode::LdSharedU16,
       PtxOpcode::LdSharedU32, PtxOpcode::LdSharedU64, PtxOpcode::LdSharedF32,
       PtxOpcode::LdSharedV2U32, PtxOpcode::LdSharedV4U32, PtxOpcode::StSharedB8,
       PtxOpcode::StSharedB16, PtxOpcode::StSharedB32, PtxOpcode::StSharedB64,
       PtxOpcode::StSharedF32, PtxOpcode::StSharedV2B32, PtxOpcode::StSharedV4B32},
      {ir::MemorySpace::ClusterShared, "shared::cluster", PtxOpcode::LdSharedClusterU8,
       PtxOpcode::LdSharedClusterU16, PtxOpcode::LdSharedClusterU32,
       PtxOpcode::LdSharedClusterU64, PtxOpcode::LdSharedClusterF32,
       PtxOpcode::LdSharedClusterV2U32, PtxOpcode::LdSharedClusterV4U32,
       PtxOpcode::StSharedClusterB8, PtxOpcode::StSharedClusterB16, PtxOpcode::StSharedClusterB32,
       PtxOpcode::StSharedClusterB64, PtxOpcode::StSharedClusterF32,
       PtxOpcode::StSharedClusterV2B32, PtxOpcode::StSharedClusterV4B32},
  };

  /// The width and PTX state space of a memory op.
  std::optional<std::pair<int64_t, const StateSpace *>> memoryAccess(const Operation &op) {
    const int64_t *bits = op.get(ir::attr::bits);
    const std::string *space = op.get(ir::attr::space);
    const StateSpace *ptxSpace = nullptr;
    for (const StateSpace &s : kStateSpaces)
      if (space && *space == ir::name(s.space))
        ptxSpace = &s;
    if (!ptxSpace) {
      fail(op, "only global and shared memory accesses are supported");
      return std::nullopt;
    }
    if (!bits || (*bits != 8 && *bits != 16 && *bits != 32 && *bits != 64)) {
      fail(op, "cannot access " + llvm::Twine(bits ? *bits : 0) + "-bit elements");
      return std::nullopt;
    }
    return std::pair(*bits, ptxSpace);
  }

  Value *memLoad(ir::Builder &b, const Operation &op, Value *address, DataType type) {
    auto access = memoryAccess(op);
    if (!access)
      return nullptr;
    auto [bits, space] = *access;
    PtxOpcode opcode = bits == 8               ? space->loadU8
                       : bits == 16            ? space->loadU16
                       : bits == 64            ? space->loadU64
                       : type == DataType::F32 ? space->loadF32
                                               : space->loadU32;
    return emitValue(b, op.loc(), opcode, machineType(type), {address});
  }

  /// `warp.shuffle {mode, clamp, offset}`: shfl.sync.<mode>.b32 over the
  /// full warp (member mask 0xffffffff), the offset an immediate or the
  /// run-time operand.
  Value *shuffle(ir::Builder &b, const Operation &op, llvm::ArrayRef<Value *> in, DataType type) {
    llvm::SMLoc loc = op.loc();
    const int64_t *offset = op.get<int64_t>(ir::attr::offset);
    // The mode's text spells the opcode: shfl.sync.bfly.b32.
    return emitValue(
        b, loc, ptx::opcodeNamed("shfl.sync." + *op.get(ir::attr::mode) + ".b32"),
        machineType(type),
        {in[0], offset ? immediate32(b, loc, *offset) : in[1],
         immediate32(b, loc, *op.get(ir::attr::clamp)), immediate32(b, loc, 0xFFFFFFFF)});
  }

  /// `nvgpu.stmatrix_words`/`ldmatrix_words {num, trans}`: stmatrix or
  /// ldmatrix .m8n8.x<num>[.trans].shared.b16 (sm_90 and sm_75 on, so both
  /// targets) of one row address and one word per matrix.
  Value *matrixCopy(ir::Builder &b, const Operation &op, llvm::ArrayRef<Value *> in) {
    bool store = op.kind() == OpKind::StmatrixWords;
    const int64_t *num = op.get(ir::attr::num);
    const bool *trans = op.get(ir::attr::trans);
    // x1, x2 and x4, each without and with .trans.
    static constexpr PtxOpcode kStmatrix[3][2] = {
        {PtxOpcode::StmatrixX1, PtxOpcode::StmatrixX1Trans},
        {PtxOpcode::StmatrixX2, PtxOpcode::StmatrixX2Trans},
        {PtxOpcode::StmatrixX4, PtxOpcode::StmatrixX4Trans}};
    static constexpr PtxOpcode kLdmatrix[3][2] = {
        {PtxOpcode::LdmatrixX1, PtxOpcode::LdmatrixX1Trans},
        {PtxOpcode::LdmatrixX2, PtxOpcode::LdmatrixX2Trans},
        {PtxOpcode::LdmatrixX4, PtxOpcode::LdmatrixX4Trans}};
    if (!num || !trans || (*num != 1 && *num != 2 && *num != 4)) {
      fail(op, "cannot select '" + ir::name(op.kind()) + "' of " + llvm::Twine(num ? *num : 0) +
                   " matrices");
      return nullptr;
    }
    llvm::SmallVector<DataType, 4> words(store ? 0 : *num, DataType::U32);
    unsigned form = llvm::Log2_64(uint64_t(*num));
    PtxOpcode opcode = (store ? kStmatrix : kLdmatrix)[form][*trans];
    Operation &inst = emitInst(b, op.loc(), opcode, words, in);
    return store ? nullptr : inst.result(0);
  }

  /// `ld`/`st` of N 32-bit words in global or shared memory: `ld.shared.u32`,
  /// `st.global.v4.b32`, and `st.global.v8.b32` where the target has it;
  /// none for other N.
  std::optional<PtxOpcode> wordsOpcode(bool store, const StateSpace &space, int64_t vector) const {
    switch (vector) {
    case 1:
      return store ? space.storeB32 : space.loadU32;
    case 2:
      return store ? space.storeV2 : space.loadV2;
    case 4:
      return store ? space.storeV4 : space.loadV4;
    case 8:
      if (store && space.space == ir::MemorySpace::Global && target.hasWideGlobalStores)
        return PtxOpcode::StGlobalV8B32;
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }

  /// `mem.load {bits = 32, vector = N}`: N u32 words in one access.
  bool memLoadWords(ir::Builder &b, Operation &op) {
    const int64_t *vector = op.get(ir::attr::vector);
    auto access = memoryAccess(op);
    if (!access)
      return false;
    auto [bits, space] = *access;
    std::optional<PtxOpcode> opcode = wordsOpcode(/*store=*/false, *space, *vector);
    if (bits != 32 || !opcode || op.results().size() != size_t(*vector))
      return fail(op, "cannot select a vector load of " + llvm::Twine(*vector) + " x " +
                          llvm::Twine(bits) + " bits from " + space->name + " memory");
    llvm::SmallVector<DataType, 4> types(*vector, DataType::U32);
    Operation &load = emitInst(b, op.loc(), *opcode, types, {lookup(op.operand(0))});
    for (size_t i = 0; i < op.results().size(); ++i)
      machine[op.result(i)] = load.result(i);
    dead.push_back(&op);
    return true;
  }

  /// `mem.store {bits = 32, vector = N}`: N u32 words in one access.
  void storeWords(ir::Builder &b, const Operation &op, llvm::ArrayRef<Value *> in,
                  int64_t vector) {
    auto access = memoryAccess(op);
    if (!access)
      return;
    std::optional<PtxOpcode> opcode = wordsOpcode(/*store=*/true, *access->second, vector);
    if (access->first != 32 || !opcode) {
      fail(op, "cannot select a vector store of " + llvm::Twine(vector) + " x " +
                   llvm::Twine(access->first) + " bits to " + access->second->name + " memory" +
                   (vector == 8 ? " on " + target.arch : ""));
      return;
    }
    emitInst(b, op.loc(), *opcode, {}, in);
  }

  void memStore(ir::Builder &b, const Operation &op, Value *address, Value *value, DataType type) {
    auto access = memoryAccess(op);
    if (!access)
      return;
    auto [bits, space] = *access;
    PtxOpcode opcode = bits == 8               ? space->storeB8
                       : bits == 16            ? space->storeB16
                       : bits == 64            ? space->storeB64
                       : type == DataType::F32 ? space->storeF32
                                               : space->storeB32;
    emitInst(b, op.loc(), opcode, {}, {address, value});
  }

  Operation &kernel;
  PassContext &context;
  const TargetFeatures &target;
  E2m1PairProducts e2m1Products;
  /// The divisions and remainders whose dividend is never negative, found
  /// before selection rewrites their operands.
  llvm::DenseSet<const Operation *> nonNegativeDividends;
  /// The atomics whose old value something reads (the others become red).
  llvm::DenseSet<const Operation *> readAtomics;
  /// warp_idx(), computed once at the kernel's entry (null when unused).
  Value *warpIndex = nullptr;
  llvm::DenseMap<Value *, Value *> machine;
  llvm::DenseMap<const Value *, DataType> retyped;
  std::vector<Operation *> dead;
};

class InstructionSelection : public Pass {
public:
  explicit InstructionSelection(llvm::StringRef arch) : arch(arch.str()) {}
  llvm::StringRef name() const override { return "isel"; }
  void run(Operation &kernel, PassContext &context) override {
    const TargetFeatures *target = findTargetFeatures(arch);
    if (!target)
      return context.error(kernel.loc(), "isel: unsupported target '" + arch + "'");
    recordSharedRegions(kernel);
    Selector(kernel, context, *target).run();
  }

  /// The named shared allocations (variables, pipeline barriers), which the
  /// emulation names in its diagnostics: "shared_region_bounds" holds
  /// (offset, bytes, element bytes) per region, "shared_region_names" their
  /// names, one per line.
  static void recordSharedRegions(Operation &kernel) {
    std::vector<IntTuple> bounds;
    std::string names;
    for (Operation *alloc : collect(kernel, OpKind::SmemAlloc)) {
      const std::string *attr = alloc->get(ir::attr::name);
      std::string name = attr ? *attr : alloc->result()->nameHint();
      if (name.empty())
        continue;
      const ir::Type &type = alloc->result()->type();
      int64_t elementBytes = std::max<int64_t>(1, ir::bitWidth(type.element()) / 8);
      int64_t bytes = (cosize(type.tensorLayout()).staticValue() * ir::bitWidth(type.element()) + 7) / 8;
      bounds.push_back(IntTuple::tuple({IntTuple(*alloc->get<int64_t>(ir::attr::offset)),
                                        IntTuple(bytes), IntTuple(elementBytes)}));
      std::replace(name.begin(), name.end(), '\n', ' ');
      names += name + "\n";
    }
    if (bounds.empty())
      return;
    kernel.set(ir::attr::sharedRegionBounds, IntTuple::tuple(std::move(bounds)));
    kernel.set(ir::attr::sharedRegionNames, names);
  }

private:
  std::string arch;
};

} // namespace

std::unique_ptr<Pass> createInstructionSelectionPass(llvm::StringRef arch) {
  return std::make_unique<InstructionSelection>(arch);
}

} // namespace cutec
