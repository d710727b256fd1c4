// ir::materialize: symbolic sizes become i32 arithmetic over the values of
// the dynamic sizes.
#include "ir/core/Materialize.h"
#include "ir/core/Printer.h"

#include <gtest/gtest.h>

namespace cutec::ir {
namespace {

std::string materialized(const IntExpr &e) {
  Operation kernel(OpKind::Kernel, {});
  kernel.set(ir::attr::name, std::string("k"));
  Block &body = kernel.addRegion().addBlock();
  llvm::StringMap<Value *> sizes;
  for (const char *name : {"M", "K"})
    sizes[name] = body.addArgument(Type::scalar(DataType::I32), name);
  Builder b(body);
  Value *v = materialize(b, {}, e, [&](llvm::StringRef s) { return sizes.lookup(s); });
  if (!v)
    return "<null>";
  b.create(OpKind::Yield, {}, {v});
  std::string text = toString(kernel);
  return llvm::StringRef(text).split('\n').second.split('\n').second.str();
}

TEST(Materialize, CeilDivMinModAndCanonicalSums) {
  IntExpr m = IntExpr::symbol("M"), k = IntExpr::symbol("K");
  EXPECT_EQ(materialized(ceilDiv(k, 64)), "  %0 = arith.constant {value = 64} : i32\n"
                                          "  %1 = arith.constant {value = 63} : i32\n"
                                          "  %2 = arith.add %K, %1 : i32\n"
                                          "  %3 = arith.div %2, %0 : i32\n"
                                          "  yield %3\n"
                                          "}\n");
  EXPECT_EQ(materialized(min(m, k)), "  %0 = arith.cmp %K, %M {predicate = \"lt\"} : bool\n"
                                     "  %1 = arith.select %0, %K, %M : i32\n"
                                     "  yield %1\n"
                                     "}\n");
  EXPECT_EQ(materialized(m * k * 128 + 3), "  %0 = arith.mul %K, %M : i32\n"
                                           "  %1 = arith.constant {value = 128} : i32\n"
                                           "  %2 = arith.mul %0, %1 : i32\n"
                                           "  %3 = arith.constant {value = 3} : i32\n"
                                           "  %4 = arith.add %2, %3 : i32\n"
                                           "  yield %4\n"
                                           "}\n");
  EXPECT_EQ(materialized(m % 32), "  %0 = arith.constant {value = 32} : i32\n"
                                  "  %1 = arith.rem %M, %0 : i32\n"
                                  "  yield %1\n"
                                  "}\n");
  EXPECT_EQ(materialized(IntExpr(7)), "  %0 = arith.constant {value = 7} : i32\n"
                                      "  yield %0\n"
                                      "}\n");
  EXPECT_EQ(materialized(IntExpr::symbol("N") + 1), "<null>");
}

} // namespace
} // namespace cutec::ir
