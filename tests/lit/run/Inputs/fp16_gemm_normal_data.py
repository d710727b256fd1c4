"""Inputs of examples/fp16_gemm.cute drawn from a normal distribution (so
that the order and precision of the sums matter) and C = A B^T under both
tcgen05 numerics of the emulator, each rounded to f16 at the end:
  ref_f32_steps.npy  each product rounded to f32 (exact for f16 inputs),
                     added in k order with f32 round-to-nearest additions;
  ref_hopper.npy     per instruction (16 k): the f32 accumulator and the 16
                     exact products cut toward zero to multiples of
                     2^(E-25), E the largest alignment exponent (a product's
                     is the sum of its operands' exponents, a subnormal f16
                     counting as 2^-14), summed exactly and rounded toward
                     zero to f32 (docs/emulator.md, "Hopper tensor-core
                     numerics (measured)").
    python3 fp16_gemm_normal_data.py M N K OUT_DIR SEED"""
import os
import sys

import numpy as np

KSTEP = 16  # one kind::f16 tcgen05.mma: 32 bytes of K


def lead(x, min_exponent):
    """The alignment exponent of each element (-inf for zeros)."""
    _, e = np.frexp(x)
    return np.where(x == 0, -np.inf, np.maximum(e - 1, min_exponent))


def toward_zero_f32(s):
    """float64 values rounded toward zero to float32."""
    r = s.astype(np.float32)
    over = np.abs(r.astype(np.float64)) > np.abs(s)
    r[over] = np.nextafter(r[over], np.float32(0))
    return r


def hopper(a, b):
    acc = np.zeros((a.shape[0], b.shape[0]), dtype=np.float32)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    la, lb = lead(a64, -14), lead(b64, -14)
    for k0 in range(0, a.shape[1], KSTEP):
        ks = slice(k0, k0 + KSTEP)
        products = a64[:, None, ks] * b64[None, :, ks]  # exact
        leads = la[:, None, ks] + lb[None, :, ks]
        c = acc.astype(np.float64)
        big = np.maximum(leads.max(axis=2), lead(c, -126))
        unit = np.exp2(np.where(np.isinf(big), 0, big) - 25)
        total = np.trunc(c / unit) * unit + (np.trunc(products / unit[..., None]) *
                                             unit[..., None]).sum(axis=2)
        acc = toward_zero_f32(total) + np.float32(0)  # an exact zero is +0
    return acc


def f32_steps(a, b):
    acc = np.zeros((a.shape[0], b.shape[0]), dtype=np.float32)
    for kk in range(a.shape[1]):
        acc += a[:, kk, None].astype(np.float32) * b[None, :, kk].astype(np.float32)
    return acc


m, n, k = (int(v) for v in sys.argv[1:4])
out, seed = sys.argv[4], int(sys.argv[5])
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(seed)
a = rng.standard_normal((m, k)).astype(np.float16)
b = rng.standard_normal((n, k)).astype(np.float16)
np.save(os.path.join(out, "a.npy"), a)
np.save(os.path.join(out, "b.npy"), b)
# `cutec run` writes outputs in memory order: row-major here.
np.save(os.path.join(out, "ref_f32_steps.npy"), f32_steps(a, b).astype(np.float16).ravel())
np.save(os.path.join(out, "ref_hopper.npy"), hopper(a, b).astype(np.float16).ravel())
