"""Inputs and an independent reference for examples/nvfp4_gemv.cute.

    python3 nvfp4_gemv_data.py M K L OUTDIR [SEED]

Writes a.npy, b.npy, sfa.npy, sfb.npy (memory images, uint8) and c_ref.npy
(float16). Values are drawn like the GPU MODE competition's: e2m1 codes 0..3
(0, 0.5, 1, 1.5) and ue4m3 scales that are small integers. The reference
dequantises and accumulates in float32 in the kernel's order, one rounding per
operation: res = res + ((a * sa) * b) * sb over k, then rounds to float16.
The scale-factor index is written out from seed 000's printed layout
(((32,4),M/128),((16,4),K/64),(1,L)):(((16,4),512*K/64),((0,1),512),(0,...)),
not computed with cutec's layout algebra.
"""
import os
import sys

import numpy as np

E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6],
                dtype=np.float32)


def ue4m3(byte):
    byte = byte.astype(np.int64) & 0x7F
    e, m = byte >> 3, byte & 7
    normal = (1 + m / 8.0) * np.exp2(e - 7.0)
    subnormal = (m / 8.0) * 2.0 ** -6
    return np.where(e == 0, subnormal, normal).astype(np.float32)


def sf_index(rows, k, l, n_rows, n_k):
    rest_m, rest_k = n_rows // 128, n_k // 64
    return ((rows % 32) * 16 + ((rows // 32) % 4) * 4 + (rows // 128) * 512 * rest_k
            + (k // 16) % 4 + (k // 64) * 512 + l * 512 * rest_k * rest_m)


def pack_nibbles(codes):
    """4-bit codes as bytes, element 2i in the low nibble of byte i."""
    flat = np.asarray(codes).reshape(-1).astype(np.uint8)
    return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)


def save(path, array):
    np.save(path, array, allow_pickle=False)


def main():
    m, k, l, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    rng = np.random.default_rng(seed)
    os.makedirs(out, exist_ok=True)

    a_codes = rng.integers(0, 4, size=(l, m, k))       # element (m, k, l) at l*M*K + m*K + k
    b_codes = rng.integers(0, 4, size=(l, 128, k))
    scale_bytes = np.array([0x38, 0x40, 0x44, 0x48, 0x4C, 0x50], dtype=np.uint8)  # 1,2,3,4,6,8
    sfa = rng.choice(scale_bytes, size=m * k * l // 16)
    sfb = rng.choice(scale_bytes, size=128 * k * l // 16)

    save(os.path.join(out, "a.npy"), pack_nibbles(a_codes))
    save(os.path.join(out, "b.npy"), pack_nibbles(b_codes))
    save(os.path.join(out, "sfa.npy"), sfa)
    save(os.path.join(out, "sfb.npy"), sfb)

    rows = np.arange(m)
    res = np.zeros((l, m), dtype=np.float32)
    for kk in range(k):
        for ll in range(l):
            a = E2M1[a_codes[ll, :, kk]]
            sa = ue4m3(sfa[sf_index(rows, kk, ll, m, k)])
            b = E2M1[b_codes[ll, 0, kk]]
            sb = ue4m3(sfb[sf_index(np.array([0]), kk, ll, 128, k)])[0]
            res[ll] = res[ll] + ((a * sa) * b) * sb
    with np.errstate(over="ignore"):
        save(os.path.join(out, "c_ref.npy"), res.reshape(-1).astype(np.float16))


if __name__ == "__main__":
    main()
