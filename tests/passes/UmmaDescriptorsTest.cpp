// The descriptors lower-mma builds, decoded field by field with the bit
// positions of the PTX ISA's tables (as docs/blackwell-facts.md points to
// them: CUTLASS cute/arch/mma_sm100_desc.hpp), written out here again.
#include "passes/lowering/UmmaDescriptors.h"

#include "ir/layout/LayoutExprParser.h"

#include <gtest/gtest.h>

namespace cutec {
namespace {

using ir::DataType;
using umma::Major;

uint64_t bitsOf(uint64_t word, unsigned low, unsigned count) {
  return (word >> low) & ((uint64_t(1) << count) - 1);
}

Layout layout(const char *text) {
  LayoutExprResult r = evaluateLayoutExpr(text);
  EXPECT_TRUE(r.value && r.value->get<Layout>()) << text << ": " << r.error;
  return r.value && r.value->get<Layout>() ? *r.value->get<Layout>() : Layout();
}

Swizzle sw(int bits) { return bits ? Swizzle{bits, 4, 3} : Swizzle{}; }

/// The descriptor of `tile`, split into the PTX table's fields.
struct Decoded {
  uint64_t start, lbo, sbo, version, baseOffset, lboMode, layoutType;
};
Decoded decode(uint64_t d) {
  return {bitsOf(d, 0, 14),  bitsOf(d, 16, 14), bitsOf(d, 32, 14), bitsOf(d, 46, 3),
          bitsOf(d, 49, 3), bitsOf(d, 52, 1),  bitsOf(d, 61, 3)};
}

Decoded describe(const char *tile, int swizzleBits, DataType t, Major major,
                 uint32_t address = 0x400) {
  llvm::Expected<umma::SmemDescriptor> d = umma::smemDescriptor(layout(tile), sw(swizzleBits), t, major);
  EXPECT_TRUE(bool(d)) << (d ? "" : llvm::toString(d.takeError()));
  return decode(d->constantBits() | ((address >> 4) & 0x3FFF));
}

TEST(UmmaSmemDescriptor, KMajor128ByteSwizzleF16) {
  // 128 rows of 64 f16 (128 bytes): 8-row groups 1024 bytes apart.
  Decoded d = describe("(128,16):(64,1)", 3, DataType::F16, Major::K, 0x1400);
  EXPECT_EQ(d.start, 0x1400u >> 4);
  EXPECT_EQ(d.sbo, 1024u / 16);
  EXPECT_EQ(d.lbo, 1u);
  EXPECT_EQ(d.version, 1u);
  EXPECT_EQ(d.baseOffset, 0u);
  EXPECT_EQ(d.lboMode, 0u);
  EXPECT_EQ(d.layoutType, 2u);
  // The whole 64-wide K tile describes the same canonical layout.
  EXPECT_EQ(describe("(128,64):(64,1)", 3, DataType::F16, Major::K).sbo, 64u);
}

TEST(UmmaSmemDescriptor, KMajorEachSwizzleWidth) {
  Decoded d64 = describe("(128,32):(32,1)", 2, DataType::F16, Major::K);
  EXPECT_EQ(d64.sbo, 512u / 16);
  EXPECT_EQ(d64.layoutType, 4u);
  Decoded d32 = describe("(128,16):(16,1)", 1, DataType::F16, Major::K);
  EXPECT_EQ(d32.sbo, 256u / 16);
  EXPECT_EQ(d32.layoutType, 6u);
  // 8-bit and packed 4-bit data: 128-byte rows of 128 and 256 elements.
  EXPECT_EQ(describe("(128,32):(128,1)", 3, DataType::F8E4M3, Major::K).sbo, 64u);
  EXPECT_EQ(describe("(128,64):(256,1)", 3, DataType::F4E2M1, Major::K).sbo, 64u);
}

TEST(UmmaSmemDescriptor, KMajorInterleavedCoreMatrices) {
  // Unswizzled: core matrices of 8 rows x 16 bytes, stored contiguously;
  // along K the next core matrix is 128 bytes on (LBO), the next 8 rows 256
  // bytes (SBO).
  Decoded d = describe("((8,16),(8,2)):((8,128),(1,64))", 0, DataType::F16, Major::K);
  EXPECT_EQ(d.lbo, 128u / 16);
  EXPECT_EQ(d.sbo, 256u / 16);
  EXPECT_EQ(d.layoutType, 0u);
}

TEST(UmmaSmemDescriptor, MnMajor128ByteSwizzle) {
  // 64 contiguous M elements (128 bytes) per row of K, 8 K rows per atom:
  // atoms along M 1024 bytes apart (LBO), 8-row K groups 2048 (SBO).
  Decoded d = describe("((64,2),(8,2)):((1,512),(64,1024))", 3, DataType::F16, Major::MN);
  EXPECT_EQ(d.lbo, 1024u / 16);
  EXPECT_EQ(d.sbo, 2048u / 16);
  EXPECT_EQ(d.layoutType, 2u);
}

TEST(UmmaSmemDescriptor, RejectsWhatTheMmaCannotRead) {
  auto error = [](const char *tile, Swizzle s, Major major) {
    auto d = umma::smemDescriptor(layout(tile), s, DataType::F16, major);
    return d ? std::string() : llvm::toString(d.takeError());
  };
  // Rows 256 bytes apart under a 128-byte swizzle.
  EXPECT_NE(error("(128,16):(128,1)", sw(3), Major::K).find("not a canonical UMMA layout"),
            std::string::npos);
  EXPECT_NE(error("(128,16):(64,1)", Swizzle{3, 3, 3}, Major::K).find("not S<3,3,3>"),
            std::string::npos);
  EXPECT_NE(error("(128,16,2):(64,1,8192)", sw(3), Major::K).find("(MN, K) layout"),
            std::string::npos);
}

/// The instruction descriptor's fields (dense table).
TEST(UmmaInstrDescriptor, DenseF16AccumulatingInF32) {
  umma::InstrDescriptorSpec s;
  s.kind = umma::Kind::F16;
  s.a = DataType::BF16;
  s.b = DataType::F16;
  s.d = DataType::F32;
  s.aMajor = Major::K;
  s.bMajor = Major::MN;
  s.m = 128;
  s.n = 256;
  llvm::Expected<uint32_t> d = umma::instrDescriptor(s);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_EQ(bitsOf(*d, 0, 4), 0u); // dense, no saturation
  EXPECT_EQ(bitsOf(*d, 4, 2), 1u); // D f32
  EXPECT_EQ(bitsOf(*d, 7, 3), 1u); // A bf16
  EXPECT_EQ(bitsOf(*d, 10, 3), 0u); // B f16
  EXPECT_EQ(bitsOf(*d, 13, 2), 0u); // no negation
  EXPECT_EQ(bitsOf(*d, 15, 1), 0u); // A K-major
  EXPECT_EQ(bitsOf(*d, 16, 1), 1u); // B MN-major
  EXPECT_EQ(bitsOf(*d, 17, 6), 256u >> 3);
  EXPECT_EQ(bitsOf(*d, 24, 5), 128u >> 4);
  EXPECT_EQ(bitsOf(*d, 30, 2), 0u); // no max shift
}

TEST(UmmaInstrDescriptor, EveryDenseKindAndAccumulator) {
  struct Case {
    umma::Kind kind;
    DataType a, d;
    uint32_t aFormat, dFormat;
  };
  for (Case c : {Case{umma::Kind::F16, DataType::F16, DataType::F16, 0, 0},
                 Case{umma::Kind::Tf32, DataType::TF32, DataType::F32, 2, 1},
                 Case{umma::Kind::I8, DataType::I8, DataType::I32, 1, 2},
                 Case{umma::Kind::I8, DataType::U8, DataType::I32, 0, 2},
                 Case{umma::Kind::F8f6f4, DataType::F8E4M3, DataType::F32, 0, 1},
                 Case{umma::Kind::F8f6f4, DataType::F8E5M2, DataType::F16, 1, 0},
                 Case{umma::Kind::F8f6f4, DataType::F6E2M3, DataType::F32, 3, 1},
                 Case{umma::Kind::F8f6f4, DataType::F6E3M2, DataType::F32, 4, 1},
                 Case{umma::Kind::F8f6f4, DataType::F4E2M1, DataType::F32, 5, 1}}) {
    umma::InstrDescriptorSpec s;
    s.kind = c.kind;
    s.a = s.b = c.a;
    s.d = c.d;
    s.m = 64;
    s.n = 8;
    llvm::Expected<uint32_t> d = umma::instrDescriptor(s);
    ASSERT_TRUE(bool(d)) << ir::name(c.a).str() << ": " << llvm::toString(d.takeError());
    EXPECT_EQ(bitsOf(*d, 7, 3), c.aFormat) << ir::name(c.a).str();
    EXPECT_EQ(bitsOf(*d, 10, 3), c.aFormat) << ir::name(c.a).str();
    EXPECT_EQ(bitsOf(*d, 4, 2), c.dFormat) << ir::name(c.a).str();
    EXPECT_EQ(bitsOf(*d, 17, 6), 1u);
    EXPECT_EQ(bitsOf(*d, 24, 5), 4u);
  }
}

TEST(UmmaInstrDescriptor, BlockScaledKinds) {
  umma::InstrDescriptorSpec s;
  s.kind = umma::Kind::Mxf4nvf4;
  s.a = s.b = DataType::F4E2M1;
  s.scale = DataType::UE4M3;
  s.n = 192;
  llvm::Expected<uint32_t> d = umma::instrDescriptor(s);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_EQ(bitsOf(*d, 7, 3), 1u);  // E2M1 in the mxf4 table
  EXPECT_EQ(bitsOf(*d, 10, 3), 1u);
  EXPECT_EQ(bitsOf(*d, 23, 1), 0u); // ue4m3 scales
  EXPECT_EQ(bitsOf(*d, 4, 2), 0u);  // SFB id 0
  EXPECT_EQ(bitsOf(*d, 29, 2), 0u); // SFA id 0
  EXPECT_EQ(bitsOf(*d, 17, 6), 192u >> 3);
  s.kind = umma::Kind::Mxf8f6f4;
  s.a = s.b = DataType::F8E4M3;
  s.scale = DataType::UE8M0;
  d = umma::instrDescriptor(s);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_EQ(bitsOf(*d, 23, 1), 1u);
  EXPECT_EQ(bitsOf(*d, 7, 3), 0u);
  // The bytes of the SF columns an instruction starts at.
  s.aSfId = 3;
  s.bSfId = 2;
  d = umma::instrDescriptor(s);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_EQ(bitsOf(*d, 29, 2), 3u);
  EXPECT_EQ(bitsOf(*d, 4, 2), 2u);
  s.aSfId = 4;
  EXPECT_FALSE(bool(umma::instrDescriptor(s)));
  llvm::consumeError(umma::instrDescriptor(s).takeError());
}

TEST(UmmaInstrDescriptor, RejectsInvalidCombinations) {
  auto error = [](umma::InstrDescriptorSpec s) {
    auto d = umma::instrDescriptor(s);
    return d ? std::string() : llvm::toString(d.takeError());
  };
  umma::InstrDescriptorSpec s;
  s.a = DataType::F8E4M3;
  EXPECT_NE(error(s).find("does not take f8e4m3"), std::string::npos);
  s = {};
  s.n = 200;
  EXPECT_NE(error(s).find("multiple of 16"), std::string::npos);
  s = {};
  s.m = 32;
  EXPECT_NE(error(s).find("M = 64, 128 or 256"), std::string::npos);
  s = {};
  s.kind = umma::Kind::F8f6f4;
  s.a = s.b = DataType::F4E2M1;
  s.aMajor = Major::MN;
  EXPECT_NE(error(s).find("must be K-major"), std::string::npos);
  s = {};
  s.kind = umma::Kind::Mxf4;
  s.a = s.b = DataType::F4E2M1;
  s.scale = DataType::UE4M3;
  EXPECT_NE(error(s).find("takes ue8m0 scale factors, not ue4m3"), std::string::npos);
  s = {};
  s.d = DataType::I32;
  EXPECT_NE(error(s).find("does not accumulate in i32"), std::string::npos);
}

} // namespace
} // namespace cutec
