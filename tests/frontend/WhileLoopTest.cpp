// `while` loops: run-time loops in kernels (IR `while` with the carried
// variables forwarded by `condition`), compile-time loops at the top level
// and in helpers whose condition is a compile-time bool, and the errors of
// both. Each diagnostic has its own lit test in tests/lit/sema/.
#include "SemaTestUtil.h"

#include <gtest/gtest.h>

namespace cutec::test {
namespace {

bool contains(const std::string &text, llvm::StringRef part) {
  return text.find(part.str()) != std::string::npos;
}

TEST(WhileLoop, KernelLoopCarriesWhatItsBodyChanges) {
  BuildResult r = build(R"(
@kernel(block=32, grid=1)
def k(a: Tensor[f32, (32,):(1,)], steps: Tensor[i32, (32,):(1,)]):
    t = thread_idx().x
    x = a[t].load()
    n = 0
    while x >= 1.0:
        x = x * 0.5
        n += 1
    a[t] = x
    steps[t] = n
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_EQ(r.verifierIssues, std::vector<std::string>{});
  EXPECT_TRUE(contains(r.ir, "  %x_1, %n = while %x, %1 : f32, i32 {\n"
                             "  ^bb(%x_2: f32, %n_1: i32):\n"
                             "    %2 = arith.constant {value = 1.0} : f32\n"
                             "    %3 = arith.cmp %x_2, %2 {predicate = \"ge\"} : bool\n"
                             "    condition %3, %x_2, %n_1\n"
                             "  } {\n"
                             "  ^bb(%x_3: f32, %n_2: i32):\n"))
      << r.ir;
  EXPECT_TRUE(contains(r.ir, "    yield %x_4, %n_3\n  }\n")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "cute.store %x_1,")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "cute.store %n,")) << r.ir;
}

TEST(WhileLoop, KernelLoopOnCompileTimeValuesIsARunTimeLoop) {
  // As with `range`, a kernel's loop stays a loop: `i` becomes an i32.
  BuildResult r = build(R"(
@kernel(block=32, grid=1)
def k(a: Tensor[i32, (32,):(1,)]):
    i = 0
    while i < 3:
        i += 1
    a[thread_idx().x] = i
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_TRUE(contains(r.ir, "%i = while %0 : i32 {")) << r.ir;
}

TEST(WhileLoop, CompileTimeFalseSkipsTheBody) {
  // The body is not analysed (like an untaken compile-time branch).
  BuildResult r = build(R"(
@kernel(block=32, grid=1)
def k(a: Tensor[i32, (32,):(1,)]):
    x = thread_idx().x
    while False:
        x = unknown_name
    a[x] = 1
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_EQ(r.verifierIssues, std::vector<std::string>{});
  EXPECT_TRUE(contains(r.ir, "condition %0, %x_2\n  } {\n  ^bb(%x_3: i32):\n    yield %x_3\n"))
      << r.ir;
}

TEST(WhileLoop, HelpersLoopAtCompileTimeOnCompileTimeConditions) {
  BuildResult r = build(R"(
def pow2_at_least(n):
    p = 1
    while p < n:
        p *= 2
    return p

def drain(state, n):
    while state.count < n:
        state.advance()
    return state

big = pow2_at_least(100)

@kernel(block=32, grid=1)
def k(a: Tensor[i32, (32, 3):(3, 1)]):
    t = thread_idx().x
    a[t, 0] = big + pow2_at_least(5)
    s = drain(make_pipeline_state(PipelineUserType.Consumer, 3), 5)
    a[t, 1] = s.count * 100 + s.index * 10 + s.phase
    r = drain(make_pipeline_state(PipelineUserType.Consumer, 3), t)
    a[t, 2] = r.count
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_EQ(r.verifierIssues, std::vector<std::string>{});
  // 128 + 8, and five advances over three stages: count 5, index 2, phase 1.
  EXPECT_TRUE(contains(r.ir, "arith.constant {value = 136} : i32")) << r.ir;
  EXPECT_TRUE(contains(r.ir, "arith.constant {value = 521} : i32")) << r.ir;
  // On a run-time bound the helper's loop is a run-time loop, carrying the
  // state's index, phase and count; the probe of its condition left no IR.
  EXPECT_EQ(llvm::StringRef(r.ir).count(" while "), 1u) << r.ir;
  EXPECT_TRUE(contains(r.ir, "%state.index, %state.phase, %state.count = while %")) << r.ir;
  EXPECT_EQ(llvm::StringRef(r.ir).count("predicate = \"lt\""), 1u) << r.ir;
}

TEST(WhileLoop, Errors) {
  auto error = [](llvm::StringRef body) {
    return firstError(build("@kernel(block=32, grid=1)\n"
                            "def k(a: Tensor[i32, (32,):(1,)]):\n"
                            "    x = thread_idx().x\n" +
                            body.str()));
  };
  EXPECT_EQ(error("    while True:\n        x += 1\n"),
            "this condition is always True and nothing in the loop breaks out of it, so the loop "
            "would never end; a loop in a kernel needs a run-time condition or a 'break'");
  EXPECT_EQ(error("    while x:\n        x -= 1\n"),
            "the condition must be a bool, not a value of type i32");
  EXPECT_EQ(error("    while x < 4:\n        x = f32(1)\n"),
            "'x' is i32 before the loop but f32 at the end of its body; give it one type (with "
            ".to(...))");
  EXPECT_EQ(error("    while x < 4:\n        return x\n"), "a kernel cannot return a value");
  EXPECT_EQ(firstError(build("def f():\n    while 3:\n        pass\n\ny = f()\n")),
            "the condition must be a bool, not the integer 3");
  EXPECT_NE(build("def f():\n    x = 0\n    while True:\n        x += 1\n\ny = f()\n")
                .diagnostics.find("compile-time evaluation takes too long"),
            std::string::npos);
  EXPECT_EQ(firstError(build("def f(n):\n    x = 0\n    while x < 10:\n        x = x + n\n"
                             "    return x\n\n@kernel(block=32, grid=1)\n"
                             "def k(a: Tensor[i32, (32,):(1,)]):\n    a[0] = f(thread_idx().x)\n")),
            "this loop started at compile time (its condition was a compile-time bool), but now "
            "its condition is a run-time bool; give the loop's variables run-time values before "
            "it (such as i32(0)) to make it a run-time loop");
}

} // namespace
} // namespace cutec::test
