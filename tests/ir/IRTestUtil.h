// Builds the small kernels the IR tests print, verify and transform.
#ifndef CUTEC_TESTS_IR_IRTESTUTIL_H
#define CUTEC_TESTS_IR_IRTESTUTIL_H

#include "ir/core/Builder.h"

namespace cutec::ir::test {

/// kernel @sum(%n: i32): s = 0; for i in range(n): s += i; return.
inline std::unique_ptr<Operation> makeSumKernel() {
  auto kernel = std::make_unique<Operation>(OpKind::Kernel, llvm::SMLoc());
  kernel->set(ir::attr::name, std::string("sum"));
  Block &body = kernel->addRegion().addBlock();
  Value *n = body.addArgument(Type::scalar(DataType::I32), "n");
  Builder b(body);
  Value *zero = b.constantInt({}, DataType::I32, 0);
  Value *one = b.constantInt({}, DataType::I32, 1);
  Operation &loop = b.create(OpKind::For, {}, {zero, n, one, zero}, {Type::scalar(DataType::I32)});
  Block &loopBody = loop.addRegion().addBlock();
  Value *i = loopBody.addArgument(Type::scalar(DataType::I32), "i");
  Value *acc = loopBody.addArgument(Type::scalar(DataType::I32), "acc");
  Builder inner(loopBody);
  Value *next = inner.createValue(OpKind::Add, {}, Type::scalar(DataType::I32), {acc, i});
  inner.create(OpKind::Yield, {}, {next});
  b.create(OpKind::Return, {});
  return kernel;
}

/// kernel @halve(%n: i32): steps = 0; while n > 1: n /= 2; steps += 1.
inline std::unique_ptr<Operation> makeHalvingKernel() {
  auto kernel = std::make_unique<Operation>(OpKind::Kernel, llvm::SMLoc());
  kernel->set(ir::attr::name, std::string("halve"));
  Block &body = kernel->addRegion().addBlock();
  Type i32 = Type::scalar(DataType::I32);
  Value *n = body.addArgument(i32, "n");
  Builder b(body);
  Value *zero = b.constantInt({}, DataType::I32, 0);
  Operation &loop = b.create(OpKind::While, {}, {n, zero}, {i32, i32});
  Block &before = loop.addRegion().addBlock();
  Value *m = before.addArgument(i32, "m");
  Value *steps = before.addArgument(i32, "steps");
  Builder head(before);
  Operation &cmp = head.create(OpKind::Cmp, {}, {m, head.constantInt({}, DataType::I32, 1)},
                               {Type::scalar(DataType::Bool)});
  cmp.set(ir::attr::predicate, std::string("gt"));
  head.create(OpKind::Condition, {}, {cmp.result(), m, steps});
  Block &after = loop.addRegion().addBlock();
  Value *m2 = after.addArgument(i32, "m");
  Value *steps2 = after.addArgument(i32, "steps");
  Builder inner(after);
  Value *two = inner.constantInt({}, DataType::I32, 2);
  Value *one = inner.constantInt({}, DataType::I32, 1);
  inner.create(OpKind::Yield, {},
               {inner.createValue(OpKind::Div, {}, i32, {m2, two}),
                inner.createValue(OpKind::Add, {}, i32, {steps2, one})});
  b.create(OpKind::Return, {});
  return kernel;
}

} // namespace cutec::ir::test

#endif
