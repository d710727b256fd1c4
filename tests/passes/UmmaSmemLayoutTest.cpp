// make_umma_smem_layout's layouts for both major modes (one swizzle atom or
// several along the contiguous mode), run through what
// lower-mma does with them (one shared-memory descriptor per 32 bytes of K)
// and through the emulator's decoding of those descriptors: every element
// of every K block must be where the layout (with its swizzle) puts it.
// Then the descriptor fields of the MN-major layouts, decoded by hand with
// the PTX table's bit positions (LBO between swizzle atoms along MN, SBO
// between groups of 8 K rows).
#include "frontend/UmmaSmemLayout.h"
#include "ir/layout/Layout.h"
#include "passes/lowering/UmmaDescriptors.h"
#include "runtime/tensorcore/UmmaDescriptors.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

using ir::DataType;

struct Case {
  DataType element;
  bool mnMajor;
  int64_t mn, k;
};

std::string name(const Case &c) {
  return (ir::name(c.element) + (c.mnMajor ? " MN-major (" : " K-major (") + llvm::Twine(c.mn) +
          ", " + llvm::Twine(c.k) + ")")
      .str();
}

/// Stage 1 of two stages, at a 1024-byte aligned shared address: the
/// element offsets of its (mn, k) tile and the swizzle.
struct Tile {
  Layout layout;
  Swizzle swizzle;
  int64_t stageOffset;
};

Tile stageTile(const Case &c) {
  llvm::Expected<ComposedLayout> l = makeUmmaSmemLayout(c.element, c.mnMajor, c.mn, c.k, 2);
  EXPECT_TRUE(bool(l)) << name(c) << ": " << (l ? "" : llvm::toString(l.takeError()));
  Layout tile(IntTuple::tuple({l->layout.shape[0], l->layout.shape[1]}),
              IntTuple::tuple({l->layout.stride[0], l->layout.stride[1]}));
  return {tile, l->swizzle, l->layout.stride[2].leaf().staticValue()};
}

int64_t offsetOf(const Layout &l, int64_t mn, int64_t k) {
  llvm::Expected<IntExpr> e = crd2idx(IntTuple::tuple({IntTuple(mn), IntTuple(k)}), l);
  EXPECT_TRUE(e && e->isStatic());
  return e ? e->staticValue() : 0;
}

void expectEmulatorReadsTheLayout(const Case &c) {
  SCOPED_TRACE(name(c));
  Tile t = stageTile(c);
  unsigned bits = ir::bitWidth(c.element);
  int64_t kBlock = 256 / bits, perChunk = 128 / bits;
  umma::Major major = c.mnMajor ? umma::Major::MN : umma::Major::K;
  const uint32_t base = 0x2000;
  for (int64_t kb = 0; kb < c.k / kBlock; ++kb) {
    llvm::Expected<Layout> block = umma::firstKBlock(t.layout, kBlock);
    ASSERT_TRUE(bool(block)) << llvm::toString(block.takeError());
    llvm::Expected<umma::SmemDescriptor> d =
        umma::smemDescriptor(*block, t.swizzle, c.element, major);
    ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
    uint32_t start =
        base + uint32_t((t.stageOffset + offsetOf(t.layout, 0, kb * kBlock)) * bits / 8);
    rt::SmemMatrixDescriptor decoded =
        rt::decodeSmemDescriptor(d->constantBits() | ((start >> 4) & 0x3FFF));
    ASSERT_EQ(rt::checkSmemDescriptor(decoded), "");
    auto layoutType = rt::UmmaLayout(decoded.layoutCode);
    for (int64_t i = 0; i < c.mn; ++i)
      for (int64_t kk = 0; kk < kBlock; ++kk) {
        int64_t element = t.stageOffset + offsetOf(t.layout, i, kb * kBlock + kk);
        uint32_t want = rt::ummaSwizzle(base + uint32_t(element * bits / 8), layoutType);
        uint32_t chunk = c.mnMajor ? rt::ummaChunkAddress(decoded, true, kk, i / perChunk)
                                   : rt::ummaChunkAddress(decoded, false, i, kk / perChunk);
        int64_t position = (c.mnMajor ? i : kk) % perChunk;
        ASSERT_EQ(chunk + position * bits / 8, want)
            << "element (" << i << ", " << kb * kBlock + kk << ")";
      }
  }
}

TEST(UmmaSmemLayout, TheEmulatorReadsEveryElementWhereTheLayoutPutsIt) {
  for (const Case &c : std::vector<Case>{
           {DataType::F16, false, 128, 64},
           {DataType::F16, false, 256, 32},
           {DataType::F16, true, 128, 64},
           {DataType::F16, true, 256, 32},
           {DataType::F16, true, 32, 16},  // 64-byte columns
           {DataType::BF16, true, 16, 16}, // 32-byte columns
           {DataType::F16, true, 96, 16},  // 3 atoms of 32 f16 (64-byte swizzle)
           {DataType::TF32, true, 128, 32},
           {DataType::TF32, false, 128, 32},
           {DataType::F8E4M3, true, 128, 64},
           {DataType::I8, true, 256, 64},
           {DataType::U8, false, 128, 128},
           {DataType::F16, false, 128, 128}, // two 128-byte atoms along K
           {DataType::BF16, false, 64, 96},  // three 64-byte atoms
           {DataType::TF32, false, 128, 64},
       })
    expectEmulatorReadsTheLayout(c);
}

