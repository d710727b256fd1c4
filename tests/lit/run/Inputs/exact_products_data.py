"""Inputs of exact_products.cute into DIR: every pair of e2m1 codes (a, b)
and (a2, b2) in another order, the 128 ue4m3 codes (0x7F is NaN), and
addends of every magnitude (so that a fused addition would round
differently if a product were not exact).

usage: exact_products_data.py DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
t = np.arange(256)


def nibbles(codes):
    """Packed e2m1 codes, element 2i in the low nibble of byte i."""
    codes = codes.astype(np.uint8)
    return (codes[0::2] | (codes[1::2] << 4)).astype(np.uint8)


np.save(os.path.join(out, "a.npy"), nibbles(t % 16))
np.save(os.path.join(out, "b.npy"), nibbles(t // 16))
np.save(os.path.join(out, "a2.npy"), nibbles((t * 7 + 3) % 16))
np.save(os.path.join(out, "b2.npy"), nibbles((t // 16 * 5 + 1) % 16))
np.save(os.path.join(out, "sf.npy"), np.arange(128, dtype=np.uint8))
rng = np.random.default_rng(17)
c = rng.standard_normal(256) * np.exp2(rng.integers(-30, 30, size=256))
np.save(os.path.join(out, "c.npy"), c.astype(np.float32))
