//===- ExpandMath.cpp - Math functions as exactly rounded operations ------===//
//
// PTX computes rsqrt, exp2, lg2 and tanh in one instruction only
// approximately (the special-function unit, `ex2.approx` and friends). The
// user asks for exp2, exp and rsqrt so with fastmath=True, and for rcp with
// rcp_approx (`math.call` "exp2.approx" ...: isel selects the instruction;
// "exp.approx" becomes a product by log2(e) here, then "exp2.approx").
// Otherwise this pass writes
// `math.call` rsqrt, exp, exp2, log, log2 and tanh as sequences of
// operations that PTX rounds exactly (add/sub/mul/div/fma .rn, sqrt.rn,
// comparisons, selects, integer arithmetic on the bits), which the
// emulation then executes bit for bit like the GPU. max, min, abs,
// copysign and sqrt stay: each is one exact instruction (isel).
//
//   exp2(x), exp(x)  x = j + r/ln2 with j an integer (the 1.5 * 2^23
//                    rounding trick; for exp Cody-Waite: r = x - j*ln2 with
//                    ln2 in two parts and fma), e^r by a degree-6
//                    polynomial on |r| <= ln2/2, times 2^j as two powers of
//                    two made from exponent bits (so 2^j needs no
//                    subnormal or infinite factor; the second product
//                    rounds once, also into the subnormals). x is first
//                    clamped to where the result is 0 or infinity anyway.
//   log(x), log2(x)  x = 2^e * m with m in [sqrt(1/2), sqrt(2)) from the
//                    bits (subnormals scaled by 2^23 first), then
//                    log(m) = f + f^2 Q(f), f = m - 1 (exact), Q of degree 8,
//                    and e * ln2 added in two parts (log2: e + f log2(e) +
//                    f^2 Q2(f)). Zero, negatives, infinity and NaN are
//                    selected at the end.
//   tanh(x)          x + x^3 P(x^2) (degree 4) below |x| = 0.55, otherwise
//                    1 - 2 / (exp(2|x|) + 1); then x's sign.
//   rsqrt(x)         1 / sqrt(x), both rounded to nearest.
//
// The polynomials are weighted least-squares fits driven to minimax
// (Lawson's iteration), their coefficients rounded to f32 one at a time
// with the rest refitted (tools/fit_math_polynomials.py). The errors that
// tests/lit/run/math-functions.test measures are in docs/language.md.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "ir/core/Builder.h"

#include <cmath>

namespace cutec {
namespace {

namespace attr = ir::attr;
using ir::DataType;
using ir::OpKind;
using ir::Value;

// e^r = 1 + r + r^2 (c0 + c1 r + ... + c4 r^4), |r| <= 0.347.
constexpr float kExpQ[] = {0x1p-1f, 0x1.55549p-3f, 0x1.5554c2p-5f, 0x1.123ae2p-7f,
                           0x1.6d7814p-10f};
// log(1 + f) = f + f^2 (c0 + c1 f + ... + c8 f^8), f in [sqrt(1/2) - 1, sqrt(2) - 1).
constexpr float kLogQ[] = {-0x1.fffff8p-2f, 0x1.55555p-2f,   -0x1.000432p-2f,
                           0x1.99a416p-3f,  -0x1.5425cp-3f,  0x1.226e6ep-3f,
                           -0x1.0f405p-3f,  0x1.085db6p-3f,  -0x1.383b8p-4f};
// log2(1 + f) = f log2(e) + f^2 (c0 + c1 f + ... + c8 f^8), the same f.
constexpr float kLog2Q[] = {-0x1.71547p-1f,  0x1.ec7094p-2f, -0x1.715afcp-2f,
                            0x1.277f42p-2f,  -0x1.eaa2dcp-3f, 0x1.a2caaap-3f,
                            -0x1.87f2eep-3f, 0x1.7f1fcap-3f,  -0x1.c3a1b8p-4f};
// tanh(x) = x + x^3 (c0 + c1 x^2 + ... + c4 x^8), |x| < 0.55.
constexpr float kTanhP[] = {-0x1.55554cp-2f, 0x1.110d6ap-3f, -0x1.b93204p-5f, 0x1.598308p-6f,
                            -0x1.9c9994p-8f};

constexpr float kLn2Hi = 0x1.62e43p-1f;       // ln 2 rounded to f32
constexpr float kLn2Lo = -0x1.05c61p-29f;     // ln 2 - kLn2Hi
constexpr float kLog2eHi = 0x1.715476p+0f;    // log2(e) rounded to f32
constexpr float kLog2eLo = 0x1.4ae0cp-26f;    // log2(e) - kLog2eHi
constexpr float kRoundingShift = 0x1.8p+23f;  // x + 1.5 * 2^23 - 1.5 * 2^23 rounds x to an integer
constexpr float kSmallestNormal = 0x1p-126f;
constexpr int64_t kSqrtHalfBits = 0x3F3504F3; // the f32 bits of sqrt(1/2)
constexpr int64_t kMantissaStep = int64_t(1) << 23;
constexpr int64_t kCanonicalNaN = 0x7FFFFFFF;

/// Builds the expansions in front of one `math.call`.
class Expander {
public:
  Expander(ir::Operation &call) : loc(call.loc()) { b.setInsertionPoint(call); }

