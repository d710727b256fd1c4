"""Inputs and NumPy results of the SIMT examples (examples/vector_add.cute,
transpose.cute, rmsnorm.cute, softmax.cute, softmax_cluster.cute, and the tiled-copy add of
tests/lit/run/Inputs/tiled_copy_add.cute) into DIR.

usage: simt_data.py add N DIR | add2d M N DIR | transpose M N DIR | rmsnorm M N DIR |
       softmax M N DIR | softmax_cluster C M N DIR (clusters of C CTAs per row)

Each writes the kernel's inputs, its output filled with NaNs (every element
the kernel fails to write shows), and ref.npy: the output as cutec run
writes it (the flat memory image). Vector add and transpose are exact;
rmsnorm and softmax get the model of simt_models.py, checked by
simt_check.py.
"""
import os
import sys

import numpy as np


def normal(rng, shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def save(out, **arrays):
    os.makedirs(out, exist_ok=True)
    for name, array in arrays.items():
        np.save(os.path.join(out, f"{name}.npy"), array)


def nan_like(shape):
    return np.full(shape, np.nan, dtype=np.float32)


def main(argv):
    kind, out = argv[0], argv[-1]
    sizes = [int(v) for v in argv[1:-1]]
    rng = np.random.default_rng(int(np.prod(sizes)) + 17)
    if kind == "add":
        (n,) = sizes
        a, b = normal(rng, n, 1e3), normal(rng, n, 1e-2)
        save(out, a=a, b=b, c=nan_like(n), ref=a + b)
    elif kind == "add2d":
        m, n = sizes
        a, b = normal(rng, (m, n), 1e3), normal(rng, (m, n), 1e-2)
        save(out, a=a, b=b, c=nan_like((m, n)), ref=(a + b).reshape(-1))
    elif kind == "transpose":
        m, n = sizes
        x = normal(rng, (m, n))
        save(out, x=x, y=nan_like((n, m)), ref=np.ascontiguousarray(x.T).reshape(-1))
    else:
        import simt_models
        ctas = sizes.pop(0) if kind == "softmax_cluster" else 1
        m, n = sizes
        x = normal(rng, (m, n), 4.0)
        x64 = x.astype(np.float64)
        if kind == "rmsnorm":
            w = normal(rng, n)
            y = simt_models.rmsnorm(x, w)
            exact = x64 * w / np.sqrt(np.mean(x64 * x64, axis=1, keepdims=True) + 1e-6)
            save(out, x=x, w=w, y=nan_like((m, n)), ref=y.reshape(-1))
        else:
            y = simt_models.softmax(x, ctas)
            exact = np.exp(x64 - x64.max(axis=1, keepdims=True))
            exact /= exact.sum(axis=1, keepdims=True)
            save(out, x=x, y=nan_like((m, n)), ref=y.reshape(-1))
        # The model computes what torch does, to within f32 rounding.
        error = np.max(np.abs(y - exact) / np.maximum(np.abs(exact), 1e-30))
        assert error < 1e-5, f"the model's relative error is {error}"


if __name__ == "__main__":
    main(sys.argv[1:])
