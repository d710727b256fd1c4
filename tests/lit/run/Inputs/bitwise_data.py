"""Inputs and NumPy results of bitwise.cute's kernels into DIR.

usage: bitwise_data.py DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(28)
a = rng.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
b = rng.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
a[:4] = [0, -1, -2**31, 2**31 - 1]
s = rng.integers(0, 32, 64).astype(np.int32)  # counts from 0 to 31
s[:4] = [0, 31, 1, 31]
for name, v in (("a", a), ("b", b), ("s", s)):
    np.save(os.path.join(out, name + ".npy"), v)
    np.save(os.path.join(out, "u" + name + ".npy"), v.view(np.uint32))

# NumPy's operators on int32 and uint32 are the kernel's: shifts wrap and
# >> is arithmetic on int32, logical on uint32.
with np.errstate(over="ignore"):
    z = ((((a << 3) | 1) ^ b) & 0xFFFF) >> 2
    mixed = ((a + b) >> 1 & 255 | 1 << 8 ^ 3) + ((a & 255) == (b & 255)).astype(np.int32)
    i32 = np.stack([a & b, a | b, a ^ b, ~a, a << s, a >> s, z, mixed], axis=1)
ua, ub, us = a.view(np.uint32), b.view(np.uint32), s.view(np.uint32)
u32 = np.stack([ua & ub, ua | ub, ua ^ ub, ~ua, ua << us, ua >> us], axis=1)
np.save(os.path.join(out, "i32_ref.npy"), i32.astype(np.int32).reshape(-1))
np.save(os.path.join(out, "u32_ref.npy"), u32.astype(np.uint32).reshape(-1))
# Python's own operators on its integers.
folded = [12 & 10, 12 | 3, 12 ^ 10, ~5, -17 >> 2, 3 << 20, 1 + 2 << 3 & 0xF0 | 1, ~-1 ^ 7]
np.save(os.path.join(out, "folded_ref.npy"), np.array(folded, np.int32))
