"""Inputs and NumPy results of wgmma_across_loops.cute (n = 3) into DIR:
small integers, so that every f32 sum is exact whatever the order.

usage: wgmma_across_loops_data.py DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(17)
a = rng.integers(-3, 4, (64, 16)).astype(np.float16)
b = rng.integers(-3, 4, (64, 16)).astype(np.float16)
np.save(os.path.join(out, "a.npy"), a)
np.save(os.path.join(out, "b.npy"), b)
product = a.astype(np.float32) @ b.astype(np.float32).T
np.save(os.path.join(out, "two_loops.npy"), (3 * product).reshape(-1))
np.save(os.path.join(out, "nested.npy"), (3 * (product + 1)).reshape(-1))
d = rng.integers(-50, 50, (64, 64)).astype(np.float32)
np.save(os.path.join(out, "d.npy"), d.reshape(-1))
np.save(os.path.join(out, "reused.npy"), (3 * (d + product)).reshape(-1))
