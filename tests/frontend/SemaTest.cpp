// Semantic analysis and IR generation: compile-time evaluation, dynamic
// sizes, SSA construction for loops and conditionals, unrolling, the GEMV
// kernel as a whole (verified), determinism and robustness. Each diagnostic
// has its own lit test in tests/lit/sema/.
#include "SemaTestUtil.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace cutec::test {
namespace {

std::string readInput(const std::string &name) {
  std::ifstream file(std::string(CUTEC_FRONTEND_INPUTS) + "/" + name, std::ios::binary);
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

/// The type of the kernel parameter whose layout is `layoutExpr`, with
/// `prelude` at the top level: a window on compile-time evaluation.
std::string paramType(llvm::StringRef prelude, llvm::StringRef layoutExpr) {
  std::string source = prelude.str() + "\n@kernel(block=1, grid=1)\ndef k(a: Tensor[f32, " +
                       layoutExpr.str() + "]):\n    pass\n";
  BuildResult r = build(source);
  if (!r.diagnostics.empty())
    return r.diagnostics;
  llvm::StringRef ir(r.ir);
  size_t begin = ir.find("%a: ") + 4;
  size_t end = ir.find(">", begin) + 1;
  return ir.slice(begin, end).str();
}

/// The body of a one-kernel module, from its first op to `return`.
std::string kernelBody(const BuildResult &r) {
  llvm::StringRef ir(r.ir);
  ir = ir.drop_until([](char c) { return c == '\n'; }).drop_front();
  ir = ir.drop_until([](char c) { return c == '\n'; }).drop_front();
  return ir.str();
}

TEST(Sema, Nvfp4GemvBuildsAndVerifies) {
  BuildResult r = build(readInput("nvfp4_gemv.cute"));
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_EQ(r.verifierIssues, std::vector<std::string>{});
  EXPECT_NE(r.ir.find("dynamic_sizes = (M,K,L), grid = (ceil_div(M,128),1,L)"), std::string::npos);
}

TEST(Sema, OutputIsDeterministic) {
  std::string source = readInput("nvfp4_gemv.cute");
  EXPECT_EQ(build(source).ir, build(source).ir);
}

TEST(Sema, CompileTimeConstantsAndTupleBuiltins) {
  const char *prelude = "tile = (128, 1, 64)\nvec = 16\n";
  EXPECT_EQ(paramType(prelude, "select(tile, 0, 2)"), "tensor<f32, gmem, (128,64):(1,128)>");
  EXPECT_EQ(paramType(prelude, "(tile[2] // vec, ceil_div(100, 64)):(1, 0)"),
            "tensor<f32, gmem, (4,2):(1,0)>");
  EXPECT_EQ(paramType(prelude, "(product(tile), rank(tile), size(tile)):(1, 1, 1)"),
            "tensor<f32, gmem, (8192,3,8192):(1,1,1)>");
  // Python's floor division and modulo, in strides (shapes must be positive).
  EXPECT_EQ(paramType(prelude, "(2, 2, 2):(-7 // 2, -7 % 2, 2 ** 10)"),
            "tensor<f32, gmem, (2,2,2):(-4,1,1024)>");
  EXPECT_NE(paramType(prelude, "(-7 // 2, 1):(1, 1)").find("shape extents must be positive"),
            std::string::npos);
}

TEST(Sema, LayoutsEvaluateThroughTheAlgebra) {
  EXPECT_EQ(paramType("", "((16, 4)):((0, 1))"), "tensor<f32, gmem, ((16,4)):((0,1))>");
  EXPECT_EQ(paramType("", "make_layout((4, 8))"), "tensor<f32, gmem, (4,8):(1,4)>");
  EXPECT_EQ(paramType("", "tile_to_shape((2, 2):(1, 2), (4, 4), order=(1, 0))"),
            "tensor<f32, gmem, ((2,2),(2,2)):((1,8),(2,4))>");
  EXPECT_EQ(paramType("", "composition((8, 8):(8, 1), [2:1, 4:1])"),
            "tensor<f32, gmem, (2,4):(8,1)>");
  // A layout's modes and shape.
  EXPECT_EQ(paramType("l = (4, (2, 8)):(16, (1, 2))", "l[1]"), "tensor<f32, gmem, (2,8):(1,2)>");
  EXPECT_EQ(paramType("l = (4, 2):(2, 1)", "(l.shape[0], size(l)):(1, 0)"),
            "tensor<f32, gmem, (4,8):(1,0)>");
}

TEST(Sema, HelpersRunAtCompileTime) {
  const char *prelude = R"(
def scale_factor_layout(shape, vec=16):
    atom = ((32, 4), (vec, 4)):((16, 4), (0, 1))
    return tile_to_shape(atom, shape, order=(2, 1, 3))

def total(t):
    n = 1
    for e in t:
        n = n * e
    return n

def pick(flag):
    if flag:
        return 1
    return 2
)";
  EXPECT_EQ(paramType(prelude, "scale_factor_layout((256, 128, 1))"),
            "tensor<f32, gmem, (((32,4),2),((16,4),2),(1,1)):(((16,4),1024),((0,1),512),(0,0))>");
  EXPECT_EQ(paramType(prelude, "(total((2, 3, 4)), pick(False)):(1, 1)"),
            "tensor<f32, gmem, (24,2):(1,1)>");
  // A called name is not a dynamic size.
  EXPECT_NE(paramType(prelude, "(sum_range(5)):(1)").find("unknown name 'sum_range'"),
            std::string::npos);
}

TEST(Sema, FreeNamesInParameterTypesAreDynamicSizesInOrder) {
  BuildResult r = build(R"(
@kernel(block=(32, 4), grid=(N, L))
def k(a: Tensor[f16, (N, K):(K, 1)], b: Tensor[f16, (K, L):(1, K)]):
    pass
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_NE(r.ir.find("kernel {block = (32,4,1), dynamic_sizes = (N,K,L), grid = (N,L,1), "
                      "name = \"k\"}"),
            std::string::npos);
  EXPECT_NE(r.ir.find("%K: i32, %L: i32):"), std::string::npos);
}

TEST(Sema, DynamicSizesMaterializeInTheBody) {
  BuildResult r = build(R"(
@kernel(block=128, grid=1)
def k(a: Tensor[i32, (M):(1)]):
    a[thread_idx().x] = ceil_div(M, 128) * 2 + 1
)");
  EXPECT_EQ(r.diagnostics, "");
  // The compile-time value is materialized where the store needs it.
  EXPECT_EQ(kernelBody(r), "  %0 = cute.thread_idx {dim = 0} : i32\n"
                           "  %1 = cute.slice %a, %0 {coord = ($0)} : tensor<i32, gmem, ():()>\n"
                           "  %2 = arith.constant {value = 128} : i32\n"
                           "  %3 = arith.constant {value = 127} : i32\n"
                           "  %4 = arith.add %M, %3 : i32\n"
                           "  %5 = arith.div %4, %2 : i32\n"
                           "  %6 = arith.constant {value = 2} : i32\n"
                           "  %7 = arith.mul %5, %6 : i32\n"
                           "  %8 = arith.constant {value = 1} : i32\n"
                           "  %9 = arith.add %7, %8 : i32\n"
                           "  cute.store %9, %1\n"
                           "  return\n"
                           "}\n");
}

TEST(Sema, RunTimeIfMergesReassignedVariables) {
  BuildResult r = build(R"(
@kernel(block=128, grid=1)
def k(a: Tensor[f32, (128):(1)]):
    t = thread_idx().x
    x = f32(1)
    if t < 64:
        x = x * 2
    elif t < 96:
        x = 3
    a[t] = x
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_EQ(r.verifierIssues, std::vector<std::string>{});
  EXPECT_EQ(kernelBody(r), "  %t = cute.thread_idx {dim = 0} : i32\n"
                           "  %x = arith.constant {value = 1.0} : f32\n"
                           "  %0 = arith.constant {value = 64} : i32\n"
                           "  %1 = arith.cmp %t, %0 {predicate = \"lt\"} : bool\n"
                           "  %x_1 = if %1 : f32 {\n"
                           "    %2 = arith.constant {value = 2.0} : f32\n"
                           "    %x_2 = arith.mul %x, %2 : f32\n"
                           "    yield %x_2\n"
                           "  } {\n"
                           "    %3 = arith.constant {value = 96} : i32\n"
                           "    %4 = arith.cmp %t, %3 {predicate = \"lt\"} : bool\n"
                           "    %x_3 = if %4 : f32 {\n"
                           "      %5 = arith.constant {value = 3.0} : f32\n"
                           "      yield %5\n"
                           "    } {\n"
                           "      yield %x\n"
                           "    }\n"
                           "    yield %x_3\n"
                           "  }\n"
                           "  %6 = cute.slice %a, %t {coord = ($0)} : tensor<f32, gmem, ():()>\n"
                           "  cute.store %x_1, %6\n"
                           "  return\n"
                           "}\n");
}

TEST(Sema, LoopsCarryReassignedVariablesOnly) {
  BuildResult r = build(R"(
@kernel(block=128, grid=1)
def k(a: Tensor[f32, (128, 8):(8, 1)]):
    t = thread_idx().x
    acc = f32(0)
    n = 0
    for j in range(2, 8, 2):
        tmp = a[t, j].load()
        acc += tmp
        n += 1
    a[t, 0] = acc
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_EQ(r.verifierIssues, std::vector<std::string>{});
  // n = 0 is a compile-time integer until the loop needs it as an i32.
  EXPECT_NE(r.ir.find("%acc_1, %n = for %0, %1, %2, %acc, %3 {unroll = false} : f32, i32 {\n"
                      "  ^bb(%j: i32, %acc_2: f32, %n_1: i32):\n"),
            std::string::npos)
      << r.ir;
  EXPECT_NE(r.ir.find("yield %acc_3, %n_2\n"), std::string::npos) << r.ir;
  EXPECT_NE(r.ir.find("cute.store %acc_1,"), std::string::npos) << r.ir;

  // A variable first defined in the loop does not outlive it.
  BuildResult local = build(R"(
@kernel(block=128, grid=1)
def k(a: Tensor[f32, (128, 8):(8, 1)]):
    for j in range(8):
        tmp = a[thread_idx().x, j].load()
    a[0, 0] = tmp
)");
  EXPECT_EQ(firstError(local), "unknown name 'tmp'");
}

TEST(Sema, UnrollRepeatsTheBodyWithACompileTimeIndex) {
  BuildResult r = build(R"(
@kernel(block=1, grid=1)
def k(a: Tensor[f32, (4):(1)]):
    frag = a.load()
    s = f32(0)
    for i in unroll(4):
        if i % 2 == 0:
            s += frag[i]
    a[0] = s
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_NE(r.ir.find("cute.extract %frag {index = 0}"), std::string::npos);
  EXPECT_NE(r.ir.find("cute.extract %frag {index = 2}"), std::string::npos);
  EXPECT_EQ(r.ir.find("{index = 1}"), std::string::npos);
  EXPECT_EQ(r.ir.find(" for "), std::string::npos);
}

TEST(Sema, LiteralsAdoptTheOtherOperandsType) {
  BuildResult r = build(R"(
@kernel(block=1, grid=1)
def k(a: Tensor[f32, (1):(1)], b: Tensor[u32, (1):(1)]):
    x = a[0].load()
    a[0] = x * 2 + 0.5
    b[0] = b[0].load() * 3
)");
  EXPECT_EQ(r.diagnostics, "");
  EXPECT_NE(r.ir.find("arith.constant {value = 2.0} : f32"), std::string::npos);
  EXPECT_NE(r.ir.find("arith.constant {value = 0.5} : f32"), std::string::npos);
  EXPECT_NE(r.ir.find("arith.constant {value = 3} : u32"), std::string::npos);
  BuildResult bad = build(R"(
@kernel(block=1, grid=1)
def k(a: Tensor[i32, (1):(1)]):
    a[0] = a[0].load() * 0.5
)");
  EXPECT_EQ(firstError(bad), "a float cannot be used as i32");
}

TEST(Sema, ErrorsRecoverPerStatementWithoutCascades) {
  BuildResult r = build(R"(
x = unknown1
y = x + 1
@kernel(block=1, grid=1)
def k(a: Tensor[f32, (4):(1)]):
    b = unknown2
    a[0] = b
    a[1] = f32(0) + unknown3
)");
  EXPECT_EQ(r.ir, "");
  EXPECT_NE(r.diagnostics.find("unknown name 'unknown1'"), std::string::npos);
  EXPECT_NE(r.diagnostics.find("unknown name 'unknown2'"), std::string::npos);
  EXPECT_NE(r.diagnostics.find("unknown name 'unknown3'"), std::string::npos);
  EXPECT_EQ(llvm::StringRef(r.diagnostics).count("error:"), 3u) << r.diagnostics;
}

TEST(Sema, NoInputCrashesOrHangs) {
  // Every line of the GEMV dropped in turn, and every token pair swapped:
  // each must give IR or diagnostics, nothing else.
  std::string source = readInput("nvfp4_gemv.cute");
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(source).split(lines, '\n');
  for (size_t drop = 0; drop < lines.size(); ++drop) {
    std::string mutated;
    for (size_t i = 0; i < lines.size(); ++i)
      if (i != drop)
        mutated += lines[i].str() + "\n";
    BuildResult r = build(mutated);
    bool kernelLeft = mutated.find("@kernel") != std::string::npos;
    EXPECT_TRUE(!r.ir.empty() || !r.diagnostics.empty() || !kernelLeft)
        << "dropping line " << drop + 1;
  }
  // Recursion through helpers with deep expressions stays within the stack.
  std::string deep = "def f(n):\n    return f(" + std::string(200, '(') + "n" +
                     std::string(200, ')') + " + 1)\nx = f(0)\n";
  EXPECT_NE(build(deep).diagnostics.find("too many nested helper calls"), std::string::npos);
  std::string nested = "def f(n):\n    return " + std::string(250, '(') + "f(n + 1)" +
                       std::string(250, ')') + "\nx = f(0)\n";
  EXPECT_EQ(firstError(build(nested)),
            "nested too deeply through helper calls and regions (the limit is 2000 levels)");
  std::string loop = "def f(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n"
                     "x = f(100000000)\n";
  EXPECT_NE(build(loop).diagnostics.find("compile-time evaluation takes too long"),
            std::string::npos);
}

} // namespace
} // namespace cutec::test
