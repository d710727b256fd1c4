"""Random operands for block_scaled_gemm.cute's MXFP8 (M=128, N=256, K=128)
and MXFP4 (M=128, N=256, K=256) kernels, written to DIR as memory images:
e4m3 values of magnitude below 2, any fp4 pairs, ue8m0 factors from 1/4 to
4, so that the f16 results stay finite.

    block_scaled_random.py DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)


def e4m3(count):  # 0x3f is 1.875
    magnitude = rng.integers(0x00, 0x40, count, dtype=np.uint8)
    return magnitude | (rng.integers(0, 2, count, dtype=np.uint8) << 7)


def scale_factors(count):  # 2^-2 .. 2^2
    return rng.integers(125, 130, count, dtype=np.uint8)


def save(name, array):
    np.save(os.path.join(out, name), array)


save("a8.npy", e4m3(128 * 128))
save("b8.npy", e4m3(256 * 128))
save("sfa8.npy", scale_factors(512))
save("sfb8.npy", scale_factors(1024))
save("a4.npy", rng.integers(0, 256, 128 * 128, dtype=np.uint8))
save("b4.npy", rng.integers(0, 256, 256 * 128, dtype=np.uint8))
save("sfa4.npy", scale_factors(1024))
save("sfb4.npy", scale_factors(2048))
