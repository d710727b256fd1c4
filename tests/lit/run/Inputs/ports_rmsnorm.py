"""Inputs and the NumPy model of examples/ports/rmsnorm_blackwell.cute.

  ports_rmsnorm.py data KERNEL M DIR   writes DIR/x.npy, w.npy (bf16 as their
                                       uint16 bits, or f32) and ms.npy: each
                                       row's mean(x²) + eps, as the kernel
                                       computes it
  ports_rmsnorm.py ref KERNEL DIR      writes DIR/ref.npy, the kernel's output
                                       (its flat memory image), from
                                       DIR/rs.npy: column 2 is
                                       rsqrt(ms, fastmath=True) as
                                       Inputs/fast_math.cute gives it (the
                                       H100's rsqrt.approx, checked by
                                       fast-math.test)

The model performs the kernel's f32 operations in its order, so it agrees
bit for bit: thread (t0, row) of a CTA holds columns v1 * vec * tpr +
t0 * vec + v0 of its row (rmsnorm.py's TV layout), adds their squares one
after another with fma (cutec's --fmad contracts x * x into the sum),
warps add with butterflies over min(tpr, 32) lanes, then the row's warps
(and, with a cluster, every CTA's warps) add their sums, one per lane, with
a butterfly over the warp; y = x * rstd * w, rounded to bf16 to nearest
even. The model is within 1e-2 (bf16) or 1e-5 (f32) of a float64 RMSNorm.
"""
import os
import sys

import numpy as np

from simt_models import F32, fma

# KERNEL: (dtype, N, cluster_n, threads_per_row, vec_size, num_vec_blocks),
# RMSNormConfig's values for (dtype, N).
CONFIGS = {
    "rmsnorm_bf16_4096": ("bf16", 4096, 1, 64, 8, 8),
    "rmsnorm_f32_256": ("f32", 256, 1, 32, 4, 2),
    "rmsnorm_bf16_32768": ("bf16", 32768, 2, 128, 8, 16),
}
EPS = F32(1e-6)


def bf16_bits(v):
    """f32 -> bf16 bits, rounded to nearest even (finite inputs)."""
    bits = np.asarray(v, F32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def to_f32(a, dtype):
    if dtype == "bf16":
        return (a.astype(np.uint32) << 16).view(F32)
    return a


def butterfly(v, group):
    """Every lane's sum over its group of `group` lanes (last axis: 32
    lanes), offsets group / 2, ..., 1."""
    lanes = np.arange(v.shape[-1])
    offset = group // 2
    while offset:
        v = (v + v[..., lanes ^ offset]).astype(F32)
        offset //= 2
    return v


def row_sums(x, cluster_n, tpr, vec, nvb):
    """Each row's sum of squares (M,), in the kernel's order."""
    rows = x.shape[0]
    cta_cols = x.shape[1] // cluster_n
    warps_per_row = max(tpr // 32, 1)
    # Per CTA of the row's cluster and thread t0 of the row: its sum.
    acc = np.zeros((rows, cluster_n, tpr), F32)
    t0 = np.arange(tpr)
    for v1 in range(nvb):
        for v0 in range(vec):
            cols = np.arange(cluster_n)[:, None] * cta_cols + v1 * vec * tpr + t0 * vec + v0
            v = x[:, cols]
            acc = fma(v, v, acc)
    width = min(tpr, 32)
    lanes = np.zeros((rows, cluster_n, max(tpr, 32)), F32)
    lanes[..., :tpr] = acc
    warp = butterfly(lanes.reshape(rows, cluster_n, -1, 32), width)[..., 0]
    if warps_per_row == 1 and cluster_n == 1:
        return warp[:, 0, 0]
    # Lane i of a warp takes warp i's sum (col i % warps_per_row of CTA
    # i // warps_per_row), the rest 0, and the warp adds them.
    gathered = np.zeros((rows, 32), F32)
    gathered[:, :warps_per_row * cluster_n] = warp.reshape(rows, -1)
    return butterfly(gathered, 32)[:, 0]


def main(argv):
    mode, kernel = argv[0], argv[1]
    dtype, n, cluster_n, tpr, vec, nvb = CONFIGS[kernel]
    if mode == "data":
        m, out = int(argv[2]), argv[3]
        rng = np.random.default_rng(28)
        x = rng.standard_normal((m, n)).astype(F32)
        w = rng.standard_normal(n).astype(F32)
        if dtype == "bf16":
            x, w = bf16_bits(x), bf16_bits(w)
        ms = (row_sums(to_f32(x, dtype), cluster_n, tpr, vec, nvb) / F32(n)).astype(F32) + EPS
        os.makedirs(out, exist_ok=True)
        for name, a in (("x", x), ("w", w), ("ms", ms.astype(F32))):
            np.save(os.path.join(out, f"{name}.npy"), a)
        return
    out = argv[2]
    x = to_f32(np.load(os.path.join(out, "x.npy")), dtype)
    w = to_f32(np.load(os.path.join(out, "w.npy")), dtype)
    rstd = np.load(os.path.join(out, "rs.npy")).reshape(-1, 4)[:, 2]
    y = ((x * rstd[:, None]).astype(F32) * w[None, :]).astype(F32)
    exact = x.astype(np.float64)
    exact = exact / np.sqrt((exact ** 2).mean(axis=1, keepdims=True) + 1e-6) * w
    tolerance = 1e-2 if dtype == "bf16" else 1e-5
    error = np.abs(y - exact).max() / np.abs(exact).max()
    assert error < tolerance, f"the model's relative error is {error}"
    ref = bf16_bits(y) if dtype == "bf16" else y
    np.save(os.path.join(out, "ref.npy"), ref.reshape(-1))


if __name__ == "__main__":
    main(sys.argv[1:])
