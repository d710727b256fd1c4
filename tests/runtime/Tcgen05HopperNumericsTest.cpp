// tcgen05.mma under the two numerics of runtime/numerics/Tcgen05Numerics.h, executed
// directly on a TensorMemory and a shared-memory image. Under Hopper's,
// every element of D is what the wgmma model (runtime/numerics/WgmmaNumerics.h,
// wgmmaDot) gives for the same codes, one step per instruction; the probes
// of docs/emulator.md's table give the H100's values where the f32 steps
// give others; the default keeps its k-order f32 sums; the formats Hopper
// has no counterpart for are refused.
#include "runtime/numerics/FloatFormat.h"
#include "runtime/tensorcore/Tcgen05Mma.h"
#include "runtime/engine/Thread.h"
#include "runtime/tensorcore/UmmaDescriptors.h"
#include "runtime/numerics/WgmmaNumerics.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace cutec::rt {
namespace {

constexpr uint32_t kM = 128, kN = 16;
constexpr uint32_t kBOffset = 4096; // A: 16 groups of 8 rows x 256 bytes

/// A tcgen05.mma type combination and the wgmma one it stands for.
struct Form {
  const char *name;
  Tcgen05Kind kind;
  uint32_t aFormat, bFormat; // idesc codes
  WgmmaKind wgmma;
};

const Form kFormF16F32{
    "f32.f16.f16", Tcgen05Kind::F16, 0, 0, {WgmmaElement::F16, WgmmaElement::F16, WgmmaAccum::F32}};
const Form kFormF16F16{
    "f16.f16.f16", Tcgen05Kind::F16, 0, 0, {WgmmaElement::F16, WgmmaElement::F16, WgmmaAccum::F16}};
const Form kFormBF16{"f32.bf16.bf16",
                     Tcgen05Kind::F16,
                     1,
                     1,
                     {WgmmaElement::BF16, WgmmaElement::BF16, WgmmaAccum::F32}};
const Form kFormTF32{"f32.tf32.tf32",
                     Tcgen05Kind::Tf32,
                     2,
                     2,
                     {WgmmaElement::TF32, WgmmaElement::TF32, WgmmaAccum::F32}};
const Form kFormE4M3{"f32.e4m3.e4m3",
                     Tcgen05Kind::F8f6f4,
                     0,
                     0,
                     {WgmmaElement::E4M3, WgmmaElement::E4M3, WgmmaAccum::F32}};
const Form kFormE4M3E5M2F16{"f16.e4m3.e5m2",
                            Tcgen05Kind::F8f6f4,
                            0,
                            1,
                            {WgmmaElement::E4M3, WgmmaElement::E5M2, WgmmaAccum::F16}};
const Form kFormE5M2{"f32.e5m2.e5m2",
                     Tcgen05Kind::F8f6f4,
                     1,
                     1,
                     {WgmmaElement::E5M2, WgmmaElement::E5M2, WgmmaAccum::F32}};
const Form kFormS8{
    "s32.s8.s8", Tcgen05Kind::I8, 1, 1, {WgmmaElement::S8, WgmmaElement::S8, WgmmaAccum::S32}};

/// One instruction's inputs: codes as wgmmaDot takes them (a[m*K + k],
/// b[n*K + k]) and D's cells.
struct Inputs {
  std::vector<uint32_t> a, b, d;
  bool enableInputD = true, negateA = false, negateB = false;
};

uint32_t kOf(const Form &f) { return wgmmaK(f.wgmma.a); }

/// Writes `codes` (rows x K) K-major without swizzle: row r, byte j of its
/// 32 at (r % 8) * 16 + (r / 8) * 256 + (j / 16) * 128 + j % 16 (LBO 128,
/// SBO 256); returns the descriptor.
uint64_t place(std::vector<std::byte> &shared, uint32_t offset, WgmmaElement e,
               const std::vector<uint32_t> &codes, uint32_t rows) {
  const uint32_t bytes = wgmmaElementBytes(e), K = wgmmaK(e);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t k = 0; k < K; ++k) {
      const uint32_t j = k * bytes, code = codes[r * K + k];
      std::memcpy(&shared[offset + (r % 8) * 16 + (r / 8) * 256 + (j / 16) * 128 + j % 16], &code,
                  bytes);
    }
  SmemMatrixDescriptor d;
  d.startAddress = kSharedWindowBase + offset;
  d.leadingByteOffset = 128;
  d.strideByteOffset = 256;
  d.version = 1;
  return encodeSmemDescriptor(d);
}

