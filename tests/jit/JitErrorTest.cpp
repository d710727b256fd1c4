// EmulationJit errors: bad input gives an llvm::Error with the compiler's or
// linker's message, and the process goes on.
#include "JitTestUtil.h"

using cutec::CxxCompileOptions;
using cutec::EmulationJit;
using cutec::test::failureMessage;
using cutec::test::jitWith;

namespace {

std::unique_ptr<EmulationJit> emptyJit(CxxCompileOptions options = {}) {
  llvm::Expected<std::unique_ptr<EmulationJit>> jit = EmulationJit::create(std::move(options));
  if (!jit) {
    ADD_FAILURE() << llvm::toString(jit.takeError());
    return nullptr;
  }
  return std::move(*jit);
}

TEST(JitErrorTest, CompileErrorHasLocationSourceLineAndCaret) {
  auto jit = emptyJit();
  ASSERT_TRUE(jit);
  std::string message = failureMessage(jit->addSource("extern \"C\" int f() {\n"
                                                      "  return undeclaredName + 1;\n"
                                                      "}\n",
                                                      "kernel_emu.cpp"));
  EXPECT_NE(message.find("kernel_emu.cpp:2:10: error: use of undeclared identifier "
                         "'undeclaredName'\n"
                         "    2 |   return undeclaredName + 1;\n"
                         "      |          ^\n"),
            std::string::npos)
      << message;
}

TEST(JitErrorTest, MissingHeaderIsReported) {
  auto jit = emptyJit();
  ASSERT_TRUE(jit);
  std::string message =
      failureMessage(jit->addSource("#include \"runtime/NoSuchHeader.h\"\n", "test.cpp"));
  EXPECT_NE(message.find("test.cpp:1:10: fatal error: 'runtime/NoSuchHeader.h' file not found"),
            std::string::npos)
      << message;
}

TEST(JitErrorTest, LookupOfMissingSymbolFails) {
  auto jit = jitWith(R"(extern "C" int present() { return 1; })");
  ASSERT_TRUE(jit);
  llvm::Expected<void *> address = jit->lookup("absent");
  ASSERT_FALSE(bool(address));
  std::string message = llvm::toString(address.takeError());
  EXPECT_NE(message.find("absent"), std::string::npos) << message;
}

TEST(JitErrorTest, UndefinedExternalFailsAtLoad) {
  auto jit = emptyJit();
  ASSERT_TRUE(jit);
  std::string message = failureMessage(jit->addSource(R"(
extern "C" int cutecJitTestDefinedNowhere();
extern "C" int g() { return cutecJitTestDefinedNowhere(); }
)",
                                                      "test.cpp"));
  EXPECT_EQ(message.rfind("test.cpp: Symbols not found: [ cutecJitTestDefinedNowhere ]", 0), 0u)
      << message;
}

TEST(JitErrorTest, BadInlineAssemblyIsAnErrorNotAnExit) {
  auto jit = emptyJit();
  ASSERT_TRUE(jit);
  std::string message = failureMessage(
      jit->addSource(R"(extern "C" void h() { asm volatile("not_an_instruction"); })", "test.cpp"));
  EXPECT_NE(message.find("not_an_instruction"), std::string::npos) << message;
}

TEST(JitErrorTest, UnknownDriverArgumentIsReported) {
  CxxCompileOptions options;
  options.extraArgs = {"-fno-such-flag"};
  auto jit = emptyJit(options);
  ASSERT_TRUE(jit);
  std::string message = failureMessage(jit->addSource("int x;\n", "test.cpp"));
  EXPECT_NE(message.find("-fno-such-flag"), std::string::npos) << message;
}

TEST(JitErrorTest, OptimisationLevelAboveThreeIsRejected) {
  CxxCompileOptions options;
  options.optLevel = 4;
  llvm::Expected<std::unique_ptr<EmulationJit>> jit = EmulationJit::create(options);
  ASSERT_FALSE(bool(jit));
  EXPECT_EQ(llvm::toString(jit.takeError()), "optimisation level 4 is not 0 to 3");
}

} // namespace
