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

/// y[tid] = sum over i < n of decode(fp4 byte x[tid]) halves, as f32, plus
/// a branch: a kernel that touches every syntax form of the printer.
inline std::unique_ptr<Module> makeDecodeSumKernel() {
  auto module = std::make_unique<Module>();
  auto kernel = std::make_unique<Operation>(OpKind::Kernel, llvm::SMLoc());
  kernel->setAttr("name", std::string("decode_sum"));
  kernel->setAttr("block", tup(128, 1, 1));
  kernel->setAttr("dynamic_sizes", tup(IntExpr::symbol("n")));
  Block &entry = kernel->addRegion().addBlock();
  Layout vec(IntExpr::symbol("n"), 1);
  entry.addArgument(Type::tensor(DataType::F4E2M1, MemorySpace::Global, vec), "x");
  entry.addArgument(Type::tensor(DataType::F32, MemorySpace::Global, vec), "y");
  entry.addArgument(Type::scalar(DataType::I32), "n");
  Builder b(entry);
  llvm::SMLoc loc;
  Operation &px = emitInst(b, loc, "ld.param.u64", {DataType::U64});
  px.setAttr("param", std::string("x"));
  Operation &py = emitInst(b, loc, "ld.param.u64", {DataType::U64});
  py.setAttr("param", std::string("y"));
  Operation &pn = emitInst(b, loc, "ld.param.u32", {DataType::U32});
  pn.setAttr("param", std::string("n"));
  Value *x = emitValue(b, loc, "cvta.to.global.u64", DataType::U64, {px.result()});
  Value *y = emitValue(b, loc, "cvta.to.global.u64", DataType::U64, {py.result()});
  Operation &tid = emitInst(b, loc, "mov.u32", {DataType::U32});
  tid.setAttr("special", std::string("%tid.x"));
  Value *tid64 = emitValue(b, loc, "cvt.s64.s32", DataType::U64, {tid.result()});
  Value *xAddr = emitValue(b, loc, "add.s64", DataType::U64, {x, tid64});
  Operation &four = emitInst(b, loc, "mov.b64", {DataType::U64});
  four.setAttr("imm", int64_t(4));
  Value *yAddr = emitValue(b, loc, "mad.lo.s64", DataType::U64, {tid64, four.result(), y});

  Operation &zero = emitInst(b, loc, "mov.b32", {DataType::U32});
  zero.setAttr("imm", int64_t(0));
  Operation &one = emitInst(b, loc, "mov.b32", {DataType::U32});
  one.setAttr("imm", int64_t(1));
  Operation &acc0 = emitInst(b, loc, "mov.f32", {DataType::F32});
  acc0.setAttr("imm", 0.0);
  Operation &loop = b.create(OpKind::For, loc,
                             {zero.result(), pn.result(), one.result(), acc0.result()},
                             {Type::scalar(DataType::F32)});
  Block &body = loop.addRegion().addBlock();
  body.addArgument(Type::scalar(DataType::U32), "i");
  Value *acc = body.addArgument(Type::scalar(DataType::F32), "acc");
  Builder lb(body);
  Operation &byte = emitInst(lb, loc, "ld.global.u8", {DataType::U16}, {xAddr});
  byte.setAttr("offset", int64_t(0));
  Operation &bytes = emitInst(lb, loc, "mov.b16.unpack", {DataType::U8, DataType::U8},
                              {byte.result()});
  Value *halves = emitValue(lb, loc, "cvt.rn.f16x2.e2m1x2", DataType::U32, {bytes.result(0)});
  Operation &split = emitInst(lb, loc, "mov.b32.unpack", {DataType::F16, DataType::F16}, {halves});
  Value *lo = emitValue(lb, loc, "cvt.f32.f16", DataType::F32, {split.result(0)});
  Value *hi = emitValue(lb, loc, "cvt.f32.f16", DataType::F32, {split.result(1)});
  Value *sum = emitValue(lb, loc, "add.rn.f32", DataType::F32, {lo, hi});
  Value *next = emitValue(lb, loc, "fma.rn.f32", DataType::F32, {sum, sum, acc});
  lb.create(OpKind::Yield, loc, {next});

  Value *positive = emitValue(b, loc, "setp.lt.f32", DataType::Bool, {acc0.result(), loop.result()});
  Operation &branch = b.create(OpKind::If, loc, {positive}, {Type::scalar(DataType::F32)});
  Builder tb(branch.addRegion().addBlock());
  tb.create(OpKind::Yield, loc, {loop.result()});
  Builder eb(branch.addRegion().addBlock());
  eb.create(OpKind::Yield, loc, {emitValue(eb, loc, "neg.f32", DataType::F32, {loop.result()})});
  Operation &store = emitInst(b, loc, "st.global.f32", {}, {yAddr, branch.result()});
  store.setAttr("offset", int64_t(0));
  b.create(OpKind::Return, loc);
  module->kernels().push_back(std::move(kernel));
  return module;
}

} // namespace cutec::test

#endif