  Value *expand(llvm::StringRef fn, Value *x) {
    if (fn == "rsqrt")
      return div(f32(1), math("sqrt", {x}));
    if (fn == "exp2") {
      Value *clamped = clamp(x, -151, 129);
      Value *j = roundToInteger(clamped, nullptr);
      return expTimesPow2(j, mul(sub(clamped, j), f32(kLn2Hi)));
    }
    if (fn == "exp")
      return exp(x);
    // CUDA's __expf: x * log2(e) (rounded to f32), then the unit's 2^x.
    if (fn == "exp.approx")
      return math("exp2.approx", {mul(x, f32(kLog2eHi))});
    if (fn == "log" || fn == "log2")
      return log(x, fn == "log2");
    if (fn == "tanh")
      return tanh(x);
    return nullptr;
  }

private:
  ir::Builder b;
  llvm::SMLoc loc;

  Value *f32(double v) { return b.constantFloat(loc, DataType::F32, v); }
  Value *i32(int64_t v) { return b.constantInt(loc, DataType::I32, v); }
  Value *binary(OpKind kind, Value *x, Value *y) {
    return b.createValue(kind, loc, x->type(), {x, y});
  }
  Value *add(Value *x, Value *y) { return binary(OpKind::Add, x, y); }
  Value *sub(Value *x, Value *y) { return binary(OpKind::Sub, x, y); }
  Value *mul(Value *x, Value *y) { return binary(OpKind::Mul, x, y); }
  Value *div(Value *x, Value *y) { return binary(OpKind::Div, x, y); }
  Value *fma(Value *x, Value *y, Value *z) {
    return b.createValue(OpKind::Fma, loc, x->type(), {x, y, z});
  }
  Value *compare(const char *predicate, Value *x, Value *y) {
    ir::Operation &cmp =
        b.create(OpKind::Cmp, loc, {x, y}, {ir::Type::scalar(DataType::Bool)});
    cmp.set(attr::predicate, std::string(predicate));
    return cmp.result();
  }
  Value *select(Value *condition, Value *ifTrue, Value *ifFalse) {
    return b.createValue(OpKind::Select, loc, ifTrue->type(), {condition, ifTrue, ifFalse});
  }
  Value *as(DataType type, OpKind kind, Value *x) {
    return b.createValue(kind, loc, ir::Type::scalar(type), {x});
  }
  Value *math(llvm::StringRef fn, llvm::ArrayRef<Value *> operands) {
    ir::Operation &op = b.create(OpKind::MathCall, loc, operands, {operands[0]->type()});
    op.set(attr::fn, fn.str());
    return op.result();
  }
  Value *horner(Value *x, llvm::ArrayRef<float> coefficients) {
    Value *p = f32(coefficients.back());
    for (size_t i = coefficients.size() - 1; i-- > 0;)
      p = fma(p, x, f32(coefficients[i]));
    return p;
  }

  /// x limited to [lo, hi]; a NaN stays (both comparisons are false).
  Value *clamp(Value *x, double lo, double hi) {
    Value *low = select(compare("lt", x, f32(lo)), f32(lo), x);
    return select(compare("gt", low, f32(hi)), f32(hi), low);
  }

