// Every mistake on a `cutec run` command line: one `cutec: error:` line,
// exit code 1, nothing compiled or run. The emulation text is empty, so a
// run that got as far as compiling would fail differently.
#include "RunTestUtil.h"

namespace cutec {
namespace {

using test::TempDir;

class RunErrors : public ::testing::Test {
protected:
  RunErrors() : module(test::makeDecodeSumModule()) {
    options.sizes = {"n=256"};
    options.args = {"x=" + test::writeNpy(dir, "x.npy", "|u1", std::vector<uint8_t>(128))};
    options.outs = {"y=" + dir.file("y.npy")};
  }

  /// Runs with `options` and returns the message after "cutec: error: ",
  /// checking that it is the only line printed.
  std::string errorOf(const ir::Module &m) {
    test::RunOutcome run = test::runWith(m, "", options);
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_EQ(run.out, "");
    llvm::StringRef err(run.err);
    EXPECT_TRUE(err.consume_front("cutec: error: ")) << run.err;
    EXPECT_TRUE(err.consume_back("\n")) << run.err;
    EXPECT_FALSE(err.contains('\n')) << run.err;
    return err.str();
  }
  std::string error() { return errorOf(*module); }

  TempDir dir;
  std::unique_ptr<ir::Module> module;
  RunOptions options;
};

TEST_F(RunErrors, MissingSize) {
  options.sizes = {};
  EXPECT_EQ(error(), "missing -D for n: kernel 'decode_sum' has the dynamic sizes n");
}

TEST_F(RunErrors, UnknownSize) {
  options.sizes = {"n=256", "m=4"};
  EXPECT_EQ(error(), "-D m: kernel 'decode_sum' has no dynamic size 'm' (it has n)");
}

TEST_F(RunErrors, SizeNotAPositiveInt32) {
  for (const char *value : {"0", "-3", "2147483648", "12x", "1.5"}) {
    options.sizes = {std::string("n=") + value};
    EXPECT_EQ(error(),
              std::string("-D n=") + value + ": a size must be an integer from 1 to 2147483647");
  }
}

TEST_F(RunErrors, SizeNotNameEqualsValue) {
  options.sizes = {"n"};
  EXPECT_EQ(error(), "-D 'n' is not NAME=VALUE");
  options.sizes = {"=4"};
  EXPECT_EQ(error(), "-D '=4' is not NAME=VALUE");
}

TEST_F(RunErrors, SizeGivenTwice) {
  options.sizes = {"n=256", "n=512"};
  EXPECT_EQ(error(), "-D gives 'n' twice");
}

TEST_F(RunErrors, MissingArg) {
  options.args = {};
  EXPECT_EQ(error(), "missing --arg for x (a tensor the kernel only writes takes --out alone)");
}

TEST_F(RunErrors, ArgForNoTensorParameter) {
  options.args.push_back("n=" + dir.file("n.npy"));
  EXPECT_EQ(error(), "--arg n: kernel 'decode_sum' has no tensor parameter 'n' (its tensor "
                     "parameters: x, y)");
}

TEST_F(RunErrors, OutForNoTensorParameter) {
  options.outs = {"z=" + dir.file("z.npy")};
  EXPECT_EQ(error(), "--out z: kernel 'decode_sum' has no tensor parameter 'z' (its tensor "
                     "parameters: x, y)");
}

TEST_F(RunErrors, NarrowFormatNotGivenAsBytes) {
  std::string x = test::writeNpy(dir, "xf.npy", "<f4", std::vector<uint8_t>(128));
  options.args = {"x=" + x};
  EXPECT_EQ(error(), "--arg x=" + x +
                         ": the file holds dtype <f4 but x is f4e2m1, given as its memory "
                         "image in dtype |u1 (uint8 bytes)");
}

TEST_F(RunErrors, WrongDtypeForF32) {
  options.args.push_back("y=" + test::writeNpy(dir, "y.npy", "<i4", std::vector<uint8_t>(1024)));
  EXPECT_EQ(error(), "--arg y=" + dir.file("y.npy") +
                         ": the file holds dtype <i4 but y is f32, given as its memory image "
                         "in dtype <f4");
}

TEST_F(RunErrors, WrongByteSize) {
  std::string x = test::writeNpy(dir, "x100.npy", "|u1", std::vector<uint8_t>(100));
  options.args = {"x=" + x};
  EXPECT_EQ(error(), "--arg x=" + x +
                         ": the file holds 100 bytes (|u1, shape (100,)) but x takes 128 "
                         "bytes: 256 f4e2m1 elements (4 bits each), the cosize of n:1 with "
                         "n=256");
}

TEST_F(RunErrors, OddFp4CountRoundsUpToWholeBytes) {
  options.sizes = {"n=255"};
  std::string x = test::writeNpy(dir, "x127.npy", "|u1", std::vector<uint8_t>(127));
  options.args = {"x=" + x};
  EXPECT_NE(error().find("but x takes 128 bytes: 255 f4e2m1 elements"), std::string::npos);
}

TEST_F(RunErrors, UnreadableFile) {
  std::string missing = dir.file("missing.npy");
  options.args = {"x=" + missing};
  EXPECT_EQ(error(),
            "--arg x=" + missing + ": cannot read '" + missing + "': No such file or directory");
}

TEST_F(RunErrors, NotAnNpyFile) {
  std::string path = dir.file("text.npy");
  {
    std::error_code ec;
    llvm::raw_fd_ostream(path, ec) << "not numpy\n";
  }
  options.args = {"x=" + path};
  EXPECT_NE(error().find("not an .npy file"), std::string::npos);
}

TEST_F(RunErrors, OutputDirectoryDoesNotExist) {
  std::string path = dir.file("no/such/dir/y.npy");
  options.outs = {"y=" + path};
  EXPECT_EQ(error(),
            "--out y=" + path + ": the directory '" + dir.file("no/such/dir") + "' does not exist");
}

TEST_F(RunErrors, OutputPathIsADirectory) {
  options.outs = {"y=" + dir.file("")};
  EXPECT_NE(error().find("is a directory"), std::string::npos);
}

TEST_F(RunErrors, SeveralKernelsNeedKernelOption) {
  module->kernels().push_back(std::move(test::makeDoubleInPlaceModule()->kernels()[0]));
  EXPECT_EQ(error(), "the file defines 2 kernels (decode_sum, double_in_place): choose one "
                     "with --kernel");
  options.kernel = "gemm";
  EXPECT_EQ(error(), "--kernel gemm: the file defines no kernel 'gemm' (its kernels: "
                     "decode_sum, double_in_place)");
}

TEST_F(RunErrors, GridOfZeroExtent) {
  module->kernels()[0]->set(ir::attr::grid, tup(IntExpr::symbol("n") / IntExpr(512), 1, 1));
  EXPECT_EQ(error(), "grid (n/512,1,1) has the extent 0 ('n/512'), outside [1, 2^32-1]");
}

TEST_F(RunErrors, CosizeOverflowing64Bits) {
  IntExpr n = IntExpr::symbol("n");
  ir::Value &x = *module->kernels()[0]->regions()[0]->front().argument(0);
  x.setType(ir::Type::tensor(ir::DataType::F4E2M1, ir::MemorySpace::Global,
                             Layout(tup(n, n, n), tup(1, n, n * n))));
  options.sizes = {"n=2147483647"};
  std::string message = error();
  EXPECT_TRUE(llvm::StringRef(message).starts_with("x: the cosize of (n,n,n):(1,n,n*n): "))
      << message;
  EXPECT_TRUE(llvm::StringRef(message).ends_with("overflows 64-bit integers")) << message;
}

} // namespace
} // namespace cutec
