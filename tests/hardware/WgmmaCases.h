// The inputs of the wgmma numerics check (tests/hardware/WgmmaNumericsCheck.cu):
// the wgmma forms it runs, and random tiles of A, B and C drawn from a few
// patterns, each a function of a seed so that any program can rebuild a
// tile the GPU computed. Plain C++ (the .cu's host code and host tools).
#pragma once

#include "runtime/numerics/FloatFormat.h"
#include "runtime/numerics/WgmmaNumerics.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace cutec::wgmmacheck {

using rt::WgmmaAccum;
using rt::WgmmaElement;
using rt::WgmmaKind;

/// The forms, in the order of tests/hardware/WgmmaInstructions.inc.
inline const std::vector<WgmmaKind> &wgmmaForms() {
  using E = WgmmaElement;
  using D = WgmmaAccum;
  static const std::vector<WgmmaKind> forms = {
      {E::F16, E::F16, D::F32},   {E::F16, E::F16, D::F16},   {E::BF16, E::BF16, D::F32},
      {E::TF32, E::TF32, D::F32}, {E::E4M3, E::E4M3, D::F32}, {E::E4M3, E::E5M2, D::F32},
      {E::E5M2, E::E4M3, D::F32}, {E::E5M2, E::E5M2, D::F32}, {E::E4M3, E::E4M3, D::F16},
      {E::E5M2, E::E5M2, D::F16}, {E::S8, E::S8, D::S32},     {E::U8, E::U8, D::S32},
      {E::S8, E::U8, D::S32},     {E::U8, E::S8, D::S32},     {E::S8, E::S8, D::S32, true},
  };
  return forms;
}

/// How a tile's values are drawn.
enum class Pattern : uint8_t {
  /// Small integers: every model gives the exact sum (checks the layouts).
  Exact,
  /// Every finite code, a few NaN and Inf codes.
  Full,
  /// Magnitudes within a factor 4 of 1 (rounding of close sums).
  Narrow,
  /// Magnitudes within 2^±12 of 1 (alignment shifts).
  Wide,
  /// The smallest exponents: subnormal operands and tiny products.
  Tiny,
  /// One product per row 2^4..2^7 times larger than the others.
  OneBig,
  /// The second half of K cancels the first up to a few low bits.
  Cancel,
  /// Narrow values with NaN, ±Inf and ±0 mixed in.
  Special,
  /// Wide values; tf32 operands keep random bits below the 19 they use.
  LowBits,
};
inline constexpr unsigned kPatternCount = 9;
inline const char *patternName(Pattern p) {
  static const char *const names[] = {"exact", "full",   "narrow",  "wide",    "tiny",
                                      "onebig", "cancel", "special", "lowbits"};
  return names[unsigned(p)];
}

/// splitmix64: the same stream on every host.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  int range(int lo, int hi) { return lo + int(next() % uint64_t(hi - lo + 1)); }
  bool chance(unsigned percent) { return next() % 100 < percent; }
};

/// One tile: A is 64 rows, B is N rows, each of `instructions` * 32 bytes
/// (element k of row r at byte r * rowBytes + k * elementBytes, little
/// endian); C and D are 64 x N cells of 32 bits, row-major (an f16
/// accumulator in the low 16 bits).
struct Tile {
  unsigned n = 0, instructions = 0;
  std::vector<uint8_t> a, b;
  std::vector<uint32_t> c;
  unsigned rowBytes() const { return instructions * 32; }
};

inline const rt::FloatFormat &elementFormat(WgmmaElement e) {
  switch (e) {
  case WgmmaElement::BF16:
    return rt::kBF16;
  case WgmmaElement::TF32:
    return rt::kTF32;
  case WgmmaElement::E4M3:
    return rt::kE4M3;
  case WgmmaElement::E5M2:
    return rt::kE5M2;
  default:
    return rt::kF16;
  }
}

