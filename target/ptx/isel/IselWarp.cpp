//===- IselWarp.cpp - isel of warp specialisation -------------------------===//
#include "target/ptx/isel/IselWarp.h"

#include "target/ptx/MachineBuilder.h"

namespace cutec {

using ir::DataType;
using ir::OpKind;
using ptx::emitImmediate;
using ptx::emitInst;
using ptx::emitValue;
using ptx::PtxOpcode;

bool isWarpOp(OpKind kind) {
  switch (kind) {
  case OpKind::ElectOne:
  case OpKind::WarpSync:
  case OpKind::BarrierArrive:
  case OpKind::SetMaxNRegInc:
  case OpKind::SetMaxNRegDec:
    return true;
  default:
    return false;
  }
}

static ir::Value *specialRegister(ir::Builder &b, llvm::SMLoc loc, const char *name) {
  ir::Operation &mov = emitInst(b, loc, PtxOpcode::MovU32, {DataType::U32});
  mov.set(ir::attr::special, std::string(name));
  return mov.result();
}

/// An instruction whose operands are immediates (`bar.sync 1, 128`).
static ir::Operation &immediates(ir::Builder &b, llvm::SMLoc loc, PtxOpcode opcode,
                                 std::vector<IntTuple> values,
                                 llvm::ArrayRef<DataType> results = {}) {
  ir::Operation &inst = emitInst(b, loc, opcode, results);
  inst.set(ir::attr::imms, IntTuple::tuple(std::move(values)));
  return inst;
}

ir::Value *selectWarp(ir::Builder &b, const ir::Operation &op) {
  llvm::SMLoc loc = op.loc();
  switch (op.kind()) {
  case OpKind::ElectOne:
    return immediates(b, loc, PtxOpcode::ElectSync, {IntTuple(int64_t{0xFFFFFFFF})},
                      {DataType::Bool})
        .result();
  case OpKind::WarpSync:
    immediates(b, loc, PtxOpcode::BarWarpSync, {IntTuple(int64_t{0xFFFFFFFF})});
    return nullptr;
  case OpKind::BarrierArrive:
    immediates(
        b, loc, PtxOpcode::BarArrive,
        {IntTuple(*op.get(ir::attr::barrier)), IntTuple(*op.get(ir::attr::threads))});
    return nullptr;
  case OpKind::SetMaxNRegInc:
  case OpKind::SetMaxNRegDec:
    immediates(b, loc,
               op.kind() == OpKind::SetMaxNRegInc ? PtxOpcode::SetmaxnregInc
                                                  : PtxOpcode::SetmaxnregDec,
               {IntTuple(*op.get(ir::attr::regCount))});
    return nullptr;
  default:
    return nullptr;
  }
}

bool planRegisters(ir::Operation &kernel, PassContext &context) {
  std::vector<ir::Operation *> incs = ir::collect(kernel, OpKind::SetMaxNRegInc);
  std::vector<ir::Operation *> decs = ir::collect(kernel, OpKind::SetMaxNRegDec);
  if (incs.empty() && decs.empty())
    return true;
  const IntTuple &block = *kernel.get(ir::attr::block);
  int64_t threads = 1;
  for (const IntTuple &extent : block.elements())
    threads *= extent.leaf().staticValue();
  int64_t count = 65536 / ((threads + 127) / 128 * 128) / 8 * 8;
  if (!incs.empty()) {
    int64_t largest = 0;
    for (const ir::Operation *inc : incs)
      largest = std::max(largest, *inc->get(ir::attr::regCount));
    count = std::min(count, largest);
  }
  count = std::min<int64_t>(count, 256);
  kernel.set(ir::attr::maxRegisters, count);
  bool ok = true;
  for (const ir::Operation *dec : decs)
    if (int64_t to = *dec->get(ir::attr::regCount); to > count) {
      context.error(dec->loc(), "isel: setmaxnreg.dec to " + llvm::Twine(to) +
                                    " registers per thread, but the kernel's warps start with " +
                                    llvm::Twine(count) +
                                    " (.maxnreg): a .dec must not raise the count");
      ok = false;
    }
  return ok;
}

ir::Value *warpIndexAtEntry(ir::Builder &b, llvm::SMLoc loc, const IntTuple &block) {
  int64_t extent[3] = {block[0].leaf().staticValue(), block[1].leaf().staticValue(),
                       block[2].leaf().staticValue()};
  // tid.x + ntid.x * (tid.y + ntid.y * tid.z)
  ir::Value *linear = nullptr;
  for (int d = 2; d >= 0; --d) {
    if (extent[d] == 1 && d > 0)
      continue;
    ir::Value *tid = specialRegister(b, loc, d == 0 ? "%tid.x" : d == 1 ? "%tid.y" : "%tid.z");
    linear = !linear ? tid
                     : emitValue(b, loc, PtxOpcode::MadLoS32, DataType::U32,
                                 {linear, emitImmediate(b, loc, DataType::U32, extent[d]), tid});
  }
  ir::Value *warp = emitValue(b, loc, PtxOpcode::ShrU32, DataType::U32,
                              {linear, emitImmediate(b, loc, DataType::U32, 5)});
  if ((extent[0] * extent[1] * extent[2]) % 32 != 0)
    return warp;
  return emitValue(b, loc, PtxOpcode::ShflSyncIdxB32, DataType::U32,
                   {warp, emitImmediate(b, loc, DataType::U32, 0),
                    emitImmediate(b, loc, DataType::U32, 0x1f),
                    emitImmediate(b, loc, DataType::U32, 0xFFFFFFFF)});
}

} // namespace cutec
