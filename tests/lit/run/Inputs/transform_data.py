"""Inputs and the NumPy result of examples/persistent_transform.cute into DIR.

usage: transform_data.py M N ALPHA BETA DIR
"""
import os
import sys

import numpy as np

from fma_f32 import fma_f32

m, n, alpha, beta, out = (int(sys.argv[1]), int(sys.argv[2]), np.float32(sys.argv[3]),
                          np.float32(sys.argv[4]), sys.argv[5])
os.makedirs(out, exist_ok=True)
x = (np.random.default_rng(m * n).standard_normal((m, n)) * 300).astype(np.float32)
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), np.full((m, n), 0x7E00, dtype=np.uint16).view(np.float16))
# The kernel computes x * alpha + beta with one fma (cutec contracts it,
# --fmad), then rounds to f16 (cvt.rn); large values overflow to infinity.
with np.errstate(over="ignore"):
    y = fma_f32(x, alpha, beta).astype(np.float16)
# cutec run writes a tensor out as its flat memory image.
np.save(os.path.join(out, "ref.npy"), y.reshape(-1))
