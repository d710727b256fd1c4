// --emit=cubin's choice of assembler: ptxas, or nvJitLink when there is no
// ptxas or -Xnvjitlink asks for it; the options each gets; the cache key.
#include "codegen/cubin/CubinAssembler.h"

#include "TestKernels.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

using test::errorOf;
using test::kEmptyKernel;
using test::ScopedEnv;

bool havePtxas() { return llvm::sys::fs::can_execute(CUTEC_PTXAS); }

CubinRequest request(std::vector<std::string> ptxasOptions = {},
                     std::vector<std::string> nvJitLinkOptions = {}, bool lineInfo = false) {
  CubinRequest r;
  r.arch = "sm_100a";
  r.lineInfo = lineInfo;
  r.ptxasOptions = std::move(ptxasOptions);
  r.nvJitLinkOptions = std::move(nvJitLinkOptions);
  return r;
}

TEST(CubinAssembler, PtxasWhenThereIsOne) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas at " CUTEC_PTXAS;
  ScopedEnv env("CUTEC_PTXAS", CUTEC_PTXAS);
  auto assembler = CubinAssembler::choose(request());
  ASSERT_TRUE(bool(assembler)) << errorOf(assembler.takeError());
  EXPECT_TRUE(assembler->usesPtxas());
  EXPECT_EQ(assembler->name(), "ptxas");
  EXPECT_EQ(assembler->fallbackWarning(), "");
  if (llvm::Error e = assembler->load())
    FAIL() << errorOf(std::move(e));
  auto cubin = assembler->assemble(kEmptyKernel);
  ASSERT_TRUE(bool(cubin)) << errorOf(cubin.takeError());
  EXPECT_TRUE(test::isCubinFor(cubin->bytes, 100));
}

TEST(CubinAssembler, NvJitLinkWhenAskedOrWhenCutecPtxasIsEmpty) {
  ScopedEnv env("CUTEC_PTXAS", CUTEC_PTXAS);
  auto asked = CubinAssembler::choose(request({}, {"-O3"}));
  ASSERT_TRUE(bool(asked)) << errorOf(asked.takeError());
  EXPECT_FALSE(asked->usesPtxas());
  EXPECT_EQ(asked->name(), "nvJitLink");
  EXPECT_EQ(asked->fallbackWarning(), "");

  ScopedEnv empty("CUTEC_PTXAS", "");
  auto none = CubinAssembler::choose(request());
  ASSERT_TRUE(bool(none)) << errorOf(none.takeError());
  EXPECT_FALSE(none->usesPtxas());
  // Chosen, so no warning that the cubin is not ptxas's.
  EXPECT_EQ(none->fallbackWarning(), "");
}

TEST(CubinAssembler, WithoutPtxasNvJitLinkStandsInAndCutecWarns) {
  PtxasPlaces nowhere;
  nowhere.candidates = {"/nonexistent/ptxas"};
  nowhere.searchPath = false;
  auto assembler = CubinAssembler::choose(request(), nowhere);
  ASSERT_TRUE(bool(assembler)) << errorOf(assembler.takeError());
  EXPECT_FALSE(assembler->usesPtxas());
  EXPECT_EQ(assembler->fallbackWarning().rfind(
                "no ptxas (tried /nonexistent/ptxas; set CUTEC_PTXAS to its path): assembling "
                "with nvJitLink, whose cubin is not ptxas's",
                0),
            0u)
      << assembler->fallbackWarning();

  ScopedEnv library("CUTEC_NVJITLINK", "/nonexistent/libnvJitLink.so.13");
  std::string message = errorOf(assembler->load());
  EXPECT_EQ(message.rfind("--emit=cubin found no ptxas (tried /nonexistent/ptxas; set "
                          "CUTEC_PTXAS to its path) and cannot fall back on nvJitLink: ",
                          0),
            0u)
      << message;
}

TEST(CubinAssembler, ABadCutecPtxasIsAnError) {
  ScopedEnv env("CUTEC_PTXAS", "/nonexistent/ptxas");
  auto assembler = CubinAssembler::choose(request());
  ASSERT_FALSE(bool(assembler));
  EXPECT_NE(errorOf(assembler.takeError()).find("CUTEC_PTXAS names '/nonexistent/ptxas'"),
            std::string::npos);
}

TEST(CubinAssembler, LoadSaysWhyNvJitLinkWasChosen) {
  ScopedEnv ptxas("CUTEC_PTXAS", "");
  ScopedEnv library("CUTEC_NVJITLINK", "/nonexistent/libnvJitLink.so.13");
  auto fallback = CubinAssembler::choose(request());
  ASSERT_TRUE(bool(fallback)) << errorOf(fallback.takeError());
  std::string message = errorOf(fallback->load());
  EXPECT_EQ(message.rfind("--emit=cubin found no ptxas (CUTEC_PTXAS is empty) and cannot fall "
                          "back on nvJitLink: ",
                          0),
            0u)
      << message;

  auto asked = CubinAssembler::choose(request({}, {"-O3"}));
  ASSERT_TRUE(bool(asked)) << errorOf(asked.takeError());
  message = errorOf(asked->load());
  EXPECT_EQ(message.rfind("-Xnvjitlink asks for nvJitLink: ", 0), 0u) << message;
}

TEST(CubinAssembler, LineInfoAndPtxasOptionsReachPtxas) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas at " CUTEC_PTXAS;
  ScopedEnv env("CUTEC_PTXAS", CUTEC_PTXAS);
  auto assembler = CubinAssembler::choose(request({"-v"}, {}, /*lineInfo=*/true));
  ASSERT_TRUE(bool(assembler)) << errorOf(assembler.takeError());
  auto cubin = assembler->assemble(kEmptyKernel);
  ASSERT_TRUE(bool(cubin)) << errorOf(cubin.takeError());
  EXPECT_NE(cubin->infoLog.find("Compiling entry function 'k'"), std::string::npos);
  llvm::StringRef bytes(cubin->bytes.data(), cubin->bytes.size());
  EXPECT_TRUE(bytes.contains(".nv_debug_line_sass"));
}

TEST(CubinAssembler, TheCacheKeyHoldsTheAssemblerAndItsOptions) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas at " CUTEC_PTXAS;
  ScopedEnv env("CUTEC_PTXAS", CUTEC_PTXAS);
  auto key = [](CubinRequest r) {
    return cantFail(CubinAssembler::choose(std::move(r))).cacheKey();
  };
  std::string plain = key(request());
  EXPECT_EQ(plain.rfind("ptxas|", 0), 0u) << plain;
  EXPECT_NE(plain, key(request({"-v"})));
  EXPECT_NE(plain, key(request({}, {}, /*lineInfo=*/true)));
  std::string nvJitLink = key(request({}, {"-O3"}));
  EXPECT_EQ(nvJitLink.rfind("nvJitLink|", 0), 0u) << nvJitLink;
  EXPECT_NE(nvJitLink, key(request({}, {"-O0"})));
}

} // namespace
} // namespace cutec
