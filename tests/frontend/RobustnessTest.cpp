// Robustness tests: no input may crash, hang, assert or exhaust the stack.
// Deep nesting of every kind is cut off with a diagnostic; random and mutated
// byte strings (a small in-process fuzzer) must simply parse to completion.
#include "FrontendTestUtil.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

using cutec::test::parse;

namespace {

std::string repeat(llvm::StringRef text, size_t count) {
  std::string result;
  for (size_t i = 0; i < count; ++i)
    result += text;
  return result;
}

void expectTooDeep(const std::string &source) {
  cutec::test::ParseResult result = parse(source);
  EXPECT_GE(result.errorCount, 1u);
  EXPECT_NE(result.diagnostics.find("error: nesting too deep (the limit is 256 levels)"),
            std::string::npos)
      << result.diagnostics.substr(0, 500);
}

TEST(RobustnessTest, NestingWithinTheLimitParses) {
  EXPECT_EQ(parse("x = " + repeat("(", 100) + "1" + repeat(")", 100) + "\n").errorCount, 0u);
}

TEST(RobustnessTest, DeepParentheses) {
  expectTooDeep("x = " + repeat("(", 100000) + "1" + repeat(")", 100000) + "\n");
}

TEST(RobustnessTest, DeepUnclosedBrackets) { expectTooDeep("x = " + repeat("[(", 50000)); }

TEST(RobustnessTest, DeepUnaryOperators) {
  expectTooDeep("x = " + repeat("-", 100000) + "1\n");
  expectTooDeep("x = " + repeat("not ", 100000) + "1\n");
}

TEST(RobustnessTest, LongOperatorChains) {
  expectTooDeep("x = 1" + repeat(" + 1", 100000) + "\n");
  expectTooDeep("x = 1" + repeat(" ** 1", 100000) + "\n");
  expectTooDeep("x = a" + repeat(".b", 100000) + "\n");
  expectTooDeep("x = f" + repeat("()", 100000) + "\n");
}

TEST(RobustnessTest, DeepBlocks) {
  std::string source;
  for (int i = 0; i < 1000; ++i)
    source += std::string(i, ' ') + "if a:\n";
  source += std::string(1000, ' ') + "pass\n";
  expectTooDeep(source);
}

TEST(RobustnessTest, LongElifChainIsFlat) {
  std::string source = "if a:\n  pass\n";
  for (int i = 0; i < 20000; ++i)
    source += "elif a:\n  pass\n";
  EXPECT_EQ(parse(source).errorCount, 0u);
}

TEST(RobustnessTest, ManyStatementsAndLongTuples) {
  std::string source = repeat("x = 1\n", 20000) + "t = (" + repeat("1, ", 20000) + ")\n";
  EXPECT_EQ(parse(source).errorCount, 0u);
}

TEST(RobustnessTest, DegenerateInputs) {
  for (llvm::StringRef source : {"",
                                 "\n",
                                 "\r\n",
                                 "\r",
                                 " ",
                                 "\t",
                                 "#",
                                 "'",
                                 "\"\"\"",
                                 "\\",
                                 "(",
                                 ")",
                                 "]",
                                 ":",
                                 "@",
                                 "0x",
                                 "1e",
                                 ".",
                                 "..",
                                 "def",
                                 "def f",
                                 "def f(",
                                 "if",
                                 "for",
                                 "for x in",
                                 "@k",
                                 "@k\n",
                                 "  ",
                                 "\n  \n    x\n  y\n",
                                 "if a:\n",
                                 "x = '\\",
                                 "\xff",
                                 "\xc3",
                                 "\xe2\x80",
                                 "\xf0\x9f\x98"}) {
    SCOPED_TRACE(source.str());
    parse(source);
  }
  parse(llvm::StringRef("\0", 1));
  parse(llvm::StringRef("x = \0\0\0(\0", 9));
}

TEST(RobustnessTest, RandomBytes) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 2000; ++i) {
    std::string source(rng() % 200, '\0');
    for (char &c : source)
      c = static_cast<char>(rng());
    parse(source);
  }
}

TEST(RobustnessTest, RandomTokenSoup) {
  // Random sequences of the language's own tokens reach much deeper into the
  // parser than random bytes do.
  static const char *const pieces[] = {"def ",    "for ",   " in ",
                                       "if ",     "elif ",  "else",
                                       "return ", "pass",   " and ",
                                       " or ",    "not ",   "True",
                                       "(",       ")",      "[",
                                       "]",       "{",      "}",
                                       ",",       ":",      ".",
                                       "@",       "->",     "=",
                                       "+=",      "-",      "*",
                                       "**",      "//",     "==",
                                       "<",       "x",      "_",
                                       "f",       "1",      "0x1f",
                                       "2.5",     "'s'",    "\"\"\"d\"\"\"",
                                       "\n",      "\n    ", "\n  ",
                                       "\t",      "#c\n",   "\\\n",
                                       "$",       "\xff",   "\r\n",
                                       " "};
  std::mt19937 rng(777);
  for (int i = 0; i < 3000; ++i) {
    std::string source;
    for (unsigned n = rng() % 60; n > 0; --n)
      source += pieces[rng() % std::size(pieces)];
    parse(source);
  }
}

TEST(RobustnessTest, MutatedKernel) {
  std::ifstream file(CUTEC_FRONTEND_INPUTS "/nvfp4_gemv.cute", std::ios::binary);
  std::stringstream contents;
  contents << file.rdbuf();
  const std::string kernel = contents.str();
  ASSERT_FALSE(kernel.empty());
  std::mt19937 rng(4242);
  for (int i = 0; i < 2000; ++i) {
    std::string source = kernel;
    for (unsigned edits = 1 + rng() % 4; edits > 0; --edits) {
      size_t at = rng() % source.size();
      switch (rng() % 4) {
      case 0: // Delete a span.
        source.erase(at, rng() % 8);
        break;
      case 1: // Overwrite a byte.
        source[at] = static_cast<char>(rng());
        break;
      case 2: // Duplicate a span.
        source.insert(at, source.substr(rng() % source.size(), rng() % 16));
        break;
      default: // Truncate.
        source.resize(at);
        break;
      }
      if (source.empty())
        source = "x";
    }
    parse(source);
  }
}

} // namespace
