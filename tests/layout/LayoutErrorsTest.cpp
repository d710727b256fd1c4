// Every error the layout algebra reports, with its message.
#include "LayoutTestUtil.h"

namespace cutec {
namespace {

using test::eval;

void expectError(llvm::StringRef expr, llvm::StringRef fragment) {
  std::string result = eval(expr);
  EXPECT_TRUE(llvm::StringRef(result).starts_with("error: ")) << expr.str() << " gave " << result;
  EXPECT_NE(result.find(fragment.str()), std::string::npos)
      << expr.str() << ": message '" << result << "' lacks '" << fragment.str() << "'";
}

TEST(LayoutErrors, TileThatDoesNotDivide) {
  expectError("tile_to_shape((4,4):(1,4),(6,8))", "does not divide target shape (6,8) in mode 0");
  expectError("tile_to_shape((4,4,4):(1,4,16),(8,8))", "has more modes than target");
}

TEST(LayoutErrors, NonInjectiveLayouts) {
  expectError("complement((2,2):(1,1))", "is not injective");
  expectError("left_inverse((2,2):(1,1))", "is not injective");
  expectError("left_inverse((4,2):(0,4))", "is not injective");
}

TEST(LayoutErrors, RankMismatches) {
  expectError("slice((4,2,8):(1,4,8),(_,0))", "does not match shape");
  expectError("crd2idx((1,2,3),(4,2),(1,4))", "does not match shape");
  // Found by fuzz_layout: a stride that is not congruent with the shape.
  expectError("crd2idx(((7,2),(5)),((16,4),(8)),(8))", "are not congruent");
  expectError("crd2idx(3,(4,2),5)", "are not congruent");
  expectError("logical_divide(8:1,[2:1,2:1])", "has more modes than");
  expectError("composition((4,2):(1,4),[2:1,2:1,2:1])", "has more modes than");
  expectError("local_tile((8,8):(1,8),(2,2),(0,0,0))", "has more modes than the 2 tile-index");
  expectError("(4,2):(1,(2,4))", "are not congruent");
  expectError("make_ordered_layout((2,3),(1,2,3))", "does not match shape");
  expectError("select((2,3):(1,2),5)", "out of range");
  expectError("take((2,3):(1,2),1,7)", "out of range");
}

TEST(LayoutErrors, ShapesWithEmptyModes) {
  // Found by fuzz_layout: 0 as a layout, then tiled (a division by zero).
  expectError("tile_to_shape(tile_to_shape(0%5,(33,(9),1,2)),2))", "shape extents must be positive");
  expectError("tile_to_shape(2:1,(4,0))", "shape extents must be positive, found 0 in (4,0)");
  expectError("make_layout((2,-3))", "shape extents must be positive");
  expectError("size(0)", "shape extents must be positive");
}

TEST(LayoutErrors, IntegerOverflowIsAnErrorNotUndefinedBehaviour) {
  // Found by fuzz_layout (UBSan: signed overflow in a product of extents).
  expectError("make_ordered_layout((2,(8),(15,11111111111111111,11114)),4))",
              "integer overflow");
  expectError("size((4611686018427387904,4))", "size: integer overflow");
  expectError("4000000000000000000*4", "integer overflow: a value exceeds 64 bits");
}

TEST(LayoutErrors, ProductsWhoseHalvesCannotBeZipped) {
  // Found by fuzz_layout: the repetition has two modes, the block one.
  expectError("raked_product(((2,1,16)):((2,4,4)),3:1)", "their ranks differ");
}

TEST(LayoutErrors, DynamicWhereStaticIsNeeded) {
  expectError("complement((4,8):(1,M))", "dynamic strides are supported for rank-1");
  expectError("left_inverse((4,M):(1,4))", "has dynamic parts");
  expectError("make_ordered_layout((2,3),(1,M))", "must be static");
}

TEST(LayoutErrors, RecastWithoutUnitStrideOrBadWidth) {
  expectError("downcast((4,8):(2,8),2)", "no stride-1 mode");
  expectError("upcast(8:1,0)", "factor must be positive");
  expectError("recast(8:1,3,4)", "do not divide each other");
}

TEST(LayoutErrors, ArgumentKindsAndCounts) {
  expectError("size()", "takes 1 arguments, got 0");
  expectError("complement((2,3),4)", "argument 1 must be a layout, not the tuple (2,3)");
  expectError("tile_to_shape(4:1,[2:1])", "must be an integer or a tuple, not the tiler");
  expectError("upcast(8:1,M)", "must be a static integer");
  expectError("shape_div(8,0)", "division by zero");
}

TEST(LayoutErrors, BadSwizzles) {
  expectError("S<2,4,1>", "|S| must be at least B");
  expectError("swizzle(40,4,3)", "out of range");
}

} // namespace
} // namespace cutec
