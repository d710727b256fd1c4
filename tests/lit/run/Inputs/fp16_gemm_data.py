"""Inputs and reference of examples/fp16_gemm.cute: A (M, K) and B (N, K)
f16 eighths in [-4, 4], and C = A B^T computed in f32 adding the products in
K order (as one tcgen05.mma after another accumulates), rounded to f16.
    python3 fp16_gemm_data.py M N K OUT_DIR SEED"""
import os
import sys

import numpy as np

m, n, k = (int(v) for v in sys.argv[1:4])
out, seed = sys.argv[4], int(sys.argv[5])
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(seed)
a = (rng.integers(-32, 33, size=(m, k)) / 8).astype(np.float16)
b = (rng.integers(-32, 33, size=(n, k)) / 8).astype(np.float16)
acc = np.zeros((m, n), dtype=np.float32)
for kk in range(k):
    acc += a[:, kk, None].astype(np.float32) * b[None, :, kk].astype(np.float32)
np.save(os.path.join(out, "a.npy"), a)
np.save(os.path.join(out, "b.npy"), b)
# `cutec run` writes outputs in memory order: row-major here.
np.save(os.path.join(out, "c_ref.npy"), acc.astype(np.float16).ravel())