/// D after one tcgen05.mma (M = 128, N = 16) of `form` on `in`, or the
/// problem's text in `problem`. `blockScaled`: as kind::mxf8f6f4 with
/// scale factors at TMEM columns 16 and 20.
std::vector<uint32_t> run(const Form &form, const Inputs &in, Tcgen05Numerics numerics,
                          std::string *problem = nullptr, bool blockScaled = false) {
  std::vector<std::byte> shared(8192);
  const uint64_t aDesc = place(shared, 0, form.wgmma.a, in.a, kM),
                 bDesc = place(shared, kBOffset, form.wgmma.b, in.b, kN);
  const uint32_t dFormat = form.wgmma.d == WgmmaAccum::F16   ? 0
                           : form.wgmma.d == WgmmaAccum::F32 ? 1
                                                             : 2;
  const uint32_t idesc = dFormat << 4 | form.aFormat << 7 | form.bFormat << 10 |
                         uint32_t(in.negateA) << 13 | uint32_t(in.negateB) << 14 | (kN >> 3) << 17 |
                         (kM >> 4) << 24;
  TensorMemory tmem;
  uint32_t column = 0;
  EXPECT_EQ(tmem.allocate(32, 0, "alloc", column), "");
  for (uint32_t m = 0; m < kM; ++m)
    for (uint32_t n = 0; n < kN; ++n)
      tmem.cell(m, n) = in.d[m * kN + n];
  SharedView view;
  view.bytes = shared.data();
  view.size = uint32_t(shared.size());
  TmemRegion written;
  const MmaOperands op =
      blockScaled
          ? blockScaledMmaOperands(0, aDesc, bDesc, idesc | 1u << 23, 16, 20, in.enableInputD,
                                   Tcgen05Kind::Mxf8f6f4, Tcgen05ScaleVec::X1)
          : mmaOperands(0, aDesc, bDesc, idesc, in.enableInputD, form.kind);
  MmaProblem p = executeTcgen05Mma(op, numerics, view, tmem, written);
  if (problem)
    *problem = p.text;
  else
    EXPECT_FALSE(p) << p.text;
  std::vector<uint32_t> d(kM * kN);
  for (uint32_t m = 0; m < kM; ++m)
    for (uint32_t n = 0; n < kN; ++n)
      d[m * kN + n] = tmem.cell(m, n);
  return d;
}

/// D as the wgmma model computes it, element by element.
std::vector<uint32_t> wgmmaReference(const Form &form, const Inputs &in) {
  const uint32_t K = kOf(form);
  auto signBit = [](WgmmaElement e) {
    return e == WgmmaElement::TF32 ? 0x80000000u : wgmmaElementBytes(e) == 2 ? 0x8000u : 0x80u;
  };
  std::vector<uint32_t> a = in.a, b = in.b, d(kM * kN);
  for (uint32_t &c : a)
    c ^= in.negateA ? signBit(form.wgmma.a) : 0;
  for (uint32_t &c : b)
    c ^= in.negateB ? signBit(form.wgmma.b) : 0;
  for (uint32_t m = 0; m < kM; ++m)
    for (uint32_t n = 0; n < kN; ++n)
      d[m * kN + n] =
          wgmmaDot(form.wgmma, &a[m * K], &b[n * K], in.enableInputD ? in.d[m * kN + n] : 0);
  return d;
}

