"""Inputs and the expected step counts of collatz.cute.
    python3 collatz_data.py N OUTDIR"""
import os
import sys

import numpy as np

count, out = int(sys.argv[1]), sys.argv[2]
os.makedirs(out, exist_ok=True)
n = np.arange(1, count + 1, dtype=np.int32)
n[-1] = 27  # 111 steps, through 9232


def steps(x):
    s = 0
    while x != 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        s += 1
    return s


np.save(os.path.join(out, "n.npy"), n)
np.save(os.path.join(out, "ref.npy"), np.array([steps(int(x)) for x in n], dtype=np.int32))
np.save(os.path.join(out, "odd.npy"), np.arange(32, dtype=np.int32) % 4 * 2 + 1)  # 1, 3, 5, 7
np.save(os.path.join(out, "even.npy"), np.arange(32, dtype=np.int32) * 2)
