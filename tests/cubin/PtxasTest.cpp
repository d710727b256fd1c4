// The ptxas program: where cutec finds it, the cubin it makes of PTX, and
// its messages as cutec reports them.
#include "codegen/cubin/Ptxas.h"

#include "TestKernels.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace cutec {
namespace {

using test::errorOf;
using test::kEmptyKernel;
using test::ScopedEnv;

/// CMake's ptxas; the tests that run it are skipped without one.
bool havePtxas() { return llvm::sys::fs::can_execute(CUTEC_PTXAS); }

TEST(Ptxas, CutecPtxasNamesTheProgram) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas at " CUTEC_PTXAS;
  ScopedEnv env("CUTEC_PTXAS", CUTEC_PTXAS);
  auto search = Ptxas::find();
  ASSERT_TRUE(bool(search)) << errorOf(search.takeError());
  ASSERT_TRUE(search->found.has_value());
  EXPECT_EQ(search->found->path(), CUTEC_PTXAS);
}

TEST(Ptxas, AnEmptyCutecPtxasChoosesNone) {
  ScopedEnv env("CUTEC_PTXAS", "");
  auto search = Ptxas::find();
  ASSERT_TRUE(bool(search)) << errorOf(search.takeError());
  EXPECT_FALSE(search->found.has_value());
  EXPECT_TRUE(search->chosen);
  EXPECT_EQ(search->tried, "CUTEC_PTXAS is empty");
}

TEST(Ptxas, ACutecPtxasThatIsNoProgramIsAnError) {
  {
    ScopedEnv env("CUTEC_PTXAS", "/nonexistent/ptxas");
    auto search = Ptxas::find();
    ASSERT_FALSE(bool(search));
    EXPECT_EQ(errorOf(search.takeError()),
              "CUTEC_PTXAS names '/nonexistent/ptxas', which is not an executable file (set it "
              "to ptxas's path, or to nothing to assemble with nvJitLink)");
  }
  ScopedEnv env("CUTEC_PTXAS", "no-such-ptxas-on-the-path");
  auto search = Ptxas::find();
  ASSERT_FALSE(bool(search));
  EXPECT_NE(errorOf(search.takeError()).find("which is no program on the PATH"), std::string::npos);
}

TEST(Ptxas, NothingFoundSaysWhereItLooked) {
  PtxasPlaces places;
  places.candidates = {"/nonexistent/a/ptxas", "/nonexistent/b/ptxas"};
  places.searchPath = false;
  auto search = Ptxas::find(places);
  ASSERT_TRUE(bool(search)) << errorOf(search.takeError());
  EXPECT_FALSE(search->found.has_value());
  EXPECT_FALSE(search->chosen);
  EXPECT_EQ(search->tried, "tried /nonexistent/a/ptxas, /nonexistent/b/ptxas; set CUTEC_PTXAS "
                           "to its path");
}

TEST(Ptxas, TheFirstCandidateThatIsAProgramIsTaken) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas at " CUTEC_PTXAS;
  PtxasPlaces places;
  places.candidates = {"/nonexistent/ptxas", "/tmp", CUTEC_PTXAS};
  places.searchPath = false;
  auto search = Ptxas::find(places);
  ASSERT_TRUE(bool(search)) << errorOf(search.takeError());
  ASSERT_TRUE(search->found.has_value());
  EXPECT_EQ(search->found->path(), CUTEC_PTXAS);
}

TEST(Ptxas, AssemblesAnElfImageForTheArch) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas at " CUTEC_PTXAS;
  auto cubin = Ptxas(CUTEC_PTXAS).assemble(kEmptyKernel, CubinOptions{"sm_100a", {}});
  ASSERT_TRUE(bool(cubin)) << errorOf(cubin.takeError());
  EXPECT_TRUE(test::isCubinFor(cubin->bytes, 100));
  EXPECT_EQ(cubin->infoLog, "");
}

TEST(Ptxas, SameInputSameBytes) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas at " CUTEC_PTXAS;
  Ptxas ptxas(CUTEC_PTXAS);
  auto first = ptxas.assemble(kEmptyKernel, CubinOptions{"sm_100a", {}});
  auto second = ptxas.assemble(kEmptyKernel, CubinOptions{"sm_100a", {}});
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->bytes, second->bytes);
}

TEST(Ptxas, BadPtxGivesPtxasMessagesAboutCutecPtx) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas at " CUTEC_PTXAS;
  auto cubin = Ptxas(CUTEC_PTXAS).assemble(test::badKernel(), CubinOptions{"sm_100a", {}});
  ASSERT_FALSE(bool(cubin));
  std::string message = errorOf(cubin.takeError());
  EXPECT_EQ(message.rfind("ptxas failed to assemble the PTX for sm_100a ('" CUTEC_PTXAS
                          "' exited with 255):\n",
                          0),
            0u)
      << message;
  // The temporary file's name never shows: the same error every run.
  EXPECT_NE(message.find("ptxas cutec.ptx, line 6; error"), std::string::npos) << message;
  EXPECT_EQ(message.find("/tmp"), std::string::npos) << message;
}

TEST(Ptxas, OptionsReachPtxasAndItsMessagesTheInfoLog) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas at " CUTEC_PTXAS;
  auto cubin = Ptxas(CUTEC_PTXAS).assemble(kEmptyKernel, CubinOptions{"sm_100a", {"-v"}});
  ASSERT_TRUE(bool(cubin)) << errorOf(cubin.takeError());
  EXPECT_NE(cubin->infoLog.find("Compiling entry function 'k' for 'sm_100a'"), std::string::npos)
      << cubin->infoLog;
}

TEST(Ptxas, AProgramThatCannotRunIsNamed) {
  auto cubin = Ptxas("/nonexistent/ptxas").assemble(kEmptyKernel, CubinOptions{"sm_100a", {}});
  ASSERT_FALSE(bool(cubin));
  std::string message = errorOf(cubin.takeError());
  EXPECT_EQ(message.rfind("cannot run ptxas '/nonexistent/ptxas': ", 0), 0u) << message;
}

TEST(Ptxas, IdentityNamesTheProgramItsSizeAndTime) {
  if (!havePtxas())
    GTEST_SKIP() << "no ptxas at " CUTEC_PTXAS;
  std::string identity = Ptxas(CUTEC_PTXAS).identity();
  EXPECT_EQ(identity.rfind("ptxas|/", 0), 0u) << identity;
  EXPECT_EQ(std::count(identity.begin(), identity.end(), '|'), 3) << identity;
}

} // namespace
} // namespace cutec
