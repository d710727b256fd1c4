// A hand-built machine IR kernel that touches every syntax form of the
// printers: parameters, special registers, immediates, a loop with a carried
// f32, fp4 decoding through pack/unpack, a conditional, loads and stores.
#ifndef CUTEC_TESTS_CODEGEN_MACHINEKERNELS_H
#define CUTEC_TESTS_CODEGEN_MACHINEKERNELS_H

#include "target/ptx/MachineBuilder.h"

namespace cutec::test {

using namespace ir;
using ptx::emitInst;
using ptx::emitValue;
using ptx::PtxOpcode;

/// y[tid] = sum over i < n of decode(fp4 byte x[tid]) halves, as f32, plus
/// a branch: a kernel that touches every syntax form of the printer.
inline std::unique_ptr<Module> makeDecodeSumKernel() {
  auto module = std::make_unique<Module>();
  auto kernel = std::make_unique<Operation>(OpKind::Kernel, llvm::SMLoc());
  kernel->set(ir::attr::name, std::string("decode_sum"));
  kernel->set(ir::attr::block, tup(128, 1, 1));
  kernel->set(ir::attr::dynamicSizes, tup(IntExpr::symbol("n")));
  Block &entry = kernel->addRegion().addBlock();
  Layout vec(IntExpr::symbol("n"), 1);
  entry.addArgument(Type::tensor(DataType::F4E2M1, MemorySpace::Global, vec), "x");
  entry.addArgument(Type::tensor(DataType::F32, MemorySpace::Global, vec), "y");
  entry.addArgument(Type::scalar(DataType::I32), "n");
  Builder b(entry);
  llvm::SMLoc loc;
  Operation &px = emitInst(b, loc, PtxOpcode::LdParamU64, {DataType::U64});
  px.set(ir::attr::param, std::string("x"));
  Operation &py = emitInst(b, loc, PtxOpcode::LdParamU64, {DataType::U64});
  py.set(ir::attr::param, std::string("y"));
  Operation &pn = emitInst(b, loc, PtxOpcode::LdParamU32, {DataType::U32});
  pn.set(ir::attr::param, std::string("n"));
  Value *x = emitValue(b, loc, PtxOpcode::CvtaToGlobalU64, DataType::U64, {px.result()});
  Value *y = emitValue(b, loc, PtxOpcode::CvtaToGlobalU64, DataType::U64, {py.result()});
  Operation &tid = emitInst(b, loc, PtxOpcode::MovU32, {DataType::U32});
  tid.set(ir::attr::special, std::string("%tid.x"));
  Value *tid64 = emitValue(b, loc, PtxOpcode::CvtS64S32, DataType::U64, {tid.result()});
  Value *xAddr = emitValue(b, loc, PtxOpcode::AddS64, DataType::U64, {x, tid64});
  Operation &four = emitInst(b, loc, PtxOpcode::MovB64, {DataType::U64});
  four.set(ir::attr::imm, int64_t(4));
  Value *yAddr = emitValue(b, loc, PtxOpcode::MadLoS64, DataType::U64, {tid64, four.result(), y});

  Operation &zero = emitInst(b, loc, PtxOpcode::MovB32, {DataType::U32});
  zero.set(ir::attr::imm, int64_t(0));
  Operation &one = emitInst(b, loc, PtxOpcode::MovB32, {DataType::U32});
  one.set(ir::attr::imm, int64_t(1));
  Operation &acc0 = emitInst(b, loc, PtxOpcode::MovF32, {DataType::F32});
  acc0.set(ir::attr::imm, 0.0);
  Operation &loop = b.create(OpKind::For, loc,
                             {zero.result(), pn.result(), one.result(), acc0.result()},
                             {Type::scalar(DataType::F32)});
  Block &body = loop.addRegion().addBlock();
  body.addArgument(Type::scalar(DataType::U32), "i");
  Value *acc = body.addArgument(Type::scalar(DataType::F32), "acc");
  Builder lb(body);
  Operation &byte = emitInst(lb, loc, PtxOpcode::LdGlobalU8, {DataType::U16}, {xAddr});
  byte.set(ir::attr::offset, int64_t(0));
  Operation &bytes =
      emitInst(lb, loc, PtxOpcode::MovB16Unpack, {DataType::U8, DataType::U8}, {byte.result()});
  Value *halves = emitValue(lb, loc, PtxOpcode::CvtRnF16x2E2m1x2, DataType::U32, {bytes.result(0)});
  Operation &split =
      emitInst(lb, loc, PtxOpcode::MovB32Unpack, {DataType::F16, DataType::F16}, {halves});
  Value *lo = emitValue(lb, loc, PtxOpcode::CvtF32F16, DataType::F32, {split.result(0)});
  Value *hi = emitValue(lb, loc, PtxOpcode::CvtF32F16, DataType::F32, {split.result(1)});
  Value *sum = emitValue(lb, loc, PtxOpcode::AddRnF32, DataType::F32, {lo, hi});
  Value *next = emitValue(lb, loc, PtxOpcode::FmaRnF32, DataType::F32, {sum, sum, acc});
  lb.create(OpKind::Yield, loc, {next});

  Value *positive =
      emitValue(b, loc, PtxOpcode::SetpLtF32, DataType::Bool, {acc0.result(), loop.result()});
  Operation &branch = b.create(OpKind::If, loc, {positive}, {Type::scalar(DataType::F32)});
  Builder tb(branch.addRegion().addBlock());
  tb.create(OpKind::Yield, loc, {loop.result()});
  Builder eb(branch.addRegion().addBlock());
  eb.create(OpKind::Yield, loc,
            {emitValue(eb, loc, PtxOpcode::NegF32, DataType::F32, {loop.result()})});
  Operation &store = emitInst(b, loc, PtxOpcode::StGlobalF32, {}, {yAddr, branch.result()});
  store.set(ir::attr::offset, int64_t(0));
  b.create(OpKind::Return, loc);
  module->kernels().push_back(std::move(kernel));
  return module;
}

} // namespace cutec::test

#endif