/// A random code: any pattern (NaN, Inf and subnormals included) or, with
/// `moderate`, a finite one with an exponent within 2^-4 .. 2^4.
uint32_t randomCode(WgmmaElement e, bool moderate, std::mt19937 &rng) {
  if (e == WgmmaElement::S8)
    return rng() & 0xFF;
  const FloatFormat &f = wgmmaElementFormat(e);
  uint32_t code = rng() & ((1u << (1 + f.expBits + f.manBits)) - 1);
  if (moderate) {
    const uint32_t exponent = uint32_t(f.bias) - 4 + rng() % 9;
    code = (code & ~(((1u << f.expBits) - 1) << f.manBits)) | exponent << f.manBits;
  }
  return e == WgmmaElement::TF32 ? code << 13 | (rng() & 0x1FFF) : code;
}

/// Random inputs; rows of A alternate between any codes and moderate ones,
/// D holds values of the products' size (or, without `moderate`, any bits).
Inputs randomInputs(const Form &form, bool moderate, uint32_t seed) {
  std::mt19937 rng(seed);
  const uint32_t K = kOf(form);
  Inputs in;
  in.a.resize(kM * K);
  in.b.resize(kN * K);
  in.d.resize(kM * kN);
  for (uint32_t i = 0; i < in.a.size(); ++i)
    in.a[i] = randomCode(form.wgmma.a, moderate || (i / K) % 2, rng);
  for (uint32_t &c : in.b)
    c = randomCode(form.wgmma.b, true, rng);
  for (uint32_t &c : in.d) {
    if (form.wgmma.d == WgmmaAccum::F16)
      c = randomCode(WgmmaElement::F16, moderate || rng() % 2, rng);
    else if (form.wgmma.d == WgmmaAccum::S32 || (!moderate && rng() % 2))
      c = rng();
    else {
      const float v = std::ldexp(float(int32_t(rng() % 2001) - 1000), int(rng() % 9) - 12);
      std::memcpy(&c, &v, 4);
    }
  }
  return in;
}

const Form *const kHopperForms[] = {&kFormF16F32, &kFormF16F16,      &kFormBF16, &kFormTF32,
                                    &kFormE4M3,   &kFormE4M3E5M2F16, &kFormE5M2};

TEST(Tcgen05HopperNumerics, EveryElementIsTheWgmmaModels) {
  uint32_t seed = 1;
  for (const Form *form : kHopperForms)
    for (bool moderate : {false, true})
      for (int variant = 0; variant < 4; ++variant) {
        Inputs in = randomInputs(*form, moderate, seed++);
        in.enableInputD = variant != 1;
        in.negateA = variant == 2;
        in.negateB = variant >= 2;
        const std::vector<uint32_t> got = run(*form, in, Tcgen05Numerics::Hopper),
                                    want = wgmmaReference(*form, in);
        for (uint32_t i = 0; i < got.size(); ++i)
          ASSERT_EQ(got[i], want[i]) << form->name << " variant " << variant << " moderate "
                                     << moderate << " D[" << i / kN << ", " << i % kN << "]";
      }
}

