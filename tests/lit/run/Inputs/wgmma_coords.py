"""Inputs and exact references of wgmma_coords.cute into DIR.

usage: wgmma_coords.py coords DIR      A (64, 16), B (64, 16); D = A B^T and
                                       T[t, i] = 1000 row + col of register
                                       i of thread t by the PTX ISA
       wgmma_coords.py masked M N DIR  A (M, 64), B (N, 64), bias (N,), C = A B^T + bias
"""
import os
import sys

import numpy as np


def fragment_coordinates():
    """The PTX ISA's wgmma D fragment (m64nNk16, f32): thread t = 32w + l,
    register i = v + 2h + 4j holds row 16w + l/4 + 8h, column 8j + 2(l%4) + v."""
    t = np.zeros((128, 32), np.int32)
    for thread in range(128):
        w, lane = divmod(thread, 32)
        for i in range(32):
            v, h, j = i % 2, i // 2 % 2, i // 4
            t[thread, i] = (16 * w + lane // 4 + 8 * h) * 1000 + 8 * j + 2 * (lane % 4) + v
    return t


def main():
    rng = np.random.default_rng(25)
    if sys.argv[1] == "coords":
        out = sys.argv[2]
        a = rng.integers(-4, 5, (64, 16)).astype(np.float16)
        b = rng.integers(-4, 5, (64, 16)).astype(np.float16)
        d = a.astype(np.float32) @ b.astype(np.float32).T
        arrays = dict(a=a, b=b, d=np.zeros_like(d), d_ref=d, t=np.zeros((128, 32), np.int32),
                      t_ref=fragment_coordinates())
    else:
        m, n, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        a = rng.integers(-4, 5, (m, 64)).astype(np.float16)
        b = rng.integers(-4, 5, (n, 64)).astype(np.float16)
        bias = rng.integers(-64, 64, n).astype(np.float32) / 8
        c = a.astype(np.float32) @ b.astype(np.float32).T + bias
        arrays = dict(a=a, b=b, bias=bias, c=np.zeros_like(c), c_ref=c)
    os.makedirs(out, exist_ok=True)
    for name, array in arrays.items():
        np.save(os.path.join(out, name + ".npy"), array.ravel())


if __name__ == "__main__":
    main()
