"""Inputs of exact_products.cute into DIR: every pair of e2m1 codes (a, b)
and (a2, b2) in another order, the 128 ue4m3 codes (0x7F is NaN), and
addends of every magnitude (so that a fused addition would round
differently if a product were not exact).

usage: exact_products_data.py DIR
"""
import os
import sys

import numpy as np

from nvfp4_gemv_data import pack_nibbles

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
t = np.arange(256)


np.save(os.path.join(out, "a.npy"), pack_nibbles(t % 16))
np.save(os.path.join(out, "b.npy"), pack_nibbles(t // 16))
np.save(os.path.join(out, "a2.npy"), pack_nibbles((t * 7 + 3) % 16))
np.save(os.path.join(out, "b2.npy"), pack_nibbles((t // 16 * 5 + 1) % 16))
np.save(os.path.join(out, "sf.npy"), np.arange(128, dtype=np.uint8))
rng = np.random.default_rng(17)
c = rng.standard_normal(256) * np.exp2(rng.integers(-30, 30, size=256))
np.save(os.path.join(out, "c.npy"), c.astype(np.float32))