/// The default agrees with its own k-order f32 reference, and the Hopper
/// numerics differ from it in many elements (with an f32 D).
TEST(Tcgen05HopperNumerics, TheDefaultKeepsItsF32StepsAndTheModelsDiffer) {
  uint32_t seed = 100;
  for (const Form *form : kHopperForms) {
    const Inputs in = randomInputs(*form, /*moderate=*/true, seed++);
    const std::vector<uint32_t> steps = run(*form, in, Tcgen05Numerics::F32Steps),
                                hopper = run(*form, in, Tcgen05Numerics::Hopper);
    const FloatFormat &fa = wgmmaElementFormat(form->wgmma.a), &fb = wgmmaElementFormat(form->wgmma.b);
    auto value = [](const FloatFormat &f, uint32_t code, bool tf32) {
      return decode(f, tf32 ? code >> 13 : code);
    };
    const bool tf32 = form->wgmma.a == WgmmaElement::TF32, f16D = form->wgmma.d == WgmmaAccum::F16;
    const uint32_t K = kOf(*form);
    uint32_t differ = 0;
    for (uint32_t m = 0; m < kM; ++m)
      for (uint32_t n = 0; n < kN; ++n) {
        const uint32_t cell = in.d[m * kN + n];
        float acc;
        if (f16D)
          acc = decode(kF16, cell & 0xFFFF);
        else
          std::memcpy(&acc, &cell, 4);
        for (uint32_t k = 0; k < K; ++k)
          acc += float(double(value(fa, in.a[m * K + k], tf32)) *
                       double(value(fb, in.b[n * K + k], tf32)));
        uint32_t want;
        std::memcpy(&want, &acc, 4);
        if (f16D)
          want = encode(kF16, acc);
        ASSERT_EQ(steps[m * kN + n], want) << form->name << " D[" << m << ", " << n << "]";
        differ += steps[m * kN + n] != hopper[m * kN + n];
      }
    // An f16 D rounds both sums to f16, which hides most differences.
    if (!f16D) {
      EXPECT_GT(differ, kM * kN / 20) << form->name << ": the models differ in " << differ;
    }
    std::printf("%s: the models differ in %u of %u elements\n", form->name, differ, kM * kN);
  }
}

/// A one-instruction probe: row 0 of A (the rest of A and all of B as
/// given), C in D(0, 0); what D(0, 0) becomes under each numerics.
struct Probe {
  const Form *form;
  const char *what;
  std::vector<float> a;
  float b;
  uint32_t c;
  uint32_t hopper, f32Steps;
};

uint32_t bitsOf(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits;
}

uint32_t codeOf(WgmmaElement e, float v) {
  switch (e) {
  case WgmmaElement::BF16:
    return bitsOf(v) >> 16;
  case WgmmaElement::TF32:
    return bitsOf(v);
  default:
    return encode(wgmmaElementFormat(e), v);
  }
}

/// `count` copies of `v` after `first`.
std::vector<float> row(std::initializer_list<float> first, uint32_t count, float v) {
  std::vector<float> r(first);
  r.insert(r.end(), count, v);
  return r;
}

