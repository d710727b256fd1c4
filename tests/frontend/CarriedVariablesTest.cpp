// Variables carried through run-time loops and merged after run-time ifs
// when their values are tuples or built-in objects: one region argument and
// result per number leaf, compile-time leaves kept as they are. The
// diagnostics have lit tests in tests/lit/sema/.
#include "SemaTestUtil.h"

#include <gtest/gtest.h>

namespace cutec::test {
namespace {

bool contains(const std::string &text, llvm::StringRef part) {
  return text.find(part.str()) != std::string::npos;
}

TEST(CarriedVariables, TuplesCarryTheirNumbersLeafByLeaf) {
  BuildResult r = build(R"(
@kernel(block=128, grid=1)
def k(a: Tensor[f32, (128, 8):(8, 1)]):
    t = thread_idx().x
    p = (0, f32(0), 4:1)
    for j in range(8):
        p = (p[0] + 1, p[1] + a[t, j].load(), p[2])
    a[t, size(p[2])] = p[1]
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_EQ(r.verifierIssues, std::vector<std::string>{});
  // The integer starts as a compile-time 0 (now an i32), the f32 as itself;
  // the layout is no argument and is still known after the loop.
  EXPECT_TRUE(contains(r.ir, "%p.0, %p.1 = for %1, %2, %3, %4, %0 {unroll = false} : i32, f32 {\n"
                             "  ^bb(%j: i32, %p.0_1: i32, %p.1_1: f32):\n"))
      << r.ir;
  EXPECT_TRUE(contains(r.ir, "    yield %6, %9\n")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "{coord = ($0,4)}")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "cute.store %p.1,")) << r.ir;
}

TEST(CarriedVariables, NestedTuplesFlattenInOrder) {
  BuildResult r = build(R"(
@kernel(block=128, grid=1)
def k(a: Tensor[i32, (128):(1)]):
    t = thread_idx().x
    p = ((t, 1), True)
    for j in range(4):
        p = ((p[0][0] + j, p[0][1] * 2), not p[1])
    if p[1]:
        a[t] = p[0][0] + p[0][1]
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_EQ(r.verifierIssues, std::vector<std::string>{});
  EXPECT_TRUE(contains(r.ir, "%p.0.0, %p.0.1, %p.1 = for")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "^bb(%j: i32, %p.0.0_1: i32, %p.0.1_1: i32, %p.1_1: bool):")) << r.ir;
}

TEST(CarriedVariables, ObjectsChangedByTheirMethodsAreCarried) {
  // state.advance() changes the PipelineState: its public index, phase and
  // count are carried; its private stage count stays compile-time (advance
  // compares with the constant 4). The tensor `v` is a method's receiver
  // too, but a tensor's methods leave it as it is: it is not carried.
  BuildResult r = build(R"(
@kernel(block=128, grid=1)
def k(a: Tensor[i32, (128, 8):(8, 1)]):
    t = thread_idx().x
    state = make_pipeline_state(PipelineUserType.Consumer, 4)
    v = a[t, 2]
    for j in range(8):
        state.advance()
        v.store(j)
    a[t, 0] = state.index
    a[t, 1] = state.phase
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_EQ(r.verifierIssues, std::vector<std::string>{});
  EXPECT_TRUE(contains(r.ir, "%state.index, %state.phase, %state.count = for %0, %1, %2, %3, %4, "
                             "%5 {unroll = false} : i32, i32, i32 {\n"
                             "  ^bb(%j: i32, %state.index_1: i32, %state.phase_1: i32, "
                             "%state.count_1: i32):\n"))
      << r.ir;
  EXPECT_TRUE(contains(r.ir, "arith.constant {value = 4} : i32")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "cute.store %state.index,")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "cute.store %state.phase,")) << r.ir;
}

TEST(CarriedVariables, IfMergesOnlyTheLeavesThatDiffer) {
  BuildResult r = build(R"(
@kernel(block=128, grid=1)
def k(a: Tensor[i32, (128, 8):(8, 1)]):
    t = thread_idx().x
    p = (1, (2, 3:1))
    state = make_pipeline_state(PipelineUserType.Producer, 2)
    if t < 64:
        p = (t, (2, 3:1))
        state.advance()
    a[t, 0] = p[0] + p[1][0] + state.phase
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_EQ(r.verifierIssues, std::vector<std::string>{});
  // p[1][0] is 2 on both paths and stays a compile-time integer; advance()
  // from stage 0 of 2 with compile-time fields gives the compile-time index
  // 1 and count 1, merged with 0 and 0, and leaves the phase 1 as it was.
  EXPECT_TRUE(contains(r.ir, "%p.0, %state.index, %state.count = if %1 : i32, i32, i32 {\n"))
      << r.ir;
  EXPECT_TRUE(contains(r.ir, "    yield %t, %2, %3\n")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "%8 = arith.add %p.0, %7 : i32\n"
                             "  %9 = arith.constant {value = 1} : i32\n"
                             "  %10 = arith.add %8, %9 : i32\n"))
      << r.ir;
}

TEST(CarriedVariables, UnchangedCompileTimeValuesMayBeReassigned) {
  // A layout (or a tuple with one) reassigned to the same value in a loop
  // needs no region argument.
  BuildResult r = build(R"(
@kernel(block=128, grid=1)
def k(a: Tensor[f32, (128):(1)]):
    l = 4:1
    q = (l, 2)
    for j in range(8):
        l = 4:1
        q = (l, q[1])
    a[thread_idx().x] = f32(size(l) + q[1])
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_TRUE(contains(r.ir, "%q.1 = for")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "^bb(%j: i32, %q.1_1: i32):")) << r.ir;
}

TEST(CarriedVariables, ChangesOfCompileTimeLeavesAreErrors) {
  auto error = [](llvm::StringRef body) {
    return firstError(build("@kernel(block=128, grid=1)\n"
                            "def k(a: Tensor[i32, (128):(1)]):\n"
                            "    t = thread_idx().x\n" +
                            body.str()));
  };
  EXPECT_EQ(error("    p = (0, 4:1)\n"
                  "    for j in range(2):\n"
                  "        p = (p[0], 2:1)\n"),
            "'p[1]' is the layout 4:1 before the loop but the layout 2:1 at the end of its "
            "body, which cannot change at run time (inside a tuple or object, only numbers can)");
  EXPECT_EQ(error("    p = (0, 1)\n"
                  "    if t < 2:\n"
                  "        p = 0\n"),
            "'p' is the integer 0 in one branch but a tuple of 2 elements in the other; a "
            "variable keeps its structure (tuple sizes, object classes) through a run-time loop "
            "or if");
  EXPECT_EQ(error("    s = make_pipeline_state(PipelineUserType.Consumer, 4)\n"
                  "    for j in range(2):\n"
                  "        s = make_pipeline_state(PipelineUserType.Consumer, 2)\n"),
            "'s._stages' is the integer 4 before the loop but the integer 2 at the end of its "
            "body, which cannot change at run time (an object's private fields are its "
            "compile-time configuration)");
  EXPECT_EQ(error("    p = (0, 1)\n"
                  "    for j in range(2):\n"
                  "        p = (p[0], t < 3)\n"),
            "'p[1]' is i32 before the loop but bool at the end of its body; give it one type "
            "(with .to(...))");
}

} // namespace
} // namespace cutec::test
