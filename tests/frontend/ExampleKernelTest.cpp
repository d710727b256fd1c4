// The seed-004 NVFP4 GEMV kernel, written in the kernel language, parses
// without diagnostics to the expected tree (inputs/nvfp4_gemv.ast, a golden
// file; regenerate it with CUTEC_UPDATE_GOLDEN=1 and review the diff).
#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace {

std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

TEST(ExampleKernelTest, Nvfp4GemvMatchesGoldenDump) {
  const std::string inputs = CUTEC_FRONTEND_INPUTS;
  std::string source = readFile(inputs + "/nvfp4_gemv.cute");
  ASSERT_FALSE(source.empty());
  cutec::test::SourceFixture fixture(source, "nvfp4_gemv.cute");
  auto module = cutec::parseModule(fixture.sourceMgr, fixture.bufferId, fixture.diags);
  EXPECT_EQ(fixture.diagText, "");
  std::string dump = cutec::dumpAST(*module, fixture.sourceMgr);
  if (std::getenv("CUTEC_UPDATE_GOLDEN"))
    std::ofstream(inputs + "/nvfp4_gemv.ast", std::ios::binary) << dump;
  EXPECT_EQ(dump, readFile(inputs + "/nvfp4_gemv.ast"));
}

TEST(ExampleKernelTest, Nvfp4GemvShape) {
  std::string source = readFile(std::string(CUTEC_FRONTEND_INPUTS) + "/nvfp4_gemv.cute");
  cutec::test::SourceFixture fixture(source);
  auto module = cutec::parseModule(fixture.sourceMgr, fixture.bufferId, fixture.diags);
  const cutec::ast::Block &body = module->getBody();
  ASSERT_EQ(body.size(), 5u);
  const auto *kernel = llvm::dyn_cast<cutec::ast::FunctionDef>(body.back().get());
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->getName(), "nvfp4_gemv");
  EXPECT_EQ(kernel->getDecorators().size(), 1u);
  EXPECT_EQ(kernel->getParams().size(), 5u);
  // The first parameter's type carries the layout (M, K, L):(K, 1, M*K).
  const auto *type =
      llvm::dyn_cast<cutec::ast::SubscriptExpr>(kernel->getParams()[0]->getAnnotation());
  ASSERT_NE(type, nullptr);
  ASSERT_EQ(type->getIndices().size(), 2u);
  EXPECT_TRUE(llvm::isa<cutec::ast::LayoutExpr>(*type->getIndices()[1]));
  // The reduction is the last statement of the inner loop.
  const auto *loop = llvm::dyn_cast<cutec::ast::ForStmt>(kernel->getBody()[8].get());
  ASSERT_NE(loop, nullptr);
  const auto *inner = llvm::dyn_cast<cutec::ast::ForStmt>(loop->getBody().back().get());
  ASSERT_NE(inner, nullptr);
  EXPECT_TRUE(llvm::isa<cutec::ast::AugAssignStmt>(*inner->getBody().front()));
}

} // namespace
