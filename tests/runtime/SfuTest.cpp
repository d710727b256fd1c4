// runtime/Sfu against results recorded on an H100: the special values of
// each function, and samples of the reduced-domain tables
// (tests/data/sfu/h100_reduced_domain_samples.npy: rows {function, x, result}
// with function 0 = ex2, 1 = rsqrt, 2 = rcp; x in [0, 1) and (-1, 0] for
// ex2, [1, 4) for rsqrt, [1, 2) for rcp, as sfu_check --tables wrote them).
// Every one of the 2^32 inputs is compared on the GPU by
// tests/hardware/SfuCheck.cpp.
#include "runtime/io/Npy.h"
#include "runtime/numerics/Sfu.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>

namespace {

using namespace cutec::rt;

uint32_t ex2(uint32_t x) { return std::bit_cast<uint32_t>(ptx::ex2ApproxFtzF32(std::bit_cast<float>(x))); }
uint32_t rsqrt(uint32_t x) { return std::bit_cast<uint32_t>(ptx::rsqrtApproxFtzF32(std::bit_cast<float>(x))); }
uint32_t rcp(uint32_t x) { return std::bit_cast<uint32_t>(ptx::rcpApproxFtzF32(std::bit_cast<float>(x))); }

/// x, then the H100's ex2, rsqrt and rcp .approx.ftz.f32 of it.
struct Special {
  uint32_t x, ex2, rsqrt, rcp;
};

constexpr Special kSpecials[] = {
    {0x00000000, 0x3f800000, 0x7f800000, 0x7f800000}, // +0
    {0x80000000, 0x3f800000, 0xff800000, 0xff800000}, // -0
    {0x00000001, 0x3f800000, 0x7f800000, 0x7f800000}, // subnormals are zeros
    {0x807fffff, 0x3f800000, 0xff800000, 0xff800000},
    {0x00800000, 0x3f800000, 0x5f000000, 0x7e800000}, // smallest normal
    {0x80800000, 0x3f800000, 0x7fffffff, 0xfe800000},
    {0x3f800000, 0x40000000, 0x3f800000, 0x3f800000}, // 1
    {0xbf800000, 0x3f000000, 0x7fffffff, 0xbf800000}, // -1
    {0x7f800000, 0x7f800000, 0x00000000, 0x00000000}, // +inf
    {0xff800000, 0x00000000, 0x7fffffff, 0x80000000}, // -inf
    {0x7fc00000, 0x7fffffff, 0x7fffffff, 0x7fffffff}, // NaNs give the canonical NaN
    {0xffc00000, 0x7fffffff, 0x7fffffff, 0x7fffffff},
    {0x7f800001, 0x7fffffff, 0x7fffffff, 0x7fffffff},
    {0x7f7fffff, 0x7f800000, 0x1f800000, 0x00000000}, // largest: rcp flushed
    {0xff7fffff, 0x00000000, 0x7fffffff, 0x80000000},
    {0x43000000, 0x7f800000, 0x3db504f2, 0x3c000000}, // 128
    {0xc3000000, 0x00000000, 0x7fffffff, 0xbc000000},
    {0x42fe0000, 0x7f000000, 0x3db5bb09, 0x3c010204}, // 127
    {0xc2fe0000, 0x00000000, 0x7fffffff, 0xbc010204}, // -127: 2^-127 flushed
    {0xc2fc0000, 0x00800000, 0x7fffffff, 0xbc020821}, // -126: 2^-126
    {0xc2fd0000, 0x00000000, 0x7fffffff, 0xbc01848e}, // -126.5
    {0x42ffffff, 0x7f7fffa8, 0x3db504f4, 0x3c000001}, // just below 128
    {0x40000000, 0x40800000, 0x3f3504f2, 0x3f000000}, // 2
    {0x3f000000, 0x3fb504f3, 0x3fb504f2, 0x40000000}, // 0.5
    {0x34000000, 0x3f800001, 0x453504f2, 0x4b000000}, // 2^-23
    {0xb4000000, 0x3f7ffffe, 0x7fffffff, 0xcb000000}, // -2^-23: the negated fraction
    {0x33ffffff, 0x3f800000, 0x453504f4, 0x4b000001}, // below 2^-23: truncated to 0
    {0xb3ffffff, 0x3f800000, 0x7fffffff, 0xcb000001},
    {0x41100000, 0x44000000, 0x3eaaaaaa, 0x3de38e39}, // 9
    {0xc1100000, 0x3b000000, 0x7fffffff, 0xbde38e39},
    {0x40c90fdb, 0x429bc2af, 0x3ecc4229, 0x3e22f983}, // 2 pi
    {0x7e800000, 0x7f800000, 0x20000000, 0x00800000}, // 2^126: rcp gives 2^-126
    {0x7f000000, 0x7f800000, 0x1fb504f2, 0x00000000}, // 2^127: rcp flushed
    {0x00ffffff, 0x3f800000, 0x5eb504f4, 0x7e000001},
};

TEST(Sfu, SpecialValuesAsTheH100) {
  for (const Special &s : kSpecials) {
    SCOPED_TRACE(testing::Message() << std::hex << "x = 0x" << s.x);
    EXPECT_EQ(ex2(s.x), s.ex2);
    EXPECT_EQ(rsqrt(s.x), s.rsqrt);
    EXPECT_EQ(rcp(s.x), s.rcp);
  }
}

TEST(Sfu, ReducedDomainSamplesAsTheH100) {
  Result<NpyArray> samples = readNpyFile(CUTEC_SFU_DATA_DIR "/h100_reduced_domain_samples.npy");
  ASSERT_TRUE(samples) << samples.error();
  const NpyArray &a = samples.value();
  ASSERT_EQ(a.dtype, "<u4");
  ASSERT_EQ(a.shape.size(), 2u);
  ASSERT_EQ(a.shape[1], 3);
  std::vector<uint32_t> rows(a.bytes.size() / 4);
  std::memcpy(rows.data(), a.bytes.data(), a.bytes.size());
  int tested[3] = {};
  for (size_t i = 0; i < rows.size(); i += 3) {
    uint32_t fn = rows[i], x = rows[i + 1], expected = rows[i + 2];
    SCOPED_TRACE(testing::Message() << std::hex << "function " << fn << ", x = 0x" << x);
    ASSERT_LT(fn, 3u);
    EXPECT_EQ(fn == 0 ? ex2(x) : fn == 1 ? rsqrt(x) : rcp(x), expected);
    ++tested[fn];
  }
  EXPECT_EQ(tested[0], 2048); // positive and negative fractions
  EXPECT_EQ(tested[1], 2048); // [1, 2) and [2, 4)
  EXPECT_EQ(tested[2], 1024);
}

// The reductions: scaling x by a power of two (of four for rsqrt) scales the
// result exactly; ex2 of x < 0 takes the table at the fraction's one's
// complement, halved.
TEST(Sfu, ReductionsScaleExactly) {
  // Fractions in multiples of 2^-20, so that 5 + f and -3 - f are exact.
  for (uint32_t x : {0x3f912340u, 0x3fc00008u, 0x3ffffff8u}) {
    float f = std::bit_cast<float>(x);
    EXPECT_EQ(ptx::rcpApproxFtzF32(f * 0x1p40f), ptx::rcpApproxFtzF32(f) * 0x1p-40f);
    EXPECT_EQ(ptx::rcpApproxFtzF32(-f), -ptx::rcpApproxFtzF32(f));
    EXPECT_EQ(ptx::rsqrtApproxFtzF32(f * 0x1p-40f), ptx::rsqrtApproxFtzF32(f) * 0x1p20f);
    float fraction = f - 1.0f;
    EXPECT_EQ(ptx::ex2ApproxFtzF32(fraction + 5.0f), ptx::ex2ApproxFtzF32(fraction) * 32.0f);
    EXPECT_EQ(ptx::ex2ApproxFtzF32(-fraction - 3.0f),
              ptx::ex2ApproxFtzF32(1.0f - 0x1p-23f - fraction) * 0x1p-4f);
  }
}

} // namespace
