"""comparisons_data.py DIR data|check: the inputs of comparisons.cute, the
cross product of each type's special values (NaN of both signs, +-0,
+-inf, the smallest and largest subnormal and the largest finite value of
both signs, 1.0) and a few random ones, and the check of its 0/1 results
against NumPy's comparisons (bf16, which NumPy lacks, as its exact f32
widening). Also imported by tests/python/gpu_cases.py."""
import math
import operator
import sys

import numpy as np

OPERATORS = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]
# The compile-time comparisons of comparisons.cute, in its order.
FOLDED = [2**53 + 1 > 9007199254740992.0, 9007199254740992.0 < 2**53 + 1,
          2**53 + 1 == 9007199254740992.0, -0.0 == 0, 0.5 != 0,
          -2**62 * 2 <= -9223372036854775808.0, 1e300 > 2**62, 1.5 >= 2,
          float('nan') != float('nan'), math.nan == math.nan, math.inf > 2**62,
          -math.inf <= math.nan]


def specials(bits_of, sign, exponent_bits, mantissa_bits):
    """The special values of a format as bit patterns."""
    inf = ((1 << exponent_bits) - 1) << mantissa_bits
    positive = [0, 1, (1 << mantissa_bits) - 1, inf - 1, inf, inf | (1 << (mantissa_bits - 1)),
                inf | 1, bits_of(1.0)]
    return positive + [p | sign for p in positive]


def f32_bits(v):
    return int(np.array(v, np.float32).view(np.uint32))


def f16_bits(v):
    return int(np.array(v, np.float16).view(np.uint16))


def values(rng):
    """Each type's values: the specials, then random ones of every magnitude."""
    f32 = specials(f32_bits, 1 << 31, 8, 23)
    f16 = specials(f16_bits, 1 << 15, 5, 10)
    bf16 = specials(lambda v: f32_bits(v) >> 16, 1 << 15, 8, 7)
    r32 = (rng.standard_normal(6) * np.exp2(rng.integers(-30, 30, 6))).astype(np.float32)
    f32 += [int(w) for w in r32.view(np.uint32)] + [f32_bits(r32[0])]
    r16 = (rng.standard_normal(6) * np.exp2(rng.integers(-20, 14, 6))).astype(np.float16)
    f16 += [int(w) for w in r16.view(np.uint16)] + [int(r16[:1].view(np.uint16)[0])]
    bf16 += [int(w) >> 16 for w in r32.view(np.uint32)] + [f32_bits(r32[0]) >> 16]
    return (np.array(f32, np.uint32).view(np.float32), np.array(f16, np.uint16).view(np.float16),
            np.array(bf16, np.uint16))


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def inputs():
    """The pairs (a, b) of each type, the cross product of its values."""
    f32, f16, bf16 = values(np.random.default_rng(25))
    pair = lambda v: (np.repeat(v, len(v)), np.tile(v, len(v)))
    (a, b), (ah, bh), (ab, bb) = pair(f32), pair(f16), pair(bf16)
    return dict(a=a, b=b, ah=ah, bh=bh, ab=ab, bb=bb)


def expected(i):
    """NumPy's answers, as comparisons.cute lays them out."""
    columns = [op(x, y) for x, y in [(i["a"], i["b"]), (i["ah"], i["bh"]),
                                     (bf16_to_f32(i["ab"]), bf16_to_f32(i["bb"]))]
               for op in OPERATORS]
    columns += [~(i["a"] == i["b"]), i["a"] != np.float32(0.0)]
    return {"r": np.stack(columns, axis=1).astype(np.int32),
            "folded": np.array(FOLDED, np.int32)}


def check(directory):
    i = {name: np.load(f"{directory}/{name}.npy") for name in inputs()}
    want = expected(i)
    ok = True
    for name, w in want.items():
        got = np.load(f"{directory}/{name}.npy").reshape(w.shape)
        for row, col in np.argwhere(got != w)[:10]:
            ok = False
            print(f"{name}[{row}, {col}]: got {got[row, col]}, NumPy says {w[row, col]}"
                  + (f" for column {col} of a={i['a'][row]!r} b={i['b'][row]!r}"
                     if name == "r" else ""))
    print("comparisons:", "ok" if ok else "MISMATCH")
    return ok


if __name__ == "__main__":
    if sys.argv[2] == "data":
        for name, v in inputs().items():
            np.save(f"{sys.argv[1]}/{name}.npy", v)
        print(len(inputs()["a"]))
    else:
        sys.exit(0 if check(sys.argv[1]) else 1)