/// A float code of `f` with its exponent field in [lo, hi] (clamped to the
/// format's finite range) and a random mantissa and sign.
inline uint32_t codeWithExponent(const rt::FloatFormat &f, Rng &rng, int lo, int hi) {
  const int top = (1 << f.expBits) - 1;
  const int maxField = f.specials == rt::Specials::Ieee ? top - 1 : top;
  lo = lo < 0 ? 0 : lo > maxField ? maxField : lo;
  hi = hi < lo ? lo : hi > maxField ? maxField : hi;
  for (;;) {
    const uint32_t e = uint32_t(rng.range(lo, hi));
    const uint32_t code = uint32_t(rng.next() & f.signBit()) | e << f.manBits |
                          uint32_t(rng.next() & ((1u << f.manBits) - 1));
    if (!rt::isNaNCode(f, code))
      return code;
  }
}

/// A NaN, ±Inf or ±0 code of `f` (Inf only where the format has one).
inline uint32_t specialCode(const rt::FloatFormat &f, Rng &rng) {
  const uint32_t sign = uint32_t(rng.next() & f.signBit());
  const uint32_t expOnes = ((1u << f.expBits) - 1) << f.manBits;
  const uint32_t manMask = (1u << f.manBits) - 1;
  switch (rng.range(0, 3)) {
  case 0:
    if (f.specials == rt::Specials::Ieee) // any payload
      return sign | expOnes | uint32_t(1 + rng.next() % manMask);
    return sign | expOnes | manMask;
  case 1:
    if (f.specials == rt::Specials::Ieee)
      return sign | expOnes;
    return sign | expOnes | manMask;
  default:
    return sign;
  }
}

/// Exponent-field range of pattern `p` for format `f`.
inline void exponentRange(const rt::FloatFormat &f, Pattern p, int &lo, int &hi) {
  const int top = (1 << f.expBits) - 1;
  switch (p) {
  case Pattern::Full:
    lo = 0, hi = top;
    return;
  case Pattern::Tiny:
    lo = 0, hi = 2;
    return;
  case Pattern::Wide:
  case Pattern::LowBits:
    lo = f.bias - 12, hi = f.bias + 12;
    return;
  case Pattern::OneBig:
    lo = f.bias - 10, hi = f.bias - 1;
    return;
  default:
    lo = f.bias - 2, hi = f.bias + 2;
    return;
  }
}

/// A random code of element type `e` for pattern `p`.
inline uint32_t elementCode(WgmmaElement e, Pattern p, Rng &rng) {
  if (e == WgmmaElement::S8 || e == WgmmaElement::U8) {
    if (p == Pattern::Exact)
      return uint32_t(rng.range(0, 3)) | (e == WgmmaElement::S8 && rng.chance(50) ? 0xFCu : 0);
    return uint32_t(rng.next() & 0xFF);
  }
  const rt::FloatFormat &f = elementFormat(e);
  uint32_t code;
  if (p == Pattern::Exact) {
    const float v = float(rng.range(-2, 2));
    code = rt::encode(f, v);
  } else if ((p == Pattern::Special && rng.chance(6)) || (p == Pattern::Full && rng.chance(1))) {
    code = specialCode(f, rng);
  } else {
    int lo, hi;
    exponentRange(f, p, lo, hi);
    code = codeWithExponent(f, rng, lo, hi);
  }
  if (e != WgmmaElement::TF32)
    return code;
  code <<= 13;
  if (p == Pattern::LowBits)
    code |= uint32_t(rng.next() & 0x1FFF);
  return code;
}

inline void putElement(uint8_t *row, unsigned k, unsigned bytes, uint32_t code) {
  for (unsigned i = 0; i < bytes; ++i)
    row[k * bytes + i] = uint8_t(code >> (8 * i));
}
inline uint32_t getElement(const uint8_t *row, unsigned k, unsigned bytes) {
  uint32_t code = 0;
  for (unsigned i = 0; i < bytes; ++i)
    code |= uint32_t(row[k * bytes + i]) << (8 * i);
  return code;
}

