"""Inputs, a float64 reference and the check for examples/nvfp4_dual_gemm.cute.

    python3 nvfp4_dual_gemm_data.py gen M N K OUTDIR [SEED]
    python3 nvfp4_dual_gemm_data.py check OUTDIR C.npy
    python3 nvfp4_dual_gemm_data.py shapes CUTEC WORKDIR [FIRST LAST]

gen writes a.npy, b1.npy, b2.npy, sfa.npy, sfb1.npy, sfb2.npy (memory
images, uint8) and c_ref.npy (float64, C row-major). The data are drawn as
the GPU MODE nvfp4_dual_gemm problem draws them: random bytes masked with
0b1011_1011 (e2m1 0, 0.5, 1, 1.5 with random signs in both nibbles) and
scale factors uniform in [0, 1) rounded to the nearest e4m3 (ties to an even
code). The reference dequantises (element times its scale factor), multiplies
in float64 and computes silu(A B1^T) * (A B2^T) = x / (1 + exp(-x)) * y in
float64.

check compares the kernel's f16 C with the reference as the competition
does: |c - ref16| <= atol + rtol |ref16| with rtol = atol = 1e-3, where ref16
is the reference rounded to f16. It prints the largest differences.

shapes runs the kernel's emulation (CUTEC run) on the competition's 10 test
shapes (FIRST to LAST, 1-based, all by default) and checks each.
"""
import os
import subprocess
import sys
import time

import numpy as np

from nvfp4_gemm_data import sf_offset  # seed 001's scale-factor byte offsets
from nvfp4_gemv_data import E2M1, ue4m3

# The "tests" of problems/nvidia/nvfp4_dual_gemm/task.yml (M, N, K; L = 1).
GPU_MODE_TESTS = [(1536, 512, 7168), (256, 512, 256), (1536, 512, 7168), (3072, 1024, 1536),
                  (7168, 1024, 256), (7168, 2304, 2048), (4608, 384, 7168), (7168, 384, 2304),
                  (512, 768, 7168), (4096, 768, 512)]
RTOL = ATOL = 1e-3
INPUTS = ("a", "b1", "b2", "sfa", "sfb1", "sfb2")


def to_e4m3(x):
    """Non-negative floats to the nearest e4m3 code (ties to the even code)."""
    codes = np.arange(0x7F)
    values = ue4m3(codes).astype(np.float64)
    hi = np.clip(np.searchsorted(values, x), 1, len(values) - 1)
    lo = hi - 1
    d_lo, d_hi = x - values[lo], values[hi] - x
    pick_hi = (d_hi < d_lo) | ((d_hi == d_lo) & (hi % 2 == 0))
    return np.where(pick_hi, hi, lo).astype(np.uint8)


def operand(rng, rows, k):
    """Packed e2m1 bytes, the scale factors' memory image and the
    dequantised values (float64) of one (rows, k) operand."""
    packed = rng.integers(0, 255, size=rows * k // 2, dtype=np.uint8) & 0b1011_1011
    codes = np.empty(rows * k, dtype=np.uint8)
    codes[0::2], codes[1::2] = packed & 0xF, packed >> 4  # element 0 in the low nibble
    sf = to_e4m3(rng.random((rows, k // 16)))
    r, kb = np.meshgrid(np.arange(rows), np.arange(k // 16), indexing="ij")
    image = np.empty(rows * k // 16, dtype=np.uint8)
    image[sf_offset(r, kb * 16, k)] = sf
    scales = np.repeat(ue4m3(sf).astype(np.float64), 16, axis=1)
    return packed, image, E2M1[codes].astype(np.float64).reshape(rows, k) * scales


def generate(m, n, k, out, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(out, exist_ok=True)
    a, sfa, av = operand(rng, m, k)
    b1, sfb1, b1v = operand(rng, n, k)
    b2, sfb2, b2v = operand(rng, n, k)
    for name, array in zip(INPUTS, (a, b1, b2, sfa, sfb1, sfb2)):
        np.save(os.path.join(out, name + ".npy"), array, allow_pickle=False)
    x, y = av @ b1v.T, av @ b2v.T
    c = x / (1.0 + np.exp(-x)) * y
    np.save(os.path.join(out, "c_ref.npy"), c.reshape(-1), allow_pickle=False)


def check(out, c_path):
    ref16 = np.load(os.path.join(out, "c_ref.npy")).astype(np.float16).astype(np.float64)
    c = np.load(c_path).astype(np.float64)
    diff = np.abs(c - ref16)
    bad = np.count_nonzero(~(diff <= ATOL + RTOL * np.abs(ref16)))
    rel = np.max(diff / np.maximum(np.abs(ref16), 1.0))
    print(f"{c.size} elements, max |c - ref| = {diff.max():.3g} (largest |ref| "
          f"{np.abs(ref16).max():.4g}), max relative {rel:.3g}: "
          + (f"{bad} outside rtol = atol = {RTOL}" if bad else "all within rtol = atol = 1e-3"))
    return bad == 0


def shapes(cutec, work, first, last):
    example = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "..", "..", "..", "..", "examples", "nvfp4_dual_gemm.cute")
    ok = True
    for i in range(first, last + 1):
        m, n, k = GPU_MODE_TESTS[i - 1]
        out = os.path.join(work, f"shape{i}")
        generate(m, n, k, out, 1111 + i)
        args = [a for name in INPUTS
                for a in ("--arg", f"m{name.upper()}={os.path.join(out, name + '.npy')}")]
        start = time.monotonic()
        subprocess.run([cutec, "run", example, "-D", f"M={m}", "-D", f"N={n}", "-D", f"K={k}",
                        *args, "--out", f"mC={os.path.join(out, 'c.npy')}"], check=True)
        print(f"shape {i}: M={m} N={n} K={k}, emulated in {time.monotonic() - start:.1f} s: ",
              end="", flush=True)
        ok = check(out, os.path.join(out, "c.npy")) and ok
    return ok


def main():
    mode = sys.argv[1]
    if mode == "gen":
        m, n, k = (int(v) for v in sys.argv[2:5])
        generate(m, n, k, sys.argv[5], int(sys.argv[6]) if len(sys.argv) > 6 else 1)
    elif mode == "check":
        sys.exit(0 if check(sys.argv[2], sys.argv[3]) else 1)
    elif mode == "shapes":
        first, last = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (1, 10)
        sys.exit(0 if shapes(sys.argv[2], sys.argv[3], first, last) else 1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
