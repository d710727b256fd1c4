"""Inputs and an independent reference for examples/nvfp4_gemm.cute.

    python3 nvfp4_gemm_data.py M N K OUTDIR [SEED]

Writes a.npy, b.npy, sfa.npy, sfb.npy (memory images, uint8) and c_ref.npy
(float16, C row-major). e2m1 magnitudes 0, 0.5, 1, 1.5 with random signs and
ue4m3 scales 1, 2, 3, 4, 6, 8, as the GEMV's data. The reference dequantises
(element times its scale factor, exact in float32), adds the exact products
in K order in float32 and rounds to float16. The scale factors' byte offsets
are written out from seed 001's layout: 512-byte atoms of 128 rows x 4
factors, K atoms inner, row r at (r % 32) * 16 + (r // 32 % 4) * 4.
"""
import os
import sys

import numpy as np

from nvfp4_gemv_data import E2M1, ue4m3  # the GEMV reference's decoding tables

def sf_offset(rows, ks, n_k):
    k_atoms = n_k // 64
    return (((rows // 128) * k_atoms + ks // 64) * 512 + (rows % 32) * 16 + (rows // 32 % 4) * 4
            + ks // 16 % 4)


def operand(rng, rows, k, scale_bytes):
    codes = rng.integers(0, 4, size=(rows, k)) | (rng.integers(0, 2, size=(rows, k)) << 3)
    sf = rng.choice(scale_bytes, size=rows * k // 16)
    r, kk = np.meshgrid(np.arange(rows), np.arange(k), indexing="ij")
    values = E2M1[codes] * ue4m3(sf[sf_offset(r, kk, k)])
    flat = codes.reshape(-1)
    packed = (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)  # element 0 in the low nibble
    return packed, sf, values


def main():
    m, n, k, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rng = np.random.default_rng(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    os.makedirs(out, exist_ok=True)
    scale_bytes = np.array([0x38, 0x40, 0x44, 0x48, 0x4C, 0x50], dtype=np.uint8)
    a, sfa, av = operand(rng, m, k, scale_bytes)
    b, sfb, bv = operand(rng, n, k, scale_bytes)
    for name, array in (("a", a), ("b", b), ("sfa", sfa), ("sfb", sfb)):
        np.save(os.path.join(out, name + ".npy"), array, allow_pickle=False)
    acc = np.zeros((m, n), dtype=np.float32)
    for kk in range(k):
        acc += av[:, kk, None] * bv[None, :, kk]
    np.save(os.path.join(out, "c_ref.npy"), acc.astype(np.float16).reshape(-1), allow_pickle=False)


if __name__ == "__main__":
    main()
