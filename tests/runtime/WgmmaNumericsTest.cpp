// runtime/WgmmaNumerics against an H100: every recorded case of
// tests/data/wgmma/<form>.txt (random tiles of each pattern of
// tests/hardware/WgmmaCases.h, recorded by tools/wgmma-numerics-check.sh
// --record) must come out bit for bit as the GPU computed it, and the
// directed probes of docs/emulator.md give the GPU's results.
#include "runtime/numerics/WgmmaNumerics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cutec::rt {
namespace {

using E = WgmmaElement;
using D = WgmmaAccum;

struct RecordedForm {
  const char *file;
  WgmmaKind type;
};

const RecordedForm kRecordedForms[] = {
    {"f32.f16.f16", {E::F16, E::F16, D::F32}},
    {"f16.f16.f16", {E::F16, E::F16, D::F16}},
    {"f32.bf16.bf16", {E::BF16, E::BF16, D::F32}},
    {"f32.tf32.tf32", {E::TF32, E::TF32, D::F32}},
    {"f32.e4m3.e4m3", {E::E4M3, E::E4M3, D::F32}},
    {"f32.e4m3.e5m2", {E::E4M3, E::E5M2, D::F32}},
    {"f32.e5m2.e4m3", {E::E5M2, E::E4M3, D::F32}},
    {"f32.e5m2.e5m2", {E::E5M2, E::E5M2, D::F32}},
    {"f16.e4m3.e4m3", {E::E4M3, E::E4M3, D::F16}},
    {"f16.e5m2.e5m2", {E::E5M2, E::E5M2, D::F16}},
    {"s32.s8.s8", {E::S8, E::S8, D::S32}},
    {"s32.u8.u8", {E::U8, E::U8, D::S32}},
    {"s32.s8.u8", {E::S8, E::U8, D::S32}},
    {"s32.u8.s8", {E::U8, E::S8, D::S32}},
    {"s32.s8.s8.satfinite", {E::S8, E::S8, D::S32, true}},
};

class WgmmaRecorded : public testing::TestWithParam<RecordedForm> {};

// Each line: instruction count i, C, K*i codes of A's row, K*i of B's
// column, the GPU's D (hex); D is C updated by i instructions in turn.
TEST_P(WgmmaRecorded, ModelReproducesTheGpu) {
  const RecordedForm &form = GetParam();
  const std::string path = std::string(CUTEC_WGMMA_DATA_DIR) + "/" + form.file + ".txt";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  const unsigned K = wgmmaK(form.type.a);
  unsigned cases = 0, mismatches = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream fields(line);
    unsigned instructions = 0;
    uint32_t d = 0, gpu = 0;
    fields >> instructions >> std::hex >> d;
    std::vector<uint32_t> a(K * instructions), b(K * instructions);
    for (uint32_t &code : a)
      fields >> code;
    for (uint32_t &code : b)
      fields >> code;
    fields >> gpu;
    ASSERT_TRUE(fields) << path << ": malformed line: " << line;
    for (unsigned i = 0; i < instructions; ++i)
      d = wgmmaDot(form.type, a.data() + i * K, b.data() + i * K, d);
    ++cases;
    if (d != gpu && ++mismatches <= 5)
      ADD_FAILURE() << form.file << ": GPU " << std::hex << gpu << ", model " << d << " for "
                    << line;
  }
  EXPECT_GT(cases, 100u);
  EXPECT_EQ(mismatches, 0u) << "of " << cases << " cases";
}

INSTANTIATE_TEST_SUITE_P(H100, WgmmaRecorded, testing::ValuesIn(kRecordedForms),
                         [](const testing::TestParamInfo<RecordedForm> &info) {
                           std::string name = info.param.file;
                           for (char &c : name)
                             c = c == '.' ? '_' : c;
                           return name;
                         });

uint32_t bitsOf(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return u;
}

/// One instruction of f16 x f16 -> f32 with B = 1: c + sum of a, where a
/// holds f16 codes (the rest 0).
uint32_t f16Sum(float c, std::vector<uint32_t> a, D accum = D::F32, uint32_t cBits = 0) {
  a.resize(16, 0);
  const std::vector<uint32_t> ones(16, 0x3C00);
  return wgmmaDot({E::F16, E::F16, accum}, a.data(), ones.data(),
                  accum == D::F32 ? bitsOf(c) : cBits);
}

std::vector<uint32_t> repeat(std::vector<uint32_t> head, unsigned n, uint32_t code) {
  head.insert(head.end(), n, code);
  return head;
}

