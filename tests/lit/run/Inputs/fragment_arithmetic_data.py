"""Inputs and the f32 reference of fragment_arithmetic.cute, every
operation rounded to f32 in the kernel's order (compiled with
--fmad=false): python3 fragment_arithmetic_data.py OUTDIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
x = rng.uniform(-2, 2, (32, 8)).astype(np.float32)
y = rng.uniform(-2, 2, (32, 8)).astype(np.float32)
s = np.float32(0.3)
c = np.maximum(x * y, -x) + s
z = c - np.float32(0.5)
sums = np.zeros((32, 4), np.float32)
for t in range(32):
    acc = [np.float32(0), np.float32(-1000), np.float32(1000), np.float32(1)]
    for i in range(8):
        acc[0] = np.float32(acc[0] + x[t, i] * y[t, i])
        acc[1] = max(acc[1], c[t, i])
        acc[2] = min(acc[2], c[t, i])
        acc[3] = np.float32(acc[3] * x[t, i])
    sums[t] = acc
# cutec run writes outputs flat.
for name, v in (("x", x), ("y", y), ("z", z.ravel()), ("sums", sums.ravel())):
    np.save(os.path.join(out, name + ".npy"), v)
np.save(os.path.join(out, "zeros_z.npy"), np.zeros_like(z))
np.save(os.path.join(out, "zeros_sums.npy"), np.zeros_like(sums))
