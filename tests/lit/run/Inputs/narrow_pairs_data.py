"""Inputs and the NumPy products of narrow_pairs.cute into DIR: code i of
thread t (element (i, t), eight codes per word) is (t + i) % 16 in a and
(t // 16 + i) % 16 in b, so that at each of the eight places of a word the
256 threads hold every pair of e2m1 codes.

usage: narrow_pairs_data.py DIR
"""
import os
import sys

import numpy as np

from nvfp4_gemv_data import E2M1, pack_nibbles

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
i, t = np.meshgrid(np.arange(8), np.arange(256))  # [t, i]: column-major (8, 256)
a = ((t + i) % 16).ravel()
b = ((t // 16 + i) % 16).ravel()
np.save(os.path.join(out, "a.npy"), pack_nibbles(a))
np.save(os.path.join(out, "b.npy"), pack_nibbles(b))
ref = (E2M1[a].astype(np.float32) * E2M1[b].astype(np.float32)).astype(np.float32)
np.save(os.path.join(out, "ref.npy"), ref)
