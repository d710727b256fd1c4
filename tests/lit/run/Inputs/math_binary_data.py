"""math_binary_data.py DIR data|check: inputs for math_binary.cute, and the
check of its results against NumPy, bit for bit: max/min return the non-NaN
operand of a NaN and a number, the canonical NaN 0x7FFFFFFF for two NaNs,
and +0 for max(+0, -0) (-0 for min); copysign and abs move only the sign
bit; fma rounds once; the integer forms are signed (i32) or unsigned
(u32)."""
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from fma_f32 import fma_f32  # noqa: E402

N = 4096
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-45, -1e-45, 3.4e38]


def floats(rng, count):
    v = (rng.standard_normal(count) * np.exp2(rng.integers(-30, 30, count))).astype(np.float32)
    grid = np.array(SPECIALS, dtype=np.float32)
    v[: len(grid) ** 2] = np.repeat(grid, len(grid))
    return v


def write(directory):
    rng = np.random.default_rng(11)
    a = floats(rng, N)
    b = floats(rng, N)
    b[: len(SPECIALS) ** 2] = np.tile(np.array(SPECIALS, dtype=np.float32), len(SPECIALS))
    b[len(SPECIALS) ** 2: len(SPECIALS) ** 2 + 8] = np.array([0x7FC00001, 0xFFC00002] * 4,
                                                             dtype=np.uint32).view(np.float32)
    c = (rng.standard_normal(N) * 100).astype(np.float32)
    p = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    q = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    p[:4] = [-2**31, 2**31 - 1, -1, 0]
    s = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    t = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    for name, v in dict(a=a, b=b, c=c, p=p, q=q, s=s, t=t).items():
        np.save(f"{directory}/{name}.npy", v)


def max_min_f32(x, y, larger):
    out = np.where(larger(x, y), x, y)
    both_zero = (x == 0) & (y == 0)
    zero_sign = np.signbit(x) & np.signbit(y) if larger is np.greater else np.signbit(x) | np.signbit(y)
    out = np.where(both_zero, np.where(zero_sign, np.float32(-0.0), np.float32(0.0)), out)
    out = np.where(np.isnan(x), y, np.where(np.isnan(y), x, out))
    canonical = np.array([0x7FFFFFFF], dtype=np.uint32).view(np.float32)[0]
    return np.where(np.isnan(x) & np.isnan(y), canonical, out).astype(np.float32)


def bits(v):
    return v.view(np.uint32)


def check(directory):
    a, b, c, p, q, s, t = (np.load(f"{directory}/{n}.npy") for n in "abcpqst")
    f = np.load(f"{directory}/f.npy").reshape(N, 6)
    n = np.load(f"{directory}/n.npy").reshape(N, 4)
    u = np.load(f"{directory}/u.npy").reshape(N, 2)
    sign = np.uint32(0x80000000)
    finite = np.isfinite(a) & np.isfinite(b)
    checks = {
        "max f32": np.array_equal(bits(f[:, 0]), bits(max_min_f32(a, b, np.greater))),
        "min f32": np.array_equal(bits(f[:, 1]), bits(max_min_f32(a, b, np.less))),
        "copysign": np.array_equal(bits(f[:, 2]), (bits(a) & ~sign) | (bits(b) & sign)),
        "fma": np.array_equal(bits(f[finite, 3]), bits(fma_f32(a[finite], b[finite], c[finite]))),
        "max with a literal": np.array_equal(
            bits(f[:, 4]), bits(max_min_f32(a, np.zeros_like(a), np.greater))),
        "abs f32": np.array_equal(bits(f[:, 5]), bits(b) & ~sign),
        "max i32": np.array_equal(n[:, 0], np.maximum(p, q)),
        "min i32": np.array_equal(n[:, 1], np.minimum(p, q)),
        "abs i32": np.array_equal(n[:, 2], np.abs(p)),  # abs(-2^31) wraps, as abs.s32
        "min i32 with a literal": np.array_equal(n[:, 3], np.minimum(p, 7)),
        "max u32": np.array_equal(u[:, 0], np.maximum(s, t)),
        "min u32": np.array_equal(u[:, 1], np.minimum(s, t)),
    }
    for name, ok in checks.items():
        print(f"{name}: {'ok' if ok else 'MISMATCH'}")
    # The canonical NaN of two NaNs and the non-NaN of one must both occur.
    two_nans = np.isnan(a) & np.isnan(b)
    assert two_nans.any() and (np.isnan(a) & ~np.isnan(b)).any()
    return all(checks.values())


if __name__ == "__main__":
    if sys.argv[2] == "data":
        write(sys.argv[1])
    else:
        sys.exit(0 if check(sys.argv[1]) else 1)
