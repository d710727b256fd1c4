// Dispatch of built-in calls through the table (frontend/Builtins.def) to
// the IRGen domain each row names (frontend/irgen/): NOT_CALLABLE rows, and
// rows whose arguments the generic signature check binds (positionally or
// by keyword) before their handler runs.
#include "SemaTestUtil.h"

#include "frontend/Builtins.h"

#include <gtest/gtest.h>

namespace cutec::test {
namespace {

/// The first error of a kernel whose body is the one statement `stmt`.
std::string kernelErrors(llvm::StringRef stmt) {
  return firstError(build("@kernel(block=128, grid=1)\ndef k(a: Tensor[f32, (128,):(1,)]):\n    " +
                          stmt.str() + "\n"));
}

TEST(BuiltinDispatch, EveryRowHasAHandlerOrAnOp) {
  for (const BuiltinInfo &row : builtinTable()) {
    EXPECT_EQ(row.handler == nullptr, row.op != ir::OpKind::Kernel) << row.spelling.str();
    if (row.notCallable) {
      EXPECT_NE(row.handler, nullptr) << row.spelling.str();
      EXPECT_TRUE(row.signature.unchecked) << row.spelling.str();
    }
  }
}

TEST(BuiltinDispatch, NotCallableRowsListTheirValuesOrConstructors) {
  EXPECT_EQ(kernelErrors("x = CtaGroup()"),
            "CtaGroup is not a function: its values are CtaGroup.ONE and CtaGroup.TWO");
  EXPECT_EQ(kernelErrors("x = CtaGroup.TWO()"), "CtaGroup.TWO is not a function: it is a value");
  EXPECT_EQ(kernelErrors("x = PipelineAsync()"),
            "PipelineAsync is not a function: make one with PipelineAsync.create(...)");
}

TEST(BuiltinDispatch, CheckedRowsBindPositionalArgumentsByKeyword) {
  EXPECT_EQ(kernelErrors("n = size(x=(4, 8))"), "");
  EXPECT_EQ(kernelErrors("f = make_rmem_tensor(dtype=f32, shape=(4,))"), "");
  EXPECT_EQ(kernelErrors("n = size((4, 8), 1)"),
            "wrong number of arguments: 'size' takes 1 argument, got 2");
  EXPECT_EQ(kernelErrors("f = make_rmem_tensor((4,))"),
            "wrong number of arguments: 'make_rmem_tensor' takes 2 arguments, got 1");
  EXPECT_EQ(kernelErrors("f = make_rmem_tensor(dtype=4, shape=(4,))"),
            "make_rmem_tensor needs an element type, not the integer 4");
}

} // namespace
} // namespace cutec::test