/// Exponent (unbiased) of the element's value, or INT32_MIN for zero/specials.
inline int exponentOf(WgmmaElement e, uint32_t code) {
  const rt::FloatFormat &f = elementFormat(e);
  const float v = rt::decode(f, e == WgmmaElement::TF32 ? code >> 13 : code);
  if (!(v != 0) || v - v != 0)
    return INT32_MIN;
  int exp = 0;
  for (float m = v < 0 ? -v : v; m >= 2; m /= 2)
    ++exp;
  for (float m = v < 0 ? -v : v; m < 1; m *= 2)
    --exp;
  return exp;
}

/// An accumulator code for pattern `p` near the size of a product of two
/// operands of the pattern (so that neither hides the other), sometimes 0.
inline uint32_t accumulatorCode(const WgmmaKind &type, Pattern p, Rng &rng) {
  if (type.d == WgmmaAccum::S32) {
    if (p == Pattern::Exact)
      return uint32_t(rng.range(-100, 100));
    if (p == Pattern::Full)
      return uint32_t(rng.next());
    // Near the ends of the s32 range, where the sum wraps or clamps.
    const uint32_t offset = uint32_t(rng.next() % (1u << 18));
    return rng.chance(50) ? 0x7FFFFFFFu - offset : 0x80000000u + offset;
  }
  if (p == Pattern::Exact)
    return type.d == WgmmaAccum::F16 ? rt::encode(rt::kF16, float(rng.range(-8, 8)))
                                     : rt::encode(rt::kBF16, float(rng.range(-8, 8))) << 16;
  if (rng.chance(15))
    return rng.chance(50) ? (type.d == WgmmaAccum::F16 ? 0x8000u : 0x80000000u) : 0;
  if ((p == Pattern::Special && rng.chance(10)) || (p == Pattern::Full && rng.chance(2))) {
    const uint32_t s = specialCode(rt::kF16, rng);
    if (type.d == WgmmaAccum::F16)
      return s;
    // The f32 code with the same sign, class and (shifted) payload.
    const uint32_t sign = (s & 0x8000u) << 16, exp = (s >> 10) & 0x1F, man = s & 0x3FF;
    return exp == 0x1F ? sign | 0x7F800000u | man << 13 | (man ? uint32_t(rng.next() & 0x1FFF) : 0)
                       : sign;
  }
  // A product-sized exponent: two operand exponents and a small offset.
  const int ea = exponentOf(type.a, elementCode(type.a, p, rng));
  const int eb = exponentOf(type.b, elementCode(type.b, p, rng));
  if (ea == INT32_MIN || eb == INT32_MIN)
    return 0;
  int e = ea + eb + rng.range(-3, 3);
  if (p == Pattern::Full && rng.chance(30))
    e = rng.range(-150, 128);
  const uint32_t sign = rng.chance(50) ? 1 : 0;
  if (type.d == WgmmaAccum::F16) {
    const int field = e + 15 < 0 ? 0 : e + 15 > 30 ? 30 : e + 15;
    return sign << 15 | uint32_t(field) << 10 | uint32_t(rng.next() & 0x3FF);
  }
  const int field = e + 127 < 0 ? 0 : e + 127 > 254 ? 254 : e + 127;
  return sign << 31 | uint32_t(field) << 23 | uint32_t(rng.next() & 0x7FFFFF);
}

