// Every reference vector (computed by CuTe) in tests/data/layout, one test
// per file; each mismatch is reported with its line.
#include "LayoutTestUtil.h"

#include "llvm/Support/MemoryBuffer.h"

#include <string>

namespace cutec {
namespace {

class LayoutVectors : public ::testing::TestWithParam<const char *> {};

TEST_P(LayoutVectors, MatchCuTe) {
  std::string path = std::string(CUTEC_LAYOUT_VECTORS_DIR) + "/" + GetParam();
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(buffer) << "cannot read " << path;
  llvm::StringRef rest = (*buffer)->getBuffer();
  int line = 0, checked = 0;
  while (!rest.empty()) {
    auto [text, next] = rest.split('\n');
    rest = next;
    ++line;
    if (text.trim().empty() || text.trim().starts_with("#"))
      continue;
    auto [expr, expected] = text.split("=>");
    LayoutExprResult actual = evaluateLayoutExpr(expr);
    LayoutExprResult want = evaluateLayoutExpr(expected);
    ASSERT_TRUE(want.value) << GetParam() << ":" << line << ": bad expected value: " << want.error;
    ++checked;
    if (!actual.value) {
      ADD_FAILURE() << GetParam() << ":" << line << ": " << expr.str() << "\n  error: "
                    << actual.error;
      continue;
    }
    EXPECT_TRUE(layoutValuesMatch(*actual.value, *want.value))
        << GetParam() << ":" << line << ": " << expr.str() << "\n  expected: "
        << want.value->str() << "\n  actual:   " << actual.value->str();
  }
  EXPECT_GT(checked, 50) << "too few vectors read from " << path;
}

INSTANTIATE_TEST_SUITE_P(CuTe, LayoutVectors,
                         ::testing::Values("coalesce.txt", "complement.txt", "composition.txt",
                                           "divide.txt", "inverse.txt", "misc.txt", "product.txt",
                                           "slice.txt", "tile_to_shape.txt"),
                         [](const auto &info) {
                           std::string name = info.param;
                           return name.substr(0, name.find('.'));
                         });

} // namespace
} // namespace cutec
