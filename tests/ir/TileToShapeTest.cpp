// tile-to-shape: layout.call folds to layout.constant; algebra errors are
// reported at the call.
#include "ir/core/Builder.h"
#include "ir/core/Printer.h"
#include "passes/Passes.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

using namespace ir;

struct Harness {
  Operation kernel{OpKind::Kernel, {}};
  Builder b;
  std::vector<std::string> errors;
  Harness() {
    kernel.set(ir::attr::name, std::string("k"));
    b.setInsertionPointToEnd(kernel.addRegion().addBlock());
  }
  Value *layout(const char *shapeAndStride, Layout l) {
    Operation &op = b.create(OpKind::LayoutConstant, {}, {}, {Type::layout()});
    op.set(ir::attr::layout, l);
    op.result()->setNameHint(shapeAndStride);
    return op.result();
  }
  Value *call(const char *fn, llvm::ArrayRef<Value *> args) {
    Operation &op = b.create(OpKind::LayoutCall, {}, args, {Type::layout()});
    op.set(ir::attr::function, std::string(fn));
    return op.result();
  }
  std::string run() {
    b.create(OpKind::Return, {});
    PassContext context([&](llvm::SMLoc, const llvm::Twine &m) { errors.push_back(m.str()); });
    createTileToShapePass()->run(kernel, context);
    return toString(kernel);
  }
};

// A call whose operand is another call: the inner one folds first.
TEST(TileToShape, EvaluatesWithTheFunctionTable) {
  Harness h;
  Value *block = h.layout("block", Layout(2, 1));
  Value *n = h.b.constantInt({}, DataType::I32, 8);
  Value *product = h.call("blocked_product", {block, h.layout("tiler", Layout(4, 1))});
  h.call("upcast", {product, n});
  std::string text = h.run();
  EXPECT_TRUE(h.errors.empty()) << h.errors.front();
  EXPECT_NE(text.find("layout.constant {layout = ((2,4)):((1,2))} : layout"), std::string::npos)
      << text;
  EXPECT_NE(text.find("layout.constant {layout = ((1,1)):((1,1))} : layout"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("layout.call"), std::string::npos) << text;
}

TEST(TileToShape, ReportsAlgebraErrorsAtTheCall) {
  Harness h;
  h.call("complement", {h.layout("bad", Layout(tup(2, 2), tup(1, 1)))});
  h.run();
  ASSERT_EQ(h.errors.size(), 1u);
  EXPECT_EQ(h.errors[0], "complement: (2,2):(1,1) is not injective");
}

TEST(TileToShape, RejectsNonConstantArguments) {
  Harness h;
  Value *dynamic = h.kernel.regions()[0]->front().addArgument(Type::layout(), "l");
  h.call("coalesce", {dynamic});
  h.run();
  ASSERT_EQ(h.errors.size(), 1u);
  EXPECT_EQ(h.errors[0], "the arguments of coalesce must be known at compile time");
}

} // namespace
} // namespace cutec