uint64_t bitsOf(uint64_t word, unsigned low, unsigned count) {
  return (word >> low) & ((uint64_t(1) << count) - 1);
}

/// The constant bits of the descriptor lower-mma builds for the K blocks.
uint64_t descriptorOf(const Case &c) {
  Tile t = stageTile(c);
  int64_t kBlock = 256 / ir::bitWidth(c.element);
  llvm::Expected<Layout> block = umma::firstKBlock(t.layout, kBlock);
  EXPECT_TRUE(bool(block)) << (block ? "" : llvm::toString(block.takeError()));
  if (!block)
    return 0;
  llvm::Expected<umma::SmemDescriptor> d = umma::smemDescriptor(
      *block, t.swizzle, c.element, c.mnMajor ? umma::Major::MN : umma::Major::K);
  EXPECT_TRUE(bool(d)) << (d ? "" : llvm::toString(d.takeError()));
  return d ? d->constantBits() : 0;
}

TEST(UmmaSmemLayout, MnMajorDescriptorFields) {
  // f16 (128, 64): two 128-byte atoms of 64 M elements by 64 K rows, each
  // 8 KiB: LBO 8192 bytes, 8-row K groups 1024 bytes apart (SBO).
  uint64_t d = descriptorOf({DataType::F16, true, 128, 64});
  EXPECT_EQ(bitsOf(d, 16, 14), 8192u / 16);
  EXPECT_EQ(bitsOf(d, 32, 14), 1024u / 16);
  EXPECT_EQ(bitsOf(d, 46, 3), 1u); // version
  EXPECT_EQ(bitsOf(d, 49, 3), 0u); // base offset
  EXPECT_EQ(bitsOf(d, 52, 1), 0u); // relative LBO
  EXPECT_EQ(bitsOf(d, 61, 3), 2u); // 128-byte swizzle
  // f16 (96, 16): 64-byte atoms of 32 elements by 16 rows: LBO 1024, SBO 512.
  d = descriptorOf({DataType::F16, true, 96, 16});
  EXPECT_EQ(bitsOf(d, 16, 14), 1024u / 16);
  EXPECT_EQ(bitsOf(d, 32, 14), 512u / 16);
  EXPECT_EQ(bitsOf(d, 61, 3), 4u);
  // bf16 (16, 16): one 32-byte atom; SBO 256.
  d = descriptorOf({DataType::BF16, true, 16, 16});
  EXPECT_EQ(bitsOf(d, 32, 14), 256u / 16);
  EXPECT_EQ(bitsOf(d, 61, 3), 6u);
  // tf32 (128, 32): four atoms of 32 elements by 32 rows: LBO 4096.
  d = descriptorOf({DataType::TF32, true, 128, 32});
  EXPECT_EQ(bitsOf(d, 16, 14), 4096u / 16);
  EXPECT_EQ(bitsOf(d, 61, 3), 2u);
  // e4m3 (256, 64): two atoms of 128 elements by 64 rows: LBO 8192, SBO 1024.
  d = descriptorOf({DataType::F8E4M3, true, 256, 64});
  EXPECT_EQ(bitsOf(d, 16, 14), 8192u / 16);
  EXPECT_EQ(bitsOf(d, 32, 14), 1024u / 16);
}

TEST(UmmaSmemLayout, ShapesAndErrors) {
  auto text = [](DataType t, bool mnMajor, int64_t mn, int64_t k) {
    llvm::Expected<ComposedLayout> l = makeUmmaSmemLayout(t, mnMajor, mn, k, 3);
    return l ? l->str() : llvm::toString(l.takeError());
  };
  EXPECT_EQ(text(DataType::F16, false, 128, 64), "S<3,4,3> o 0 o (128,64,3):(64,1,8192)");
  EXPECT_EQ(text(DataType::F16, true, 128, 64), "S<3,4,3> o 0 o ((64,2),64,3):((1,4096),64,8192)");
  EXPECT_EQ(text(DataType::F16, true, 64, 16), "S<3,4,3> o 0 o (64,16,3):(1,64,1024)");
  EXPECT_EQ(text(DataType::F16, true, 96, 16), "S<2,4,3> o 0 o ((32,3),16,3):((1,512),32,1536)");
  EXPECT_NE(text(DataType::F4E2M1, true, 128, 64).find("must be K-major"), std::string::npos);
  EXPECT_NE(text(DataType::F16, true, 8, 16).find("columns are 16 bytes"), std::string::npos);
  EXPECT_NE(text(DataType::F16, true, 64, 12).find("K a multiple of 8"), std::string::npos);
  EXPECT_EQ(text(DataType::F16, false, 128, 128),
            "S<3,4,3> o 0 o (128,(64,2),3):(64,(1,8192),16384)");
  EXPECT_EQ(text(DataType::F16, false, 64, 48), "S<1,4,3> o 0 o (64,(16,3),3):(16,(1,1024),3072)");
  EXPECT_NE(text(DataType::F16, false, 128, 24).find("rows are 48 bytes"), std::string::npos);
  EXPECT_NE(text(DataType::F16, false, 12, 64).find("MN a multiple of 8"), std::string::npos);
}

} // namespace
} // namespace cutec
