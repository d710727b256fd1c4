"""Inputs and the NumPy products of narrow_pairs.cute into DIR: element
8t + i of a is code (8t + i) % 16, of b code (8t + i) // 16, so the 256
elements hold every pair of e2m1 codes.

usage: narrow_pairs_data.py DIR
"""
import os
import sys

import numpy as np

from nvfp4_gemv_data import E2M1, pack_nibbles

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
n = np.arange(256)


np.save(os.path.join(out, "a.npy"), pack_nibbles(n % 16))
np.save(os.path.join(out, "b.npy"), pack_nibbles(n // 16))
ref = (E2M1[n % 16].astype(np.float32) * E2M1[n // 16].astype(np.float32)).astype(np.float32)
np.save(os.path.join(out, "ref.npy"), ref)
