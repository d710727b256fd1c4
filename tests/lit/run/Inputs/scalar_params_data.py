"""Inputs and the NumPy result of scalar_params.cute's axpb into DIR.

usage: scalar_params_data.py M ALPHA BETA N DIR
"""
import os
import sys

import numpy as np

from fma_f32 import fma_f32

m, alpha, beta, n, out = int(sys.argv[1]), float.fromhex(sys.argv[2]), float.fromhex(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
os.makedirs(out, exist_ok=True)
x = np.random.default_rng(7).standard_normal(m).astype(np.float32)
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), np.zeros(m, dtype=np.float32))
# x * alpha + beta is one fma (cutec contracts it, --fmad), then + n rounds.
ref = fma_f32(x, np.float32(alpha), np.float32(beta)) + np.float32(n)
np.save(os.path.join(out, "ref.npy"), ref.astype(np.float32))