  /// The integer nearest x * scale (x when scale is null), as an f32; |x *
  /// scale| < 2^22.
  Value *roundToInteger(Value *x, Value *scale) {
    Value *shifted = scale ? fma(x, scale, f32(kRoundingShift)) : add(x, f32(kRoundingShift));
    return sub(shifted, f32(kRoundingShift));
  }

  /// 2^n for an i32 n in [-126, 127], from its exponent bits.
  Value *pow2(Value *n) {
    Value *bits = mul(add(n, i32(127)), i32(kMantissaStep));
    return as(DataType::F32, OpKind::Bitcast, bits);
  }

  /// e^r * 2^j for |r| <= 0.347 and an integer j in [-151, 129] (an f32).
  Value *expTimesPow2(Value *j, Value *r) {
    Value *q = horner(r, kExpQ);
    Value *er = fma(fma(q, r, f32(1)), r, f32(1));
    Value *n = as(DataType::I32, OpKind::Convert, j);
    Value *half = binary(OpKind::ShiftRight, n, i32(1));
    return mul(mul(er, pow2(half)), pow2(sub(n, half)));
  }

  Value *exp(Value *x) {
    Value *clamped = clamp(x, -104, 89);
    Value *j = roundToInteger(clamped, f32(kLog2eHi));
    Value *r = fma(j, f32(-kLn2Hi), clamped);
    r = fma(j, f32(-kLn2Lo), r);
    return expTimesPow2(j, r);
  }

  Value *log(Value *x, bool base2) {
    Value *subnormal = compare("lt", x, f32(kSmallestNormal));
    Value *scaled = select(subnormal, mul(x, f32(double(kMantissaStep))), x);
    Value *bits = as(DataType::I32, OpKind::Bitcast, scaled);
    Value *e = binary(OpKind::ShiftRight, sub(bits, i32(kSqrtHalfBits)), i32(23));
    Value *m = as(DataType::F32, OpKind::Bitcast, sub(bits, mul(e, i32(kMantissaStep))));
    Value *ef = sub(as(DataType::F32, OpKind::Convert, e), select(subnormal, f32(23), f32(0)));
    Value *f = sub(m, f32(1));
    Value *f2 = mul(f, f);
    Value *result;
    if (base2) {
      Value *tail = mul(f2, horner(f, kLog2Q));
      result = add(ef, fma(f, f32(kLog2eHi), fma(f, f32(kLog2eLo), tail)));
    } else {
      Value *logM = fma(f2, horner(f, kLogQ), f);
      result = fma(ef, f32(kLn2Hi), fma(ef, f32(kLn2Lo), logM));
    }
    // +inf and NaN give themselves, zeros -inf, negatives NaN.
    result = select(compare("lt", x, f32(INFINITY)), result, x);
    result = select(compare("eq", x, f32(0)), f32(-INFINITY), result);
    Value *nan = as(DataType::F32, OpKind::Bitcast, i32(kCanonicalNaN));
    return select(compare("lt", x, f32(0)), nan, result);
  }

  Value *tanh(Value *x) {
    Value *magnitude = math("abs", {x});
    Value *x2 = mul(x, x);
    Value *nearZero = fma(mul(x, x2), horner(x2, kTanhP), x);
    Value *e = exp(add(magnitude, magnitude));
    Value *away = sub(f32(1), div(f32(2), add(e, f32(1))));
    // The sign at the end: x + x^3 P(x^2) would make tanh(-0) +0.
    Value *result = select(compare("lt", magnitude, f32(0.55)), nearZero, away);
    return math("copysign", {result, x});
  }
};

class ExpandMathPass : public Pass {
public:
  llvm::StringRef name() const override { return "expand-math"; }
  void run(ir::Operation &kernel, PassContext &) override {
    for (ir::Operation *call : ir::collect(kernel, OpKind::MathCall)) {
      Value *expanded = Expander(*call).expand(*call->get(attr::fn), call->operand(0));
      if (!expanded)
        continue;
      ir::replaceAllUsesWith(kernel, call->result(), expanded);
      ir::erase(*call);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createExpandMathPass() { return std::make_unique<ExpandMathPass>(); }

} // namespace cutec
