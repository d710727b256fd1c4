// Builds the small kernels the IR tests print, verify and transform.
#ifndef CUTEC_TESTS_IR_IRTESTUTIL_H
#define CUTEC_TESTS_IR_IRTESTUTIL_H

#include "ir/core/Builder.h"

namespace cutec::ir::test {

/// kernel @sum(%n: i32): s = 0; for i in range(n): s += i; return.
inline std::unique_ptr<Operation> makeSumKernel() {
  auto kernel = std::make_unique<Operation>(OpKind::Kernel, llvm::SMLoc());
  kernel->setAttr("name", std::string("sum"));
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

} // namespace cutec::ir::test

#endif
