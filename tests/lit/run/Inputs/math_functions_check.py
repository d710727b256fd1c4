"""math_functions_check.py DIR MODE

MODE `data`: writes DIR/x.npy, f32 inputs: every special value (zeros,
infinities, NaNs, the smallest and largest subnormals and normals, the
functions' overflow and underflow edges), then a sample spread over all
2^32 bit patterns.

MODE `check`: compares DIR/out.npy (math_functions.cute's results) with a
float64 reference (NumPy's, whose error is far below an f32 ulp): the error
in units in the last place of the correctly rounded f32 result must stay
within each function's documented bound, and the special values must come
out exactly as docs/language.md says. Prints the largest error of each.
"""
import sys

import numpy as np

# name, reference in float64, bound in ulps (docs/language.md)
FUNCTIONS = [
    ("exp", np.exp, 1.0),
    ("exp2", np.exp2, 1.0),
    ("log", np.log, 1.0),
    ("log2", np.log2, 1.0),
    ("tanh", np.tanh, 1.5),
    ("rsqrt", lambda v: 1 / np.sqrt(v), 1.5),
    ("sqrt", np.sqrt, 0.5),
    ("abs", np.abs, 0.0),
]

SPECIALS = np.array(
    [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, 0.5, 88.72283, 88.72284, -87.33655,
     -103.97208, -103.97209, 127.99999, 128.0, -126.0, -149.0, -149.5, -150.0, -151.0, 1e-30,
     10.0, 9.0, -9.0, 0.55, -0.55, 0.549999, 1e-20],
    dtype=np.float32)
SPECIAL_BITS = np.array([0x00000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x80000001, 0x807FFFFF,
                         0x7FC00000, 0xFFC00000, 0x7F800001, 0x3F800001, 0x3F7FFFFF],
                        dtype=np.uint32).view(np.float32)


def inputs(count):
    rng = np.random.default_rng(2024)
    sample = rng.integers(0, 2**32, size=count, dtype=np.uint64).astype(np.uint32).view(np.float32)
    near_one = (1 + rng.standard_normal(count // 8) * 1e-3).astype(np.float32)
    moderate = (rng.standard_normal(count // 8) * 30).astype(np.float32)
    return np.concatenate([SPECIALS, SPECIAL_BITS, near_one, moderate, sample])


def ulp_error(got, ref):
    """|got - ref| in ulps of the f32 nearest ref (2^-149 below the normals)."""
    magnitude = np.abs(ref)
    exponent = np.floor(np.log2(np.where(magnitude > 0, magnitude, 1.0)))
    ulp = np.exp2(np.maximum(exponent - 23, -149))
    return np.abs(got.astype(np.float64) - ref) / ulp


def check(x, out):
    ok = True
    xd = x.astype(np.float64)
    for f, (name, reference, bound) in enumerate(FUNCTIONS):
        got = out[:, f]
        with np.errstate(all="ignore"):
            ref = reference(xd)
        nan = np.isnan(ref)
        # Results beyond the f32 range round to infinity, tiny ones to zero
        # or the smallest subnormal: those compare as values in f32.
        f32_ref = ref.astype(np.float32)
        exact_kind = nan | np.isinf(f32_ref)
        bad_nan = nan != np.isnan(got)
        bad_inf = (~nan & np.isinf(f32_ref)) & (got != f32_ref)
        finite = ~exact_kind
        with np.errstate(all="ignore"):
            err = ulp_error(got[finite], ref[finite])
        worst = float(np.max(err, initial=0.0))
        # Signed zeros: a zero result keeps the reference's sign.
        zero = finite & (ref == 0)
        bad_zero = zero & (np.signbit(got) != np.signbit(ref))
        failures = int(bad_nan.sum() + bad_inf.sum() + bad_zero.sum() + (err > bound).sum())
        print(f"{name}: {finite.sum()} finite results, max error {worst:.3f} ulp "
              f"(bound {bound}), {failures} failures")
        if failures:
            ok = False
            idx = np.flatnonzero(bad_nan | bad_inf | bad_zero)[:5]
            for i in idx:
                print(f"  x={x[i]!r} got {got[i]!r} want {ref[i]!r}")
    return ok


def main():
    directory, mode = sys.argv[1], sys.argv[2]
    if mode == "data":
        np.save(f"{directory}/x.npy", inputs(int(sys.argv[3])))
        return 0
    x = np.load(f"{directory}/x.npy")
    out = np.load(f"{directory}/out.npy").reshape(len(x), len(FUNCTIONS))
    return 0 if check(x, out) else 1


if __name__ == "__main__":
    sys.exit(main())
