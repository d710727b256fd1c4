// ptx-diff: what counts as equivalent, and the diff it prints otherwise.
#include "codegen/ptx/PtxDiff.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

const char *kBase = R"(.version 8.8
.target sm_100a
// a comment
.visible .entry k(.param .u64 p)
{
	.reg .b32 	%r<4>;
	mov.u32 	%r1, %tid.x;   /* the thread */
	add.s32 	%r2, %r1, %r1;
$L__loop_0:
	@%p0 bra.uni 	$L__end_1;

	bra.uni 	$L__loop_0;
$L__end_1:
	ret;
}
)";

TEST(PtxDiff, IgnoresCommentsBlankLinesWhitespaceAndConsistentRenaming) {
  const char *renamed = R"(.version 8.8
.target sm_100a
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<9>;
  mov.u32 %r7, %tid.x;
  add.s32 %r8,%r7 , %r7;
$L__x_5:
  @%p3 bra.uni $L__y_2;
  bra.uni $L__x_5;
$L__y_2:
  ret;
}
)";
  EXPECT_EQ(ptx::diffPtx(kBase, "a.ptx", renamed, "b.ptx"), "");
}

TEST(PtxDiff, InconsistentRenamingIsADifference) {
  // %r1 is used twice in the base; here two different registers.
  std::string changed = kBase;
  changed.replace(changed.find("%r1, %r1"), 8, "%r1, %r3");
  std::string diff = ptx::diffPtx(kBase, "a.ptx", changed, "b.ptx");
  EXPECT_EQ(diff, "--- a.ptx\n+++ b.ptx\n"
                  "@@ -4,7 +4,7 @@\n"
                  " {\n"
                  " .reg .b32 %r<*>;\n"
                  " mov.u32 %r#0, %tid.x;\n"
                  "-add.s32 %r#1, %r#0, %r#0;\n"
                  "+add.s32 %r#1, %r#0, %r#2;\n"
                  " $L#0:\n"
                  " @%p#0 bra.uni $L#1;\n"
                  " bra.uni $L#0;\n");
}

TEST(PtxDiff, ChangedInstructionsAndSeparateHunks) {
  std::string a, b;
  for (int i = 0; i < 20; ++i) {
    a += "add.s32 %r" + std::to_string(i) + ", %r0, " + std::to_string(i) + ";\n";
    b += "add.s32 %r" + std::to_string(i) + ", %r0, " + std::to_string(i == 2 || i == 17 ? 99 : i) +
         ";\n";
  }
  std::string diff = ptx::diffPtx(a, "a", b, "b");
  EXPECT_NE(diff.find("@@ -1,6 +1,6 @@"), std::string::npos) << diff;
  EXPECT_NE(diff.find("@@ -15,6 +15,6 @@"), std::string::npos) << diff;
  EXPECT_NE(diff.find("-add.s32 %r#2, %r#0, 2;\n+add.s32 %r#2, %r#0, 99;"), std::string::npos)
      << diff;
}

TEST(PtxDiff, InsertionsAndDeletions) {
  std::string diff = ptx::diffPtx("a;\nb;\nc;\n", "x", "a;\nc;\nd;\n", "y");
  EXPECT_EQ(diff, "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a;\n-b;\n c;\n+d;\n");
  EXPECT_EQ(ptx::diffPtx("", "x", "", "y"), "");
  EXPECT_NE(ptx::diffPtx("", "x", "ret;\n", "y").find("+ret;"), std::string::npos);
}

TEST(PtxDiff, SpecialRegistersAndParametersAreNotRenamed) {
  EXPECT_NE(ptx::diffPtx("mov.u32 %r1, %tid.x;", "x", "mov.u32 %r1, %tid.y;", "y"), "");
  EXPECT_NE(ptx::diffPtx("ld.param.u64 %rd1, [a];", "x", "ld.param.u64 %rd1, [b];", "y"), "");
}

} // namespace
} // namespace cutec
