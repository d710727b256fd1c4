// Edge cases of the layout operations beyond the reference vectors: size-1
// and stride-0 modes, deep nesting, dynamic leaves, swizzles, recasts.
#include "LayoutTestUtil.h"

namespace cutec {
namespace {

using test::eval;

TEST(LayoutAlgebra, SizeOneAndStrideZeroModes) {
  EXPECT_EQ(eval("coalesce((1,1,1):(0,7,9))"), "1:0");
  EXPECT_EQ(eval("filter((4,1,3):(0,5,1))"), "3:1");
  EXPECT_EQ(eval("filter((4,2):(0,0))"), "1:0");
  EXPECT_EQ(eval("complement((4,2):(0,0),8)"), "8:1");
  EXPECT_EQ(eval("cosize((4,2):(0,0))"), "1");
  EXPECT_EQ(eval("size(((1),(1,1)):((0),(0,0)))"), "1");
  EXPECT_EQ(eval("right_inverse(4:0)"), "1:0");
}

TEST(LayoutAlgebra, DeepNesting) {
  const char *deep = "((((2,2),2),2),2):((((1,2),4),8),16)";
  EXPECT_EQ(eval(std::string("depth(") + deep + ")"), "4");
  EXPECT_EQ(eval(std::string("coalesce(") + deep + ")"), "32:1");
  EXPECT_EQ(eval(std::string("flatten(") + deep + ")"), "(2,2,2,2,2):(1,2,4,8,16)");
  EXPECT_EQ(eval(std::string("crd2idx(((((1,1),1),1),1),") + deep + ")"), "31");
  EXPECT_EQ(eval(std::string("crd2idx(31,") + deep + ")"), "31");
  EXPECT_EQ(eval("idx2crd(13,((2,2),(2,2)))"), "((1,0),(1,1))");
}

TEST(LayoutAlgebra, DynamicLeavesKeepStaticPartsStatic) {
  EXPECT_EQ(eval("logical_divide((M,N):(1,M),(128,64))"),
            "((128,ceil_div(M,128)),(64,ceil_div(N,64))):((1,128),(M,64*M))");
  EXPECT_EQ(eval("zipped_divide((M,N):(1,M),(128,64))"),
            "((128,64),(ceil_div(M,128),ceil_div(N,64))):((1,M),(128,64*M))");
  EXPECT_EQ(eval("size((M,(4,K)):(1,(M,4*M)))"), "4*K*M");
  EXPECT_EQ(eval("cosize(M:2)"), "2*(M-1)+1");
  EXPECT_EQ(eval("slice((M,K,L):(1,M,K*M),(_,3,_))"), "(M,L):(1,K*M)");
  EXPECT_EQ(eval("slice_offset((M,K,L):(1,M,K*M),(_,3,_))"), "3*M");
  EXPECT_EQ(eval("complement(4:M,4*M)"), "M:1");
  EXPECT_EQ(eval("upcast((8,M):(1,8),2)"), "(4,M):(1,4)");
  EXPECT_EQ(eval("upcast((8,M):(M,1),2)"), "(8,M/2):(M/2,1)");
}

TEST(LayoutAlgebra, TileToShapeWithModeOrder) {
  EXPECT_EQ(eval("tile_to_shape((2,2):(1,2),(4,6),(1,2))"), "((2,2),(2,3)):((1,4),(2,8))");
  EXPECT_EQ(eval("tile_to_shape((2,2):(1,2),(4,6),(2,1))"), "((2,2),(2,3)):((1,12),(2,4))");
  EXPECT_EQ(eval("make_ordered_layout((2,3,4),(2,0,1))"), "(2,3,4):(12,1,3)");
}

TEST(LayoutAlgebra, SwizzledLayouts) {
  // The 128-byte swizzle XORs the 16-byte chunk index with the row index
  // (bits 7..9 of the byte address onto bits 4..6): row 1 swaps chunks 0 and 1.
  EXPECT_EQ(eval("crd2idx((0,1),S<3,4,3> o 0 o (16,8):(8,128))"), "144");
  EXPECT_EQ(eval("crd2idx((2,1),S<3,4,3> o 0 o (16,8):(8,128))"), "128");
  EXPECT_EQ(eval("crd2idx((2,0),S<3,4,3> o 0 o (16,8):(8,128))"), "16");
  EXPECT_EQ(eval("composition(S<2,4,3>,(8,4):(4,32))"), "S<2,4,3> o 0 o (8,4):(4,32)");
  EXPECT_EQ(eval("composition(S<1,4,3> o 0 o (8,8):(8,1),(4,2))"),
            "S<1,4,3> o 0 o (4,2):(8,1)");
  EXPECT_EQ(eval("size(S<3,4,3> o 0 o (8,64):(64,1))"), "512");
}

TEST(LayoutAlgebra, RecastBetweenElementWidths) {
  // 32 fp4 values per row of 16 bytes: viewed as bytes, then back.
  EXPECT_EQ(eval("recast((128,32):(32,1),4,8)"), "(128,16):(16,1)");
  EXPECT_EQ(eval("recast((128,16):(16,1),8,4)"), "(128,32):(32,1)");
  EXPECT_EQ(eval("downcast((4,8):(8,1),2)"), "(4,16):(16,1)");
  EXPECT_EQ(eval("upcast((4,16):(16,1),4)"), "(4,4):(4,1)");
}

TEST(LayoutAlgebra, ModeManipulation) {
  EXPECT_EQ(eval("select((2,3,4):(1,2,6),2,0)"), "(4,2):(6,1)");
  EXPECT_EQ(eval("take((2,3,4,5):(1,2,6,24),1,3)"), "(3,4):(2,6)");
  EXPECT_EQ(eval("group_modes((2,3,4,5):(1,2,6,24),1,4)"), "(2,(3,4,5)):(1,(2,6,24))");
  EXPECT_EQ(eval("append((2,3):(1,2),4:6)"), "(2,3,4):(1,2,6)");
  EXPECT_EQ(eval("prepend(3:2,4:6)"), "(4,3):(6,2)");
  EXPECT_EQ(eval("get(((2,3),4):((1,2),6),0,1)"), "3:2");
  EXPECT_EQ(eval("make_layout(2:1,(3,4):(2,6))"), "(2,(3,4)):(1,(2,6))");
  EXPECT_EQ(eval("make_layout((2,(3,4)))"), "(2,(3,4)):(1,(2,6))");
  EXPECT_EQ(eval("ceil_div((M,K),(128,64))"), "(ceil_div(M,128),ceil_div(K,64))");
  EXPECT_EQ(eval("shape_div((12,8),4)"), "(3,8)");
}

} // namespace
} // namespace cutec