/// The tile of (form, n, instructions, pattern, seed).
inline Tile makeTile(const WgmmaKind &type, unsigned n, unsigned instructions, Pattern p,
                     uint64_t seed) {
  Tile t;
  t.n = n;
  t.instructions = instructions;
  const unsigned bytes = rt::wgmmaElementBytes(type.a);
  const unsigned kTotal = instructions * rt::wgmmaK(type.a);
  t.a.assign(size_t(64) * t.rowBytes(), 0);
  t.b.assign(size_t(n) * t.rowBytes(), 0);
  t.c.assign(size_t(64) * n, 0);
  Rng rng(seed * 0x2545F4914F6CDD1Dull + 1);
  auto fill = [&](std::vector<uint8_t> &m, unsigned rows, WgmmaElement e, bool big) {
    for (unsigned r = 0; r < rows; ++r) {
      uint8_t *row = m.data() + size_t(r) * t.rowBytes();
      for (unsigned k = 0; k < kTotal; ++k)
        putElement(row, k, bytes, elementCode(e, p, rng));
      if (big) { // OneBig: one large element in A's row
        const rt::FloatFormat &f = elementFormat(e);
        putElement(row, unsigned(rng.range(0, int(kTotal) - 1)), bytes,
                   codeWithExponent(f, rng, f.bias + 3, f.bias + 6)
                       << (e == WgmmaElement::TF32 ? 13 : 0));
      }
      if (p == Pattern::Cancel) { // second half: -first half, low bits changed
        const unsigned half = kTotal / 2;
        for (unsigned k = 0; k < half; ++k) {
          uint32_t code = getElement(row, k, bytes);
          if (&m == &t.a) {
            const unsigned shift = e == WgmmaElement::TF32 ? 13 : 0;
            const rt::FloatFormat &f = elementFormat(e);
            code ^= f.signBit() << shift;
            code ^= uint32_t(rng.range(0, 3)) << shift;
            if (rt::isNaNCode(f, code >> shift))
              code ^= 1u << shift;
          }
          putElement(row, half + k, bytes, code);
        }
      }
    }
  };
  const bool isFloat = type.d != WgmmaAccum::S32;
  fill(t.a, 64, type.a, isFloat && p == Pattern::OneBig);
  fill(t.b, n, type.b, false);
  for (uint32_t &c : t.c)
    c = accumulatorCode(type, p, rng);
  return t;
}

/// A batch of tiles the check runs: `tiles` tiles of one form, N,
/// instruction count and pattern.
struct Batch {
  unsigned form, n, instructions;
  Pattern pattern;
  unsigned tiles;
  /// Another set of tiles for each salt.
  uint64_t salt = 0;
  /// The seed of tile i.
  uint64_t seed(unsigned i) const {
    return ((((uint64_t(form) * 1009 + n) * 101 + instructions) * 31 + unsigned(pattern)) << 20) +
           i + (salt << 40);
  }
};

/// The check's batches: per form and pattern, N = 8 with 1 and 4
/// instructions (K of one and four instructions), N = 64 with 2, and N = 256
/// with 1 and 3. `scale` multiplies the N = 8 tile counts.
inline std::vector<Batch> checkPlan(unsigned scale = 1, uint64_t salt = 0) {
  std::vector<Batch> plan;
  for (unsigned form = 0; form < wgmmaForms().size(); ++form)
    for (unsigned p = 0; p < kPatternCount; ++p) {
      const Pattern pattern = Pattern(p);
      if (pattern == Pattern::LowBits && wgmmaForms()[form].a != WgmmaElement::TF32)
        continue;
      plan.push_back({form, 8, 1, pattern, 4 * scale, salt});
      plan.push_back({form, 8, 4, pattern, 4 * scale, salt});
      plan.push_back({form, 64, 2, pattern, 1, salt});
      if (pattern == Pattern::Full || pattern == Pattern::Narrow || pattern == Pattern::Wide)
        plan.push_back({form, 256, pattern == Pattern::Narrow ? 3u : 1u, pattern, 1, salt});
    }
  return plan;
}

/// The model's D of a tile: each cell's instructions applied in order.
inline std::vector<uint32_t> modelTile(const WgmmaKind &type, const Tile &t) {
  const unsigned K = rt::wgmmaK(type.a), bytes = rt::wgmmaElementBytes(type.a);
  std::vector<uint32_t> d(t.c);
  uint32_t a[32], b[32];
  for (unsigned m = 0; m < 64; ++m)
    for (unsigned n = 0; n < t.n; ++n) {
      uint32_t &cell = d[size_t(m) * t.n + n];
      for (unsigned i = 0; i < t.instructions; ++i) {
        const uint8_t *rowA = t.a.data() + size_t(m) * t.rowBytes() + i * 32;
        const uint8_t *rowB = t.b.data() + size_t(n) * t.rowBytes() + i * 32;
        for (unsigned k = 0; k < K; ++k) {
          a[k] = getElement(rowA, k, bytes);
          b[k] = getElement(rowB, k, bytes);
        }
        cell = rt::wgmmaDot(type, a, b, cell);
      }
    }
  return d;
}

} // namespace cutec::wgmmacheck
