// tests/emulation/Inputs/gemm_kinds.cute's emitted C++ on the runtime: one
// tcgen05 GEMM per dense MMA kind (bf16, tf32, i8, e4m3, e5m2 inputs), with
// K-major and with MN-major operands, equals a reference that decodes the
// inputs with its own tables, multiplies exactly and adds in K order in f32
// (exactly in i32 for i8).
#include "GemmEmulated.h"
#include "gemm_kinds_emu.h"

#include "../runtime/MinifloatReference.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <functional>
#include <random>

namespace cutec {
namespace {

/// A problem: inputs as raw element codes, their values (both in memory
/// order), and the output.
struct Problem {
  uint32_t m, n, k;
  unsigned bytes; // per input element
  std::vector<uint8_t> a, b;
  std::vector<double> av, bv;
  std::vector<uint32_t> c;
  bool aMnMajor = false, bMnMajor = false; // A (M, K) stored M-major, B (N, K) N-major

  double aAt(uint32_t i, uint32_t kk) const {
    return av[aMnMajor ? size_t(kk) * m + i : size_t(i) * k + kk];
  }
  double bAt(uint32_t j, uint32_t kk) const {
    return bv[bMnMajor ? size_t(kk) * n + j : size_t(j) * k + kk];
  }
};

/// Draws an element: its code (little-endian, `bytes` long) and value.
using Draw = std::function<std::pair<uint32_t, double>(std::mt19937 &)>;

Problem makeProblem(uint32_t m, uint32_t n, uint32_t k, unsigned bytes, const Draw &draw) {
  Problem p{m, n, k, bytes, {}, {}, {}, {}, std::vector<uint32_t>(size_t(m) * n, 0xDEADBEEF)};
  std::mt19937 random(m * 7 + n * 3 + k + bytes);
  auto fill = [&](std::vector<uint8_t> &codes, std::vector<double> &values, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      auto [code, value] = draw(random);
      for (unsigned byte = 0; byte < bytes; ++byte)
        codes.push_back(uint8_t(code >> (8 * byte)));
      values.push_back(value);
    }
  };
  fill(p.a, p.av, size_t(m) * k);
  fill(p.b, p.bv, size_t(n) * k);
  return p;
}

template <typename Params>
rt::Status emulate(Problem &p, const rt::KernelDescriptor &kernel, uint32_t sharedBytes) {
  return test::runEmulatedGemm<Params>(kernel, {p.m / 128, p.n / 128, 1}, {128, 1, 1}, sharedBytes,
                                       p.a.data(), p.a.size(), p.b.data(), p.b.size(),
                                       p.c.data(), p.c.size() * 4, p.m, p.n, p.k);
}

/// Eighths from -4 to 4, as the bits of a 16- or 32-bit float.
Draw eighths(unsigned bytes) {
  return [bytes](std::mt19937 &r) {
    float v = float(int(r() % 65) - 32) / 8;
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return std::pair(bytes == 2 ? bits >> 16 : bits, double(v)); // bf16: the high half
  };
}

/// Eighths from -4 to 4 as f16 bits (exact: 11-bit significands).
Draw halves() {
  return [](std::mt19937 &r) {
    int eighths = int(r() % 65) - 32;
    _Float16 v = _Float16(eighths) / _Float16(8);
    uint16_t bits;
    std::memcpy(&bits, &v, 2);
    return std::pair(uint32_t(bits), double(eighths) / 8);
  };
}

/// Any i8.
Draw int8s() {
  return [](std::mt19937 &r) {
    int v = int(r() % 256) - 128;
    return std::pair(uint32_t(uint8_t(v)), double(v));
  };
}

/// A random finite code of an 8-bit float format.
Draw minifloat(const rt::test::RefFormat &f) {
  return [&f](std::mt19937 &r) {
    for (;;) {
      uint32_t code = r() & 0xFF;
      double v = rt::test::refValue(f, code);
      if (std::isfinite(v))
        return std::pair(code, v);
    }
  };
}

struct Kind {
  const char *name;
  unsigned bytes;
  Draw draw;
  std::function<rt::Status(Problem &)> run;
  bool integer;
  bool aMnMajor = false, bMnMajor = false;
  bool splitBoxes = false; // K-major tiles of several swizzle atoms
};

class GemmKindsLinked : public ::testing::TestWithParam<int> {};

std::vector<Kind> kinds() {
  return {
      {"bf16", 2, eighths(2),
       [](Problem &p) {
         return emulate<gemm_bf16_Params>(p, cutec_kernel_gemm_bf16, gemm_bf16_shared_bytes);
       },
       false},
      {"tf32", 4, eighths(4),
       [](Problem &p) {
         return emulate<gemm_tf32_Params>(p, cutec_kernel_gemm_tf32, gemm_tf32_shared_bytes);
       },
       false},
      {"i8", 1, int8s(),
       [](Problem &p) {
         return emulate<gemm_i8_Params>(p, cutec_kernel_gemm_i8, gemm_i8_shared_bytes);
       },
       true},
      {"e4m3", 1, minifloat(rt::test::kRefE4M3),
       [](Problem &p) {
         return emulate<gemm_e4m3_Params>(p, cutec_kernel_gemm_e4m3, gemm_e4m3_shared_bytes);
       },
       false},
      {"e5m2", 1, minifloat(rt::test::kRefE5M2),
       [](Problem &p) {
         return emulate<gemm_e5m2_Params>(p, cutec_kernel_gemm_e5m2, gemm_e5m2_shared_bytes);
       },
       false},
      {"f16_mn_mn", 2, halves(),
       [](Problem &p) {
         return emulate<gemm_f16_mn_Params>(p, cutec_kernel_gemm_f16_mn, gemm_f16_mn_shared_bytes);
       },
       false, true, true},
      {"bf16_k_mn", 2, eighths(2),
       [](Problem &p) {
         return emulate<gemm_bf16_b_mn_Params>(p, cutec_kernel_gemm_bf16_b_mn,
                                               gemm_bf16_b_mn_shared_bytes);
       },
       false, false, true},
      {"tf32_mn_k", 4, eighths(4),
       [](Problem &p) {
         return emulate<gemm_tf32_a_mn_Params>(p, cutec_kernel_gemm_tf32_a_mn,
                                               gemm_tf32_a_mn_shared_bytes);
       },
       false, true, false},
      {"i8_mn_mn", 1, int8s(),
       [](Problem &p) {
         return emulate<gemm_i8_mn_Params>(p, cutec_kernel_gemm_i8_mn, gemm_i8_mn_shared_bytes);
       },
       true, true, true},
      {"e4m3_k_mn", 1, minifloat(rt::test::kRefE4M3),
       [](Problem &p) {
         return emulate<gemm_e4m3_b_mn_Params>(p, cutec_kernel_gemm_e4m3_b_mn,
                                               gemm_e4m3_b_mn_shared_bytes);
       },
       false, false, true},
      {"bf16_wide_k", 2, eighths(2),
       [](Problem &p) {
         return emulate<gemm_bf16_wide_k_Params>(p, cutec_kernel_gemm_bf16_wide_k,
                                                 gemm_bf16_wide_k_shared_bytes);
       },
       false, false, false, true},
  };
}

TEST_P(GemmKindsLinked, MatchesTheReference) {
  Kind kind = kinds()[GetParam()];
  SCOPED_TRACE(kind.name);
  // K-major kernels on one size; MN-major and wide-K ones on several, with
  // several K tiles and non-square shapes.
  std::vector<std::array<uint32_t, 3>> sizes{{256, 128, 256}};
  if (kind.aMnMajor || kind.bMnMajor || kind.splitBoxes)
    sizes = {{256, 128, 256}, {128, 384, 384}, {384, 256, 128}};
  for (auto [m, n, k] : sizes) {
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
    Problem p = makeProblem(m, n, k, kind.bytes, kind.draw);
    p.aMnMajor = kind.aMnMajor;
    p.bMnMajor = kind.bMnMajor;
    rt::Status status = kind.run(p);
    ASSERT_TRUE(status) << status.error();
    size_t mismatches = 0;
    for (uint32_t i = 0; i < p.m; ++i)
      for (uint32_t j = 0; j < p.n; ++j) {
        uint32_t want;
        if (kind.integer) {
          int32_t sum = 0;
          for (uint32_t kk = 0; kk < p.k; ++kk)
            sum += int32_t(p.aAt(i, kk) * p.bAt(j, kk));
          want = uint32_t(sum);
        } else {
          float sum = 0;
          for (uint32_t kk = 0; kk < p.k; ++kk)
            sum += float(p.aAt(i, kk) * p.bAt(j, kk));
          std::memcpy(&want, &sum, 4);
        }
        uint32_t got = p.c[size_t(i) * p.n + j];
        if (got != want && mismatches++ < 5)
          ADD_FAILURE() << "C[" << i << ", " << j << "] = 0x" << std::hex << got << ", expected 0x"
                        << want;
      }
    EXPECT_EQ(mismatches, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, GemmKindsLinked, ::testing::Range(0, 11),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return std::string(kinds()[info.param].name);
                         });

} // namespace
} // namespace cutec
