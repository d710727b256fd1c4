"""Inputs and NumPy results of control_flow.cute's kernels into DIR.

usage: control_flow_data.py N DIR
"""
import os
import sys

import numpy as np

n, out = int(sys.argv[1]), sys.argv[2]
os.makedirs(out, exist_ok=True)
f32 = np.float32
x = np.random.default_rng(11).standard_normal(n).astype(f32)
x[::7] = np.abs(x[::7])  # runs long enough to skip a few
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), np.zeros(n, dtype=f32))

np.save(os.path.join(out, "ragged.npy"), (x * f32(2)).astype(f32))

rising = np.append(x[1:] > x[:-1], False)
np.save(os.path.join(out, "guarded.npy"), np.where(rising, x, -x).astype(f32))

loops = np.zeros(n, dtype=f32)
for i in range(n):
    s, j = f32(0), i
    while j < n and x[j] >= 0:
        j += 1
        if (j - i) % 3 != 0:
            s = f32(s + x[j - 1])
    c = sum(1 for k in range(8) if i + k < n and x[i + k] > f32(f32(i) / f32(n)))
    loops[i] = f32(f32(s + f32(c)) + f32(n - i))
np.save(os.path.join(out, "loops.npy"), loops)
