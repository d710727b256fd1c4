"""Inputs and NumPy results of fragment_values.cute, every operation
rounded to f32 in the kernel's order: python3 fragment_values_data.py OUTDIR"""
import os
import sys

import numpy as np

f32 = np.float32
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(25)
x = rng.uniform(-2, 2, (32, 2, 4)).astype(f32)
s = f32(0.75)

b = x.copy()
b[:, 0, 1] = 9
b[:, 1, :] = x[:, 0, :] * f32(2)
b[:, :, 3] = s
b[:, 1, 2] += f32(1)                    # flat index 5, column-major
b[:, 0, :] = np.maximum(b[:, 0, :], f32(0))

# n has shape ((2, 2), 2): element ((i0, i1), j) is at i0 + 2 * i1 + 4 * j.
n = np.zeros((32, 8), f32)
n[:, 1 + 0 + 4] = x[:, 1, 1]
n[:, 0 + 2 + 0] = x[:, 0, 2]
n[:, 1 + 2 + 0] = x[:, 1, 2]
n[:, 7] = s

# A fragment's elements are in column-major order: (i, j) is at i + 2 * j.
def flat(v):
    return v.transpose(0, 2, 1).reshape(32, 8)

leaky = np.where(x > 0, x, x * f32(0.5))
masked = np.where(x < s, f32(-1e30), x)
flip = np.where((np.arange(32) % 2 == 0)[:, None, None], x, -x)
selected = np.stack([flat(leaky), flat(masked), flat(flip)], axis=1)

filled = np.where((np.arange(32) >= 16)[:, None], s, f32(1.5)) + f32(1)
filled = np.broadcast_to(filled, (32, 8)).astype(f32)

reduced = np.zeros((32, 7), f32)
for t in range(32):
    rows = [f32(0), f32(0)]
    tops = [f32(-1e30), f32(-1e30)]
    for i in range(2):
        for j in range(4):
            rows[i] = f32(rows[i] + x[t, i, j])
            tops[i] = max(tops[i], x[t, i, j])
    cols = [min(f32(1e30), x[t, 0, j], x[t, 1, j]) for j in range(4)]
    total = f32(0)
    for j in range(4):                   # the fragment's order: i fastest
        for i in range(2):
            total = f32(total + x[t, i, j])
    reduced[t] = [rows[0], rows[1], tops[0], tops[1], cols[0], cols[3], total]

exact = np.stack([flat(np.maximum(x, f32(0.25))), flat(np.minimum(x, b)),
                  flat(np.sqrt(np.abs(x))), flat(np.where(x >= b, f32(1), f32(0)))], axis=1)

rows, tops, cols = reduced[:, 0:2], reduced[:, 2:4], reduced[:, 4:6]
col_min = np.min(x, axis=1)              # exact: a min of two in any order
broadcast = x - tops[:, :, None] + col_min[:, None, :]

lanes = np.zeros((32, 6), f32)
for t in range(32):
    group = rows[(t & ~3):(t & ~3) + 4]
    pair = [f32(rows[l] + rows[l ^ 2]) for l in range(t & ~3, (t & ~3) + 4)]
    l = t & 3
    lanes[t, 0:2] = np.max(group, axis=0)
    lanes[t, 2:4] = pair[l] + pair[l ^ 1]
    lanes[t, 4:6] = rows[t ^ 1]

for name, v in (("x", x), ("broadcast", broadcast.reshape(-1)), ("lanes", lanes.reshape(-1)), ("assigned", b.reshape(-1)), ("nested", n.reshape(-1)),
                ("selected", selected.reshape(-1)), ("filled", filled.reshape(-1)),
                ("reduced", reduced.reshape(-1)), ("exact", exact.reshape(-1))):
    np.save(os.path.join(out, name + ".npy"), v)