// The GPU's results of docs/emulator.md's probe table (f16 codes: 2^11 is
// 0x6800, 2^15 0x7800, 2^-10 0x1400, 2^-11 0x1000, 2^-13 0x0800).
TEST(WgmmaProbes, TermsAreCutTwentyFiveBitsBelowTheLargestExponent) {
  EXPECT_EQ(f16Sum(0, repeat({0x6800}, 15, 0x0800)), 0x45000007u); // 2048 + 7 * 2^-12
  EXPECT_EQ(f16Sum(0, repeat({0x7800}, 15, 0x1400)), 0x47000003u); // cut kept 2^-10
  EXPECT_EQ(f16Sum(0, repeat({0x7800}, 15, 0x1000)), 0x47000000u); // 2^-11 dropped
  EXPECT_EQ(f16Sum(0x1p15f, repeat({}, 15, 0x1000)), 0x47000000u); // the accumulator aligns too
}

TEST(WgmmaProbes, CancellationLeavesNothingOfTheDroppedTerms) {
  EXPECT_EQ(f16Sum(0, repeat({0x7800, 0xF800}, 14, 0x1000)), 0u);
  EXPECT_EQ(f16Sum(0, repeat(repeat(repeat({}, 14, 0x1000), 1, 0x7800), 1, 0xF800)), 0u);
}

TEST(WgmmaProbes, SpecialValues) {
  EXPECT_EQ(f16Sum(-0.0f, repeat({}, 16, 0x8000)), 0u);         // -0 + -0... = +0
  EXPECT_EQ(f16Sum(std::nanf(""), {0x3C00}), 0x7FFFFFFFu);       // NaN C: canonical NaN
  EXPECT_EQ(f16Sum(0, {0x7C00, 0xFC00}), 0x7FFFFFFFu);           // Inf - Inf
  EXPECT_EQ(f16Sum(-INFINITY, {0x3C00}), 0xFF800000u);           // Inf passes
  EXPECT_EQ(f16Sum(1, {0x8001}), 0x3F7FFFFFu);                   // 1 - 2^-24
}

TEST(WgmmaProbes, F16AccumulatorRoundsToNearestEven) {
  EXPECT_EQ(f16Sum(0, {0x1000}, D::F16, 0x3C00), 0x3C00u);         // 1 + 2^-11: tie, even
  EXPECT_EQ(f16Sum(0, {0x1000, 0x0010}, D::F16, 0x3C00), 0x3C01u); // just above the tie
}

TEST(WgmmaProbes, Fp8KeepsThirteenBits) {
  // e4m3: 2^8 is 0x78, 2^-5 0x10, 2^-6 0x08, 1 0x38.
  std::vector<uint32_t> a(32, 0x10), b(32, 0x38);
  a[0] = 0x78;
  const WgmmaKind e4m3{E::E4M3, E::E4M3, D::F32};
  EXPECT_EQ(wgmmaDot(e4m3, a.data(), b.data(), 0), 0x43807C00u); // 256 + 31/32
  std::fill(a.begin() + 1, a.end(), 0x08);
  EXPECT_EQ(wgmmaDot(e4m3, a.data(), b.data(), 0), 0x43800000u); // 2^-6 dropped
  // The accumulator's own bits are cut to 13 as well: (1 + 2^-20) + 2^-9.
  std::vector<uint32_t> small(32, 0), one(32, 0x38);
  small[0] = 0x01; // 2^-9
  EXPECT_EQ(wgmmaDot(e4m3, small.data(), one.data(), bitsOf(1 + 0x1p-20f)), 0x3F804000u);
}

TEST(WgmmaProbes, Bf16OverflowAndUnderflow) {
  const WgmmaKind bf16{E::BF16, E::BF16, D::F32};
  std::vector<uint32_t> a(16, 0), b(16, 0x3F80);
  a[0] = 0x7F00; // 2^127
  EXPECT_EQ(wgmmaDot(bf16, a.data(), b.data(), bitsOf(0x1p127f)), 0x7F800000u); // Inf, not max
  a[0] = 0x8D80; // -2^-100
  std::vector<uint32_t> tiny(16, 0x0D80);                                         // 2^-100
  EXPECT_EQ(wgmmaDot(bf16, a.data(), tiny.data(), 0), 0u);                        // +0
}

TEST(WgmmaProbes, IntegerSumsWrapOrSaturate) {
  std::vector<uint32_t> a(32, 0x7F), b(32, 0x7F); // 32 * 127 * 127 = 516128
  const uint32_t nearMax = 0x7FFFFFFFu - 1000;
  EXPECT_EQ(wgmmaDot({E::S8, E::S8, D::S32}, a.data(), b.data(), nearMax),
            uint32_t(int64_t(int32_t(nearMax)) + 516128));
  EXPECT_EQ(wgmmaDot({E::S8, E::S8, D::S32, true}, a.data(), b.data(), nearMax), 0x7FFFFFFFu);
}

} // namespace
} // namespace cutec::rt
