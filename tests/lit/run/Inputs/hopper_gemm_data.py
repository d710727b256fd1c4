"""Inputs and the NumPy result of hopper_gemm.cute (f16) or
hopper_gemm_fp8.cute (e4m3) into DIR: A (M, K) and B (N, K) of small
integers, -4..4, so that every sum is exact and C = A B^T in f16 is what
the tensor core gives whatever its order. e4m3 codes are written as bytes.

usage: hopper_gemm_data.py DIR M N K f16|e4m3 [L]

With L, a batch of L products: A (L, M, K), B (L, N, K), C (L, M, N), as
the (M, K, L):(K, 1, M*K) tensors of examples/ports/ lay them out.
"""
import os
import sys

import numpy as np


def e4m3_code(value):
    """The e4m3 code of an integer in -4..4 (exact)."""
    if value == 0:
        return 0
    sign = 0x80 if value < 0 else 0
    magnitude = abs(int(value))
    exponent = magnitude.bit_length() - 1
    mantissa = (magnitude - (1 << exponent)) * 8 >> exponent
    return sign | (exponent + 7) << 3 | mantissa


out, m, n, k, kind = sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5]
batch = (int(sys.argv[6]),) if len(sys.argv) > 6 else ()
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(m * 31 + n * 7 + k)
a = rng.integers(-4, 5, size=batch + (m, k))
b = rng.integers(-4, 5, size=batch + (n, k))
for name, x in (("a", a), ("b", b)):
    if kind == "f16":
        data = x.astype(np.float16)
    else:
        data = np.vectorize(e4m3_code)(x).astype(np.uint8)
    np.save(os.path.join(out, name + ".npy"), data)
np.save(os.path.join(out, "ref.npy"), (a @ np.swapaxes(b, -1, -2)).astype(np.float16).reshape(-1))
