// The built-in table (frontend/Builtins.def): every row's signature parses,
// spellings are unique, and the signature language means what
// frontend/BuiltinSignature.h says.
#include "frontend/Builtins.h"

#include <gtest/gtest.h>

#include <set>

namespace cutec {
namespace {

TEST(BuiltinTable, EveryRowParsesAndIsUnique) {
  std::set<std::string> seen;
  for (const BuiltinInfo &row : builtinTable()) {
    std::string error;
    EXPECT_TRUE(parseBuiltinSignature(row.signatureText, error).has_value())
        << row.spelling.str() << ": " << error;
    EXPECT_TRUE(seen.insert(row.spelling.str()).second) << "two rows for " << row.spelling.str();
    EXPECT_EQ(findBuiltin(row.spelling), &row);
    if (!row.handler) {
      EXPECT_NE(row.op, ir::OpKind::Kernel) << row.spelling.str() << " lowers to no op";
    }
  }
  EXPECT_EQ(findBuiltin("no_such_builtin"), nullptr);
}

TEST(BuiltinSignature, ParsesKindsRangesKeywordsAndResults) {
  std::string error;
  std::optional<BuiltinSignature> sig = parseBuiltinSignature(
      "bar: mbarrier, n: int[24..256 step 8], p: i32 = 0, *, read: flag = True -> u32", error);
  ASSERT_TRUE(sig) << error;
  ASSERT_EQ(sig->params.size(), 4u);
  EXPECT_EQ(sig->params[0].kind, ArgKind::Mbarrier);
  EXPECT_EQ(sig->params[1].kind, ArgKind::Int);
  EXPECT_EQ(*sig->params[1].lo, 24);
  EXPECT_EQ(*sig->params[1].hi, 256);
  EXPECT_EQ(sig->params[1].step, 8);
  EXPECT_EQ(*sig->params[2].defaultValue, 0);
  EXPECT_TRUE(sig->params[3].keywordOnly);
  EXPECT_EQ(*sig->params[3].defaultValue, 1);
  EXPECT_EQ(sig->positionalCount(), 3u);
  EXPECT_EQ(sig->requiredCount(), 2u);
  EXPECT_EQ(sig->find("read"), 3);
  EXPECT_EQ(*sig->result, ir::DataType::U32);
  EXPECT_TRUE(parseBuiltinSignature("...", error)->unchecked);
  EXPECT_TRUE(parseBuiltinSignature("", error)->params.empty());
  std::optional<BuiltinSignature> keywords =
      parseBuiltinSignature("*, stages: int, name: str = None", error);
  ASSERT_TRUE(keywords) << error;
  EXPECT_FALSE(keywords->params[0].optional); // required, by keyword only
  EXPECT_TRUE(keywords->params[1].optional);
  EXPECT_FALSE(keywords->params[1].defaultValue); // None
  EXPECT_EQ(keywords->positionalCount(), 0u);
}

TEST(BuiltinSignature, RejectsMalformedRows) {
  std::string error;
  EXPECT_FALSE(parseBuiltinSignature("x: nosuchkind", error));
  EXPECT_FALSE(parseBuiltinSignature("x", error));
  EXPECT_FALSE(parseBuiltinSignature("x: i32[1..2]", error)); // ranges are for int
  EXPECT_FALSE(parseBuiltinSignature("x: int[1..8 step 0]", error));
  EXPECT_FALSE(parseBuiltinSignature("k: int = x", error));
  EXPECT_FALSE(parseBuiltinSignature("-> nosuchtype", error));
}

} // namespace
} // namespace cutec
