"""Inputs and NumPy references of grouped_gemv.cute into DIR, for
`SCRIPT DIR SEED`: three groups of sizes (M, K) = (5, 7), (130, 3),
(64, 33), each A_g, x_g and y_g its own .npy (a0.npy, x0.npy, y0.npy, ...),
the sizes in mk.npy, and the references y0_ref.npy, ...: normal floats,
summed in the kernel's order with one fused multiply-add per term, as its
PTX does, so the emulation must match bit for bit."""
import os
import sys

import numpy as np

from fma_f32 import fma_f32

SIZES = [(5, 7), (130, 3), (64, 33)]


def main():
    out, seed = sys.argv[1], int(sys.argv[2])
    rng = np.random.default_rng(seed)
    os.makedirs(out, exist_ok=True)
    np.save(os.path.join(out, "mk.npy"), np.array(SIZES, np.int32).ravel())
    for g, (m, k) in enumerate(SIZES):
        a = rng.standard_normal((m, k)).astype(np.float32)
        x = rng.standard_normal(k).astype(np.float32)
        y = np.zeros(m, np.float32)
        for j in range(k):
            y = fma_f32(a[:, j], x[j], y)
        np.save(os.path.join(out, f"a{g}.npy"), a.ravel())
        np.save(os.path.join(out, f"x{g}.npy"), x)
        np.save(os.path.join(out, f"y{g}.npy"), np.full(m, np.nan, np.float32))
        np.save(os.path.join(out, f"y{g}_ref.npy"), y)


if __name__ == "__main__":
    main()
