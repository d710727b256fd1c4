// The textual form: generic ops, attributes, regions, names.
#include "IRTestUtil.h"

#include "ir/core/Printer.h"

#include <gtest/gtest.h>

namespace cutec::ir {
namespace {

TEST(IRPrinter, PrintsRegionsBlockArgumentsAndNames) {
  auto kernel = test::makeSumKernel();
  EXPECT_EQ(toString(*kernel), "kernel {name = \"sum\"} {\n"
                               "^bb(%n: i32):\n"
                               "  %0 = arith.constant {value = 0} : i32\n"
                               "  %1 = arith.constant {value = 1} : i32\n"
                               "  %2 = for %0, %n, %1, %0 : i32 {\n"
                               "  ^bb(%i: i32, %acc: i32):\n"
                               "    %3 = arith.add %acc, %i : i32\n"
                               "    yield %3\n"
                               "  }\n"
                               "  return\n"
                               "}\n");
}

TEST(IRPrinter, TypesAndAttributes) {
  Layout l(tup(IntExpr::symbol("M"), 64), tup(64, 1));
  EXPECT_EQ(Type::tensor(DataType::F4E2M1, MemorySpace::Global, l).str(),
            "tensor<f4e2m1, gmem, (M,64):(64,1)>");
  EXPECT_EQ(str(Attribute(2.0)), "2.0");
  EXPECT_EQ(str(Attribute(0.5)), "0.5");
  EXPECT_EQ(str(Attribute(std::string("sm_100a"))), "\"sm_100a\"");
  EXPECT_EQ(str(Attribute(tup(1, 2))), "(1,2)");
}

TEST(IRPrinter, DuplicateNameHintsGetSuffixes) {
  Operation kernel(OpKind::Kernel, {});
  kernel.set(ir::attr::name, std::string("k"));
  Block &body = kernel.addRegion().addBlock();
  Builder b(body);
  Value *x = b.constantInt({}, DataType::I32, 1);
  x->setNameHint("x");
  Value *y = b.constantInt({}, DataType::I32, 2);
  y->setNameHint("x");
  b.create(OpKind::Return, {});
  std::string text = toString(kernel);
  EXPECT_NE(text.find("%x = arith.constant"), std::string::npos);
  EXPECT_NE(text.find("%x_1 = arith.constant"), std::string::npos);
}

} // namespace
} // namespace cutec::ir