TEST(Tcgen05HopperNumerics, ProbesGiveTheH100sValues) {
  // docs/emulator.md, "Hopper tensor-core numerics (measured)": C = 0 and
  // B = 1 unless said.
  const Probe probes[] = {
      {&kFormF16F32, "2^11 + 15 x 2^-13", row({0x1p11f}, 15, 0x1p-13f), 1, 0, 0x45000007,
       bitsOf(2048)},
      {&kFormF16F32, "2^15 + 15 x 2^-10", row({0x1p15f}, 15, 0x1p-10f), 1, 0, 0x47000003,
       bitsOf(32768)},
      {&kFormF16F32, "2^15 - 2^15 + 14 x 2^-11", row({0x1p15f, -0x1p15f}, 14, 0x1p-11f), 1, 0, 0,
       bitsOf(14 * 0x1p-11f)},
      {&kFormF16F32, "(1.5 2^14) 1.5 + 15 x 2^-11 1.5", row({0x1.8p14f}, 15, 0x1p-11f), 1.5f, 0,
       bitsOf(36864.00390625f), bitsOf(36864)},
      {&kFormF16F32, "C = 1, -2^-24", row({-0x1p-24f}, 15, 0), 1, bitsOf(1), bitsOf(0x1.fffffep-1f),
       bitsOf(0x1.fffffep-1f)},
      {&kFormF16F32, "C = -0, 16 x -0", row({}, 16, -0.0f), 1, 0x80000000, 0, 0x80000000},
      {&kFormF16F32, "C = NaN, 1", row({1}, 15, 0), 1, 0x7FC00000, 0x7FFFFFFF, 0x7FC00000},
      {&kFormF16F16, "C = 1, 2^-11 (a tie)", row({0x1p-11f}, 15, 0), 1, 0x3C00, 0x3C00, 0x3C00},
      {&kFormF16F16, "C = 1, 2^-11 + 2^-20", row({0x1p-11f + 0x1p-20f}, 15, 0), 1, 0x3C00, 0x3C01,
       0x3C01},
      {&kFormBF16, "C = 2^127, 2^127", row({0x1p127f}, 15, 0), 1, bitsOf(0x1p127f), 0x7F800000,
       0x7F800000},
      {&kFormTF32, "2^11 + 7 x 2^-13", row({0x1p11f}, 7, 0x1p-13f), 1, 0, 0x45000003, bitsOf(2048)},
      {&kFormE4M3, "2^8 + 31 x 2^-5", row({0x1p8f}, 31, 0x1p-5f), 1, 0, bitsOf(256.96875f),
       bitsOf(256.96875f)},
      {&kFormE4M3, "2^8 + 31 x 2^-6", row({0x1p8f}, 31, 0x1p-6f), 1, 0, bitsOf(256),
       bitsOf(256.484375f)},
      {&kFormE4M3, "C = 1 + 2^-20, 2^-9", row({0x1p-9f}, 31, 0), 1, bitsOf(1 + 0x1p-20f),
       bitsOf(1.001953125f), bitsOf(1 + 0x1p-9f + 0x1p-20f)},
      {&kFormE5M2, "2^15 + 31 x 2^1", row({0x1p15f}, 31, 2), 1, 0, bitsOf(32768), bitsOf(32830)},
  };
  for (const Probe &p : probes) {
    const WgmmaKind &kind = p.form->wgmma;
    const uint32_t K = kOf(*p.form);
    ASSERT_EQ(p.a.size(), K) << p.what;
    Inputs in;
    in.a.assign(kM * K, 0);
    in.b.assign(kN * K, codeOf(kind.b, p.b));
    in.d.assign(kM * kN, 0);
    for (uint32_t k = 0; k < K; ++k)
      in.a[k] = codeOf(kind.a, p.a[k]);
    in.d[0] = p.c;
    EXPECT_EQ(run(*p.form, in, Tcgen05Numerics::Hopper)[0], p.hopper)
        << p.form->name << " " << p.what << " (hopper)";
    EXPECT_EQ(run(*p.form, in, Tcgen05Numerics::F32Steps)[0], p.f32Steps)
        << p.form->name << " " << p.what << " (f32-steps)";
  }
}

TEST(Tcgen05HopperNumerics, IntegersAreTheSameUnderBoth) {
  const Inputs in = randomInputs(kFormS8, true, 7);
  EXPECT_EQ(run(kFormS8, in, Tcgen05Numerics::Hopper), run(kFormS8, in, Tcgen05Numerics::F32Steps));
}

TEST(Tcgen05HopperNumerics, FormatsWithoutAHopperCounterpartAreRefused) {
  // kind::f8f6f4 with e2m1 A (idesc code 5) and e4m3 B (A's bytes are
  // read as packed e2m1 pairs and padding: any values will do).
  const Form e2m1{"f32.e2m1.e4m3",
                  Tcgen05Kind::F8f6f4,
                  5,
                  0,
                  {WgmmaElement::E4M3, WgmmaElement::E4M3, WgmmaAccum::F32}};
  Inputs in = randomInputs(kFormE4M3, true, 9);
  for (uint32_t &c : in.a)
    c &= 0xF;
  std::string problem;
  run(e2m1, in, Tcgen05Numerics::Hopper, &problem);
  EXPECT_NE(problem.find("Hopper has no e2m1 operands; run with the default f32-steps numerics"),
            std::string::npos)
      << problem;
  run(e2m1, in, Tcgen05Numerics::F32Steps, &problem);
  EXPECT_EQ(problem, "");

  // Block-scaled kinds (scale factors of 1: ue8m0 127 in every byte).
  run(kFormE4M3, in, Tcgen05Numerics::Hopper, &problem, /*blockScaled=*/true);
  EXPECT_NE(problem.find("Hopper has no block-scaled MMA; run with the default f32-steps numerics"),
            std::string::npos)
      << problem;
}

} // namespace
} // namespace cutec::rt
