"""Decode-shaped f16 GEMMs on Hopper (few rows of A, N = K = 8192 by
default): hopper_gemm.cute, hopper_gemm_decode.cute, the swap-AB kernels of
hopper_gemm_swap_ab.cute and the choice among them by M, each checked
against torch.matmul and timed next to it (cuBLAS). Needs an sm_90 GPU
(H100/H200).

    PYTHONPATH=build/python python3 examples/python/gemm_decode_torch.py [N K]

C = A @ B.T with A (M, K) and B (N, K) row-major. Each row prints the
TFLOP/s of every kernel, of the choice by M ("by shape") and of cuBLAS.
"""

import os
import sys

import torch

import cutec
from timing import cuda_seconds

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..")
SWAP_AB_TILES = ("64x16", "64x32", "64x64", "64x128", "128x64", "128x128",
                 "64x64_mc2", "64x128_mc2", "128x128_mc2")

# The kernel for M rows: the first row of this table whose bound M is at
# or below. The swap-AB tiles put B's rows in wgmma's 64-row slot and A's M
# rows in its N, so that N = 8192 gives one tile per SM up to M = 256;
# above, hopper_gemm's 128 x 256 tiles fill the GPU. From 64 rows on, the
# A tile is multicast over pairs of CTAs ("_mc2"), which halves what each
# SM reads of it from L2.
CHOICE = ((16, "swap_ab_64x16"), (32, "swap_ab_64x32"), (64, "swap_ab_64x64_mc2"),
          (128, "swap_ab_64x128_mc2"), (256, "swap_ab_128x128_mc2"))


def compile_kernels():
    kernels = {
        "hopper_gemm": cutec.compile(os.path.join(EXAMPLES, "hopper_gemm.cute"), arch="sm_90a"),
        "hopper_gemm_decode": cutec.compile(os.path.join(EXAMPLES, "hopper_gemm_decode.cute"),
                                            arch="sm_90a"),
    }
    for tile in SWAP_AB_TILES:
        kernels["swap_ab_" + tile] = cutec.compile(
            os.path.join(EXAMPLES, "hopper_gemm_swap_ab.cute"),
            kernel="hopper_gemm_swap_ab_" + tile, arch="sm_90a")
    return kernels


def by_shape(kernels, M):
    for rows, name in CHOICE:
        if M <= rows:
            return kernels[name]
    return kernels["hopper_gemm"]


def main(N, K):
    kernels = compile_kernels()

    def linear(a, b, c):
        by_shape(kernels, a.shape[0])(a, b, c)

    for M in (16, 32, 64, 128, 256, 512):
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(N, K, device="cuda", dtype=torch.float16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        want = torch.matmul(a, b.t()).float()
        flops = 2 * M * N * K
        row = [f"f16 M={M:<4}"]
        for name, fn in (*kernels.items(), ("by shape", linear)):
            c.zero_()
            fn(a, b, c)
            error = ((c.float() - want).abs().max() / want.abs().max()).item()
            assert error < 1e-2, f"{name}: error {error}"
            seconds = cuda_seconds(lambda: fn(a, b, c))
            row.append(f"{name} {flops / seconds / 1e12:4.0f}")
        seconds = cuda_seconds(lambda: torch.matmul(a, b.t(), out=c))
        row.append(f"cuBLAS {flops / seconds / 1e12:4.0f} TFLOP/s")
        print("  ".join(row), flush=True)


if __name__ == "__main__":
    sizes = [int(x) for x in sys.argv[1:3]] or [8192, 8192]
    main(*sizes)
