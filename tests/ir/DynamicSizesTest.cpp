// Which kernel argument carries each dynamic size (ir/core/DynamicSizes.h),
// and the argument kinds that follow from it (ir/core/KernelArguments.h).
#include "ir/core/DynamicSizes.h"
#include "ir/core/Builder.h"
#include "ir/core/KernelArguments.h"

#include <gtest/gtest.h>

namespace cutec::ir {
namespace {

/// kernel(a: tensor, M: i32, n: i32, K: i32) with dynamic_sizes = (M, K, L):
/// sizes among the parameters, a scalar between them, and a size L that no
/// argument carries.
std::unique_ptr<Operation> makeKernel() {
  auto kernel = std::make_unique<Operation>(OpKind::Kernel, llvm::SMLoc());
  kernel->set(ir::attr::name, std::string("sizes"));
  Block &entry = kernel->addRegion().addBlock();
  Type i32 = Type::scalar(DataType::I32);
  entry.addArgument(Type::tensor(DataType::F16, MemorySpace::Global, Layout(8, 1)), "a");
  entry.addArgument(i32, "M");
  entry.addArgument(i32, "n");
  entry.addArgument(i32, "K");
  kernel->set(ir::attr::dynamicSizes, IntTuple::tuple({IntTuple(IntExpr::symbol("M")), IntTuple(IntExpr::symbol("K")),
                                   IntTuple(IntExpr::symbol("L"))}));
  Builder(entry).create(OpKind::Return, llvm::SMLoc());
  return kernel;
}

TEST(DynamicSizes, NamesInParameterOrder) {
  EXPECT_EQ(dynamicSizeNames(*makeKernel()), (std::vector<std::string>{"M", "K", "L"}));
}

TEST(DynamicSizes, SizeToArgument) {
  auto kernel = makeKernel();
  DynamicSizeArguments sizes(*kernel);
  EXPECT_EQ(sizes.argumentOf("M"), 1u);
  EXPECT_EQ(sizes.argumentOf("K"), 3u);
  EXPECT_EQ(sizes.argumentOf("L"), std::nullopt); // no argument carries it
  EXPECT_EQ(sizes.argumentOf("n"), std::nullopt); // a scalar parameter
  EXPECT_EQ(sizes.argumentOf("a"), std::nullopt);
}

TEST(DynamicSizes, ArgumentToSize) {
  auto kernel = makeKernel();
  DynamicSizeArguments sizes(*kernel);
  ASSERT_NE(sizes.sizeAt(1), nullptr);
  EXPECT_EQ(*sizes.sizeAt(1), "M");
  ASSERT_NE(sizes.sizeAt(3), nullptr);
  EXPECT_EQ(*sizes.sizeAt(3), "K");
  EXPECT_EQ(sizes.sizeAt(0), nullptr);
  EXPECT_EQ(sizes.sizeAt(2), nullptr);
  EXPECT_EQ(sizes.sizeAt(4), nullptr);
}

TEST(DynamicSizes, ArgumentKindsFollow) {
  auto kernel = makeKernel();
  const Block &entry = kernel->regions()[0]->front();
  EXPECT_EQ(argumentKind(*kernel, *entry.argument(0)), ArgumentKind::Tensor);
  EXPECT_EQ(argumentKind(*kernel, *entry.argument(1)), ArgumentKind::DynamicSize);
  EXPECT_EQ(argumentKind(*kernel, *entry.argument(2)), ArgumentKind::Scalar);
  EXPECT_EQ(argumentKind(*kernel, *entry.argument(3)), ArgumentKind::DynamicSize);
  EXPECT_EQ(scalarParameterNames(*kernel), (std::vector<std::string>{"n"}));
}

TEST(DynamicSizes, OnlyAScalarCarriesASize) {
  // A tensor that bears a size's name does not carry it.
  auto kernel = std::make_unique<Operation>(OpKind::Kernel, llvm::SMLoc());
  Block &entry = kernel->addRegion().addBlock();
  entry.addArgument(Type::tensor(DataType::F16, MemorySpace::Global, Layout(8, 1)), "M");
  entry.addArgument(Type::scalar(DataType::I32), "M");
  kernel->set(ir::attr::dynamicSizes, IntTuple::tuple({IntTuple(IntExpr::symbol("M"))}));
  EXPECT_EQ(DynamicSizeArguments(*kernel).argumentOf("M"), 1u);
}

} // namespace
} // namespace cutec::ir
