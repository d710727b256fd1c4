"""fma_f32(a, b, c): a * b + c on float32 arrays rounded once to the nearest
f32 (ties to even), as fma.rn.f32 computes it, exactly (with fractions),
for finite inputs. The reference of kernels that cutec compiles with FMA
contraction (--fmad, the default)."""
from fractions import Fraction

import numpy as np

_ULP_EXPONENT_MIN = -149  # the subnormals' spacing
_MANTISSA_BITS = 24


def _round_to_f32(q):
    """The f32 nearest to the rational q (ties to even); infinity past the
    largest finite f32."""
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    q = abs(q)
    exponent = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** exponent > q:
        exponent -= 1
    ulp = max(exponent - (_MANTISSA_BITS - 1), _ULP_EXPONENT_MIN)
    scaled = q / Fraction(2) ** ulp
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    return float(np.float32(sign * n * 2.0 ** ulp))


def _fma(a, b, c):
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    if exact == 0:
        product_negative = np.signbit(a) != np.signbit(b)
        both_negative = product_negative and np.signbit(c) and float(a) * float(b) == 0
        return -0.0 if both_negative else 0.0
    return _round_to_f32(exact)


def fma_f32(a, b, c):
    a, b, c = np.broadcast_arrays(np.asarray(a, np.float32), np.asarray(b, np.float32),
                                  np.asarray(c, np.float32))
    out = np.array([_fma(x, y, z) for x, y, z in zip(a.ravel(), b.ravel(), c.ravel())],
                   dtype=np.float32)
    return out.reshape(a.shape)
