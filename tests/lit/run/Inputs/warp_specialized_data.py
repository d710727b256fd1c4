"""Inputs and reference of examples/warp_specialized.cute: x (256, K, L)
random f32, and y[:, l] = sum over k of x[:, k, l] * (k + 1) in k order,
each step one fma (cutec contracts the consumers' acc += x * s, --fmad).
    python3 warp_specialized_data.py K L OUT_DIR SEED"""
import os
import sys

import numpy as np

from fma_f32 import fma_f32

k, l = (int(v) for v in sys.argv[1:3])
out, seed = sys.argv[3], int(sys.argv[4])
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(seed)
# Memory order: element (i, k, l) at i + 256 * (k + K * l).
x = rng.standard_normal((l, k, 256)).astype(np.float32)
y = np.zeros((l, 256), dtype=np.float32)
for kk in range(k):
    y = fma_f32(x[:, kk, :], np.float32(kk + 1), y)
np.save(os.path.join(out, "x.npy"), x.ravel())
np.save(os.path.join(out, "y_ref.npy"), y.ravel())
