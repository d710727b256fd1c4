"""Inputs and the check of fast-math.test.

  fast_math_check.py DIR data    writes DIR/x.npy (39 f32 inputs)
  fast_math_check.py DIR check   compares DIR/y.npy (39 x 4: exp2, exp, rsqrt,
                                 rcp of each input) with an H100's results

The inputs: special values with the H100's ex2/rsqrt/rcp .approx.ftz
results; samples of the reduced-domain tables the H100 returned
(tests/data/sfu/h100_reduced_domain_samples.npy, one function each); and
for each special value x the f32 product x * log2(e), whose exp2 must be
the exp of x (the unit's exp is ex2.approx of that product).
"""
import os
import sys

import numpy as np

# x, then the H100's ex2, rsqrt and rcp of it.
SPECIALS = [
    (0x00000000, 0x3F800000, 0x7F800000, 0x7F800000),
    (0x80000001, 0x3F800000, 0xFF800000, 0xFF800000),
    (0x3F800000, 0x40000000, 0x3F800000, 0x3F800000),
    (0xBF800000, 0x3F000000, 0x7FFFFFFF, 0xBF800000),
    (0x7F800000, 0x7F800000, 0x00000000, 0x00000000),
    (0xFF800000, 0x00000000, 0x7FFFFFFF, 0x80000000),
    (0x7FC00000, 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF),
    (0x42FFFFFF, 0x7F7FFFA8, 0x3DB504F4, 0x3C000001),
    (0xC2FC0000, 0x00800000, 0x7FFFFFFF, 0xBC020821),
    (0xB4000000, 0x3F7FFFFE, 0x7FFFFFFF, 0xCB000000),
    (0x40C90FDB, 0x429BC2AF, 0x3ECC4229, 0x3E22F983),
    (0x7F000000, 0x7F800000, 0x1FB504F2, 0x00000000),
]
SAMPLES_PER_BLOCK = 3  # of each 1024-row block of the samples file
LOG2E = np.float32(1.4426950408889634)
DATA = os.path.join(os.path.dirname(__file__), "../../../data/sfu/h100_reduced_domain_samples.npy")
COLUMN = {0: 0, 1: 2, 2: 3}  # function in the samples file -> output column


def samples():
    rows = np.load(DATA)
    picked = [rows[b * 1024 + k * 300] for b in range(len(rows) // 1024) for k in range(SAMPLES_PER_BLOCK)]
    return [(int(fn), int(x), int(y)) for fn, x, y in picked]


def inputs():
    specials = [s[0] for s in SPECIALS]
    products = [np.array([x], np.uint32).view(np.float32)[0] * LOG2E for x in specials]
    words = specials + [x for _, x, _ in samples()] + [int(np.float32(p).view(np.uint32)) for p in products]
    return np.array(words, np.uint32)


def check(y):
    results = passed = 0
    for i, (_, ex2, rsqrt, rcp) in enumerate(SPECIALS):
        for column, expected in ((0, ex2), (2, rsqrt), (3, rcp)):
            results += 1
            if y[i, column] == expected:
                passed += 1
            else:
                print(f"input {i}: column {column} is {y[i, column]:#010x}, the H100 gave {expected:#010x}")
    for i, (fn, x, expected) in enumerate(samples(), start=len(SPECIALS)):
        results += 1
        if y[i, COLUMN[fn]] == expected:
            passed += 1
        else:
            print(f"sample {x:#010x}: {y[i, COLUMN[fn]]:#010x}, the H100 gave {expected:#010x}")
    first_product = len(SPECIALS) + len(samples())
    for i in range(len(SPECIALS)):
        results += 1
        if y[i, 1] == y[first_product + i, 0]:
            passed += 1
        else:
            print(f"input {i}: exp is {y[i, 1]:#010x}, exp2 of x * log2(e) {y[first_product + i, 0]:#010x}")
    print(f"{passed} of {results} results as the H100's")


def main():
    folder, mode = sys.argv[1], sys.argv[2]
    if mode == "data":
        np.save(os.path.join(folder, "x.npy"), inputs().view(np.float32))
    else:
        check(np.load(os.path.join(folder, "y.npy")).view(np.uint32).reshape(-1, 4))


if __name__ == "__main__":
    main()
