"""Inputs and references of tmem_epilogue.cute, flat in memory order, in
OUT_DIR: acc.npy (f32 128x64, random with infinities, overflow, subnormals
and ties), out_ref.npy (cvt.rn.f16.f32 of each) and image_ref.npy (the
shared tile's bytes: element (r, c) of the row-major f16 tile at byte
x = 2 (64 r + c), swizzled by S<3,4,3>: x ^ ((x & 0x380) >> 3)).
    python3 tmem_epilogue_data.py OUT_DIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)
acc = (rng.standard_normal((128, 64)) * 300).astype(np.float32)
edges = np.array([np.inf, -np.inf, 65520, 65519.996, 2.0**-24, 2.0**-25, 3 * 2.0**-26, -0.0,
                  1 + 2.0**-11, 1 + 3 * 2.0**-11, 1e-40], dtype=np.float32)
acc.ravel()[rng.choice(acc.size, edges.size * 8, replace=False)] = np.tile(edges, 8)
with np.errstate(over="ignore"):
    half = acc.astype(np.float16)
image = np.zeros(128 * 64 * 2, dtype=np.uint8)
bits = half.view(np.uint16).ravel()
for e in range(bits.size):
    x = 2 * e
    x ^= (x & 0x380) >> 3
    image[x:x + 2] = [bits[e] & 0xFF, bits[e] >> 8]
np.save(os.path.join(out, "acc.npy"), acc.ravel())
np.save(os.path.join(out, "out_ref.npy"), half.ravel())
np.save(os.path.join(out, "image_ref.npy"), image)
